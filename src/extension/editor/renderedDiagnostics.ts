import { join, sep } from 'node:path';
import * as vscode from 'vscode';
import type { RenderFailure } from '../../core/render/failure';
import { kustomizationFile, type RenderSource } from '../../core/render/renderSource';
import { presentFindings } from '../../core/rules/present';
import type { Finding } from '../../core/rules/types';
import type { ManifestModels } from '../documents/manifestModels';
import type { RenderedModels, RenderedResult } from '../rendering/renderedModels';
import { renderedUriOf } from '../rendering/renderedOutput';
import { notify, openSettingAction } from '../sessions/notices';
import { DIAGNOSTIC_SOURCE, diagnosticOf, type ReplacedFindings } from './diagnostics';

/** Failures that mean no render can run at all: a notice, once, rather than a diagnostic on every chart. */
const RENDERER_FAILURES: ReadonlySet<RenderFailure['kind']> = new Set(['renderer-missing', 'renderer-unsupported']);

/**
 * The findings of rendered charts and overlays, published in the files where they are fixed: a
 * values key, a template line, an overlay's resource or patch. A failed render is one diagnostic
 * at the file and line the renderer names; a missing or unusable helm or kubectl is one notice
 * with *Open Settings*, once a window, never a diagnostic per keystroke. A chart's templates,
 * once it renders, show only what the render found (their own check says only "templated").
 */
export class RenderedDiagnostics implements vscode.Disposable, ReplacedFindings {
  private readonly collection = vscode.languages.createDiagnosticCollection('probe-lens-rendered');
  private readonly subscriptions: vscode.Disposable[];
  private readonly replacedChanged = new vscode.EventEmitter<readonly vscode.Uri[]>();
  /** The files that have diagnostics from renders now. */
  private published = new Set<string>();
  /** Notices already shown (by their text): one each a window. */
  private readonly noticed = new Set<string>();
  /** When a render's findings were last handed to VS Code (`performance.now()` ms): for measurements. */
  lastPublishedAt = 0;

  readonly onDidChange = this.replacedChanged.event;

  constructor(
    private readonly rendered: RenderedModels,
    private readonly models: ManifestModels,
  ) {
    this.subscriptions = [
      this.collection,
      this.replacedChanged,
      rendered.onDidRender((result) => this.renderedOne(result)),
      rendered.onDidForget((source) => this.forgotOne(source)),
      // A file's own findings changed: the rendered ones it duplicates are left out again.
      models.onDidShow(({ document }) => this.published.has(document.uri.fsPath) && this.publishAll()),
    ];
  }

  /**
   * A chart's template or an overlay's patch, once its chart or overlay rendered: what it says as
   * written is replaced by the render's findings. A template checked as written says only
   * "templated"; a patch is a fragment (a probe with only the fields it changes), so its own check
   * would say what the merged probe is not — "no handler" for a probe whose handler is in the base.
   */
  replaces(document: vscode.TextDocument): boolean {
    if (document.uri.scheme !== 'file') return false;
    const file = document.uri.fsPath;
    return this.rendered.sourcesOfDocument(document).some((source) => {
      if (this.rendered.resultOf(source.root)?.outcome.ok !== true) return false;
      return source.kind === 'chart' ? isTemplate(source, file) : this.rendered.sources.patchesOf(source.root)?.has(file) === true;
    });
  }

  private renderedOne(result: RenderedResult): void {
    if (!result.outcome.ok && RENDERER_FAILURES.has(result.outcome.failure.kind)) this.noticeOnce(result.outcome.failure, result.source);
    this.publishAll();
    this.replacedChanged.fire(this.openFilesOf(result.source));
  }

  /** Its results are gone (rendering turned off, its files closed): its templates and patches speak for themselves again. */
  private forgotOne(source: RenderSource): void {
    this.publishAll();
    this.replacedChanged.fire(this.openFilesOf(source));
  }

  private openFilesOf(source: RenderSource): vscode.Uri[] {
    const files = source.kind === 'overlay' ? this.rendered.sources.filesOf(source.root) : undefined;
    const inSource = (file: string) => (files ? files.has(file) : file.startsWith(source.root + sep));
    return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && inSource(d.uri.fsPath)).map((d) => d.uri);
  }

  /** Every source's latest findings, merged by file: a base two overlays build gets each finding once. */
  private publishAll(): void {
    const byFile = new Map<string, { diagnostics: vscode.Diagnostic[]; seen: Set<string> }>();
    const add = (file: string, key: string, diagnostic: vscode.Diagnostic): void => {
      const entry = byFile.get(file) ?? { diagnostics: [], seen: new Set<string>() };
      byFile.set(file, entry);
      if (entry.seen.has(key)) return;
      entry.seen.add(key);
      entry.diagnostics.push(diagnostic);
    };
    for (const result of this.rendered.results) {
      if (!result.outcome.ok) {
        const failure = result.outcome.failure;
        if (RENDERER_FAILURES.has(failure.kind)) continue;
        const file = failure.file ?? defaultFileOf(result.source);
        add(file, `failure:${failure.message}`, failureDiagnostic(failure));
        continue;
      }
      const renderedUri = renderedUriOf(result.source);
      for (const [file, findings] of groupByFile(result.outcome.value.findings)) {
        const own = this.ownFindings(file);
        const shown = findings.filter((f) => !own.some((o) => o.rule === f.rule && o.range.start.line === f.range.start.line && o.range.start.character === f.range.start.character));
        for (const problem of presentFindings(shown)) {
          const uri = vscode.Uri.file(file);
          const diagnostic = diagnosticOf(uri, problem);
          const at = problem.primary.rendered;
          if (at) {
            const where = new vscode.Location(renderedUri, new vscode.Range(at.range.start.line, at.range.start.character, at.range.end.line, at.range.end.character));
            diagnostic.relatedInformation = [...(diagnostic.relatedInformation ?? []), new vscode.DiagnosticRelatedInformation(where, renderedWords(at, result.source))];
          }
          add(file, `${problem.primary.rule}:${rangeKey(diagnostic.range)}:${problem.headline}`, diagnostic);
        }
      }
    }
    const next = new Set(byFile.keys());
    for (const file of this.published) if (!next.has(file)) this.collection.delete(vscode.Uri.file(file));
    for (const [file, { diagnostics }] of byFile) this.collection.set(vscode.Uri.file(file), diagnostics);
    this.published = next;
    this.lastPublishedAt = performance.now();
  }

  /** The findings a file shows as written (an overlay's resource is also a manifest of its own). */
  private ownFindings(file: string): readonly Finding[] {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
    if (!document || this.replaces(document)) return [];
    return this.models.get(document).findings;
  }

  private noticeOnce(failure: RenderFailure, source: RenderSource): void {
    if (this.noticed.has(failure.message)) return;
    this.noticed.add(failure.message);
    const setting = source.kind === 'chart' ? 'probeLens.helm.path' : 'probeLens.kustomize.path';
    void notify('warning', failure.message, [openSettingAction(setting)]);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
  }
}

function groupByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const finding of findings) byFile.set(finding.file, [...(byFile.get(finding.file) ?? []), finding]);
  return byFile;
}

function failureDiagnostic(failure: RenderFailure): vscode.Diagnostic {
  const line = failure.line ?? 0;
  const character = failure.character ?? 0;
  const diagnostic = new vscode.Diagnostic(new vscode.Range(line, character, line, Math.max(character + 1, 1000)), failure.message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = failure.kind;
  return diagnostic;
}

/** Where a failure without a file of its own is shown: the chart's Chart.yaml, the overlay's kustomization. */
function defaultFileOf(source: RenderSource): string {
  return source.kind === 'chart' ? join(source.root, 'Chart.yaml') : (kustomizationFile(source.root) ?? join(source.root, 'kustomization.yaml'));
}

function isTemplate(source: RenderSource, file: string): boolean {
  return file.startsWith(source.root + sep) && file.split(sep).includes('templates');
}

function renderedWords(at: NonNullable<Finding['rendered']>, source: RenderSource): string {
  const from = at.source ? ` from ${at.source}` : '';
  const how = at.placed === 'values' ? `, set by ${at.valuesKey ?? 'the values'}` : at.placed === 'workload' ? ', placed at its workload (the line that writes it could not be proven)' : '';
  return `rendered${from} at ${at.path} (the ${source.kind}'s rendered output)${how}`;
}

function rangeKey(range: vscode.Range): string {
  return `${range.start.line}:${range.start.character}`;
}
