import { resolve, sep } from 'node:path';
import * as vscode from 'vscode';
import { checkChart, type CheckedRender } from '../../core/checkChart';
import { checkOverlay } from '../../core/checkOverlay';
import { diskText } from '../../core/render/files';
import { Helm } from '../../core/render/helm/helm';
import type { RenderOutcome } from '../../core/render/failure';
import { Kustomize } from '../../core/render/kustomize/kustomize';
import type { Manifest, ProbeModel } from '../../core/manifest';
import type { PlacedProbe } from '../../core/render/placement/probePlaces';
import { ProofMemo } from '../../core/render/placement/proofMemo';
import type { Finding } from '../../core/rules/types';
import { RenderQueue } from '../../core/render/renderQueue';
import { isKustomizationFile, type RenderSource } from '../../core/render/renderSource';
import { type ProbeLensSettings, readSettings, SECTION } from '../base/settings';
import { RenderSources } from './renderSources';

/** One render of a chart or an overlay, checked, with the text it read. */
export interface RenderedResult {
  readonly source: RenderSource;
  readonly outcome: RenderOutcome<CheckedRender>;
  /** The open documents of the source and the versions the render read (uri → version). */
  readonly versions: ReadonlyMap<string, number>;
  /** When the render began (`performance.now()` ms, after the debounce). */
  readonly startedAt: number;
}

/** A rendered probe in the file its place was proven in: the model, its place, and the render's findings on its document. */
export interface PlacedRenderedProbe {
  readonly result: RenderedResult;
  readonly place: PlacedProbe;
  readonly probe: ProbeModel;
  /** The render's findings on the probe's document, where they are in the rendered output (for the lens and hover text). */
  readonly findings: readonly Finding[];
}

/** Files whose edits change a render: YAML, and Helm's own (`_helpers.tpl`, templates a Helm extension calls `helm`). */
const RENDERED_LANGUAGES = new Set(['yaml', 'helm', 'helm-template', 'plaintext', 'gotmpl']);

interface SourceState {
  readonly source: RenderSource;
  readonly queue: RenderQueue<RenderedResult>;
  readonly memo: ProofMemo;
  timer: NodeJS.Timeout | undefined;
  latest: RenderedResult | undefined;
}

/**
 * The charts and overlays of open files, rendered by the real helm and kubectl from the text
 * being edited (unsaved buffers are written into a temporary copy), checked, and their findings
 * placed back in their files. Renders are debounced like checks (`probeLens.debounceMs`), at most
 * one in flight per chart plus one waiting. Rendering runs a binary: only in a trusted workspace
 * with `probeLens.render.enabled`; in an untrusted one nothing runs, whatever is opened.
 */
export class RenderedModels implements vscode.Disposable {
  private readonly states = new Map<string, SourceState>();
  private readonly rendered = new vscode.EventEmitter<RenderedResult>();
  private readonly forgotten = new vscode.EventEmitter<RenderSource>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly helms = new Map<string, Helm>();
  private readonly kustomizes = new Map<string, Kustomize>();
  /** Which charts and overlays each open file is part of. */
  readonly sources: RenderSources;
  private disposed = false;

  /** A render finished (its result is the source's latest). */
  readonly onDidRender = this.rendered.event;
  /** No open file of the source is left, or rendering was turned off: its results are gone. */
  readonly onDidForget = this.forgotten.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.sources = new RenderSources((file) => this.textOf(file));
    this.subscriptions = [
      this.rendered,
      this.forgotten,
      this.sources,
      vscode.workspace.onDidOpenTextDocument((d) => this.documentChanged(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length > 0 && this.documentChanged(e.document)),
      vscode.workspace.onDidSaveTextDocument((d) => this.saved(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.renderOpen()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && this.settingsChanged()),
      this.sources.onDidChange(() => this.renderOpen()),
    ];
    this.renderOpen();
  }

  /** Every source's latest render. */
  get results(): readonly RenderedResult[] {
    return [...this.states.values()].flatMap((state) => (state.latest ? [state.latest] : []));
  }

  resultOf(root: string): RenderedResult | undefined {
    return this.states.get(root)?.latest;
  }

  /** The charts and overlays a document is rendered as part of (none when rendering may not run). */
  sourcesOfDocument(document: vscode.TextDocument): RenderSource[] {
    if (!this.mayRender(document) || !RENDERED_LANGUAGES.has(document.languageId)) return [];
    return this.sources.sourcesOf(document.uri.fsPath);
  }

  /** The rendered probes placed in this file, by the latest renders of its sources. */
  probesIn(document: vscode.TextDocument): PlacedRenderedProbe[] {
    const file = document.uri.fsPath;
    return this.sourcesOfDocument(document).flatMap((source) => {
      const result = this.resultOf(source.root);
      if (!result?.outcome.ok) return [];
      const manifest = result.outcome.value.manifest;
      const rendered = result.outcome.value.findings.flatMap((f) => (f.rendered ? [{ ...f, doc: f.rendered.doc, path: f.rendered.path, range: f.rendered.range }] : []));
      return result.outcome.value.probes.flatMap((place) => {
        if (place.file !== file) return [];
        const probe = probeModelOf(manifest, place);
        return probe ? [{ result, place, probe, findings: rendered.filter((f) => f.doc === place.doc) }] : [];
      });
    });
  }

  /** Renders started in all, and by source: for tests and measurements. */
  rendersStarted(root?: string): number {
    if (root) return this.states.get(root)?.queue.started ?? 0;
    return [...this.states.values()].reduce((n, s) => n + s.queue.started, 0);
  }

  /** Proofs recalled and proven for a source: for tests and measurements. */
  proofsOf(root: string): { recalled: number; proven: number } {
    const memo = this.states.get(root)?.memo;
    return { recalled: memo?.recalled ?? 0, proven: memo?.proven ?? 0 };
  }

  /** Renders the sources of a document now (a command, a test): resolves with their results. */
  async renderNow(document: vscode.TextDocument): Promise<RenderedResult[]> {
    const sources = this.sourcesOfDocument(document);
    const waits = sources.map((source) => new Promise<RenderedResult>((done) => {
      const subscription = this.rendered.event((result) => {
        if (result.source.root !== source.root) return;
        subscription.dispose();
        done(result);
      });
    }));
    for (const source of sources) this.request(this.stateOf(source));
    return Promise.all(waits);
  }

  private mayRender(scope?: vscode.TextDocument): boolean {
    return !this.disposed && vscode.workspace.isTrusted && this.settingsOf(scope).renderEnabled;
  }

  private settingsOf(scope?: vscode.TextDocument | string): ProbeLensSettings {
    return readSettings(typeof scope === 'string' ? vscode.Uri.file(scope) : scope?.uri);
  }

  private documentChanged(document: vscode.TextDocument, delay?: number): void {
    if (document.uri.scheme !== 'file') return;
    if (isKustomizationFile(document.uri.fsPath) && this.mayRender(document)) this.sources.overlayChanged(resolve(document.uri.fsPath, '..'));
    for (const source of this.sourcesOfDocument(document)) this.schedule(this.stateOf(source), delay ?? this.settingsOf(document).debounceMs);
  }

  /** A save changes nothing a render reads (it read the buffer), except which overlays there are. */
  private saved(document: vscode.TextDocument): void {
    if (document.uri.scheme === 'file' && isKustomizationFile(document.uri.fsPath) && this.mayRender(document)) this.sources.overlayChanged(resolve(document.uri.fsPath, '..'));
  }

  /** A closed file: its unsaved text is gone (render again from disk), or, with nothing of the source open, its results. */
  private closed(document: vscode.TextDocument): void {
    for (const [root, state] of this.states) {
      if (!state.latest?.versions.has(document.uri.toString())) continue;
      if (this.openDocumentsOf(state.source).length === 0) this.forget(root);
      else if (document.isDirty) this.schedule(state, 0);
    }
  }

  private settingsChanged(): void {
    this.helms.clear();
    this.kustomizes.clear();
    for (const [root, state] of this.states) {
      if (!this.mayRender(this.openDocumentsOf(state.source)[0])) this.forget(root);
    }
    this.renderOpen();
  }

  /** Renders the sources of every open document (on start, once trusted, when settings change). */
  private renderOpen(): void {
    if (!this.mayRender()) return;
    void this.sources.index();
    const roots = new Set<string>();
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== 'file') continue;
      for (const source of this.sourcesOfDocument(document)) {
        if (roots.has(source.root)) continue;
        roots.add(source.root);
        this.schedule(this.stateOf(source), 0);
      }
    }
  }

  private schedule(state: SourceState, delay: number): void {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      this.request(state);
    }, delay);
  }

  private request(state: SourceState): void {
    if (this.disposed) return;
    state.queue.request((signal) => this.render(state, signal));
  }

  /** One render, from the open documents' current text (read when it starts, not when it was asked for). */
  private async render(state: SourceState, signal: AbortSignal): Promise<RenderedResult> {
    const started = performance.now();
    const { source } = state;
    const open = this.openDocumentsOf(source);
    const versions = new Map(open.map((d) => [d.uri.toString(), d.version]));
    const unsaved = new Map(open.filter((d) => d.isDirty).map((d) => [resolve(d.uri.fsPath), d.getText()]));
    const settings = this.settingsOf(source.root);
    const common = {
      minorVersion: settings.minorVersion,
      disabledRules: settings.disabledRules,
      ...(settings.expectedStartupSeconds !== undefined ? { expectedStartupSeconds: settings.expectedStartupSeconds } : {}),
      unsaved,
      signal,
      placeProbes: true,
      memo: state.memo,
    };
    const outcome =
      source.kind === 'chart'
        ? await checkChart(source.root, { ...common, helm: this.helmOf(settings.helmPath) })
        : await checkOverlay(source.root, { ...common, kustomize: this.kustomizeOf(settings.kustomizePath) });
    const ms = performance.now() - started;
    this.log.debug(`rendered ${source.kind} ${source.root} in ${Math.round(ms)} ms: ${outcome.ok ? `${outcome.value.findings.length} findings` : outcome.failure.message}`);
    return { source, outcome, versions, startedAt: started };
  }

  /**
   * A render of text edited since, with the next render already scheduled, is not shown: its
   * ranges would land on moved lines for the moment until the next one replaces it.
   */
  private delivered(state: SourceState, result: RenderedResult): void {
    if (this.disposed || this.states.get(state.source.root) !== state) return;
    const edited = this.openDocumentsOf(state.source).some((d) => result.versions.get(d.uri.toString()) !== d.version);
    if (edited && state.timer) return;
    state.latest = result;
    this.rendered.fire(result);
  }

  /** The open files a render of the source reads: under a chart's folder, or in an overlay's graph. */
  private openDocumentsOf(source: RenderSource): vscode.TextDocument[] {
    const files = source.kind === 'overlay' ? this.sources.filesOf(source.root) : undefined;
    const prefix = source.root.endsWith(sep) ? source.root : source.root + sep;
    return vscode.workspace.textDocuments.filter((d) => {
      if (d.uri.scheme !== 'file' || d.isClosed) return false;
      const file = resolve(d.uri.fsPath);
      return files ? files.has(file) : file.startsWith(prefix);
    });
  }

  /** The text a render reads of a file: the open buffer's, else the disk's. */
  private textOf(file: string): string | undefined {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && resolve(d.uri.fsPath) === file);
    return open ? open.getText() : diskText(file);
  }

  private stateOf(source: RenderSource): SourceState {
    let state = this.states.get(source.root);
    if (!state) {
      const created: SourceState = {
        source,
        memo: new ProofMemo(),
        timer: undefined,
        latest: undefined,
        queue: new RenderQueue<RenderedResult>(
          (result) => this.delivered(created, result),
          (error) => this.log.error(`rendering ${source.root} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
        ),
      };
      state = created;
      this.states.set(source.root, state);
    }
    return state;
  }

  private forget(root: string): void {
    const state = this.states.get(root);
    if (!state) return;
    clearTimeout(state.timer);
    state.queue.dispose();
    this.states.delete(root);
    this.forgotten.fire(state.source);
  }

  private helmOf(path: string): Helm {
    let helm = this.helms.get(path);
    if (!helm) this.helms.set(path, (helm = new Helm({ path, namedBy: 'set probeLens.helm.path' })));
    return helm;
  }

  private kustomizeOf(path: string): Kustomize {
    let kustomize = this.kustomizes.get(path);
    if (!kustomize) this.kustomizes.set(path, (kustomize = new Kustomize({ path, namedBy: 'set probeLens.kustomize.path' })));
    return kustomize;
  }

  dispose(): void {
    this.disposed = true;
    for (const state of this.states.values()) {
      clearTimeout(state.timer);
      state.queue.dispose();
    }
    this.states.clear();
    this.subscriptions.forEach((s) => s.dispose());
  }
}

/** The rendered probe a place was found for. */
function probeModelOf(manifest: Manifest, place: PlacedProbe): ProbeModel | undefined {
  const document = manifest.documents.find((d) => d.source.index === place.doc);
  for (const pod of document?.podSpecs ?? []) {
    for (const container of pod.containers) {
      const probe = container.probes.find((p) => p.path === place.path);
      if (probe) return probe;
    }
  }
  return undefined;
}

