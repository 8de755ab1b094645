import * as vscode from 'vscode';
import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import { apiLine, type Problem, presentFindings } from '../../core/rules/present';
import type { Severity } from '../../core/rules/types';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import { ruleDocTarget } from '../commands/ruleDocs';

const SEVERITY: Readonly<Record<Severity, vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export const DIAGNOSTIC_SOURCE = 'probe-lens';

/** What says a document's findings as written are replaced by those of its render (`RenderedDiagnostics`). */
export interface ReplacedFindings {
  replaces(document: vscode.TextDocument): boolean;
  /** Documents whose findings are replaced now, or no longer. */
  readonly onDidChange: vscode.Event<readonly vscode.Uri[]>;
}

/** One problem, one diagnostic: plain words first; the API server's exact text beside them. */
export function diagnosticOf(uri: vscode.Uri, problem: Problem): vscode.Diagnostic {
  const { primary, apiText } = problem;
  const range = toVsRange(primary.range);
  const diagnostic = new vscode.Diagnostic(range, problem.headline, SEVERITY[primary.severity]);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = { value: primary.rule, target: ruleDocTarget(primary.rule) };
  if (apiText) diagnostic.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, range), apiLine(apiText))];
  return diagnostic;
}

/** Publishes the checker's findings for every manifest the models read; nothing here runs a probe. */
export class FindingsDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('probe-lens');
  private readonly subscription: vscode.Disposable;
  /** Per document, the newest snapshot waiting to be published. */
  private readonly queued = new Map<string, { document: vscode.TextDocument; snapshot: ManifestSnapshot }>();
  private disposed = false;
  /** When findings were last handed to VS Code (`performance.now()` ms), and how long that took: for measurements. */
  lastPublishedAt = 0;
  lastPublishMs = 0;

  constructor(
    private readonly models: ManifestModels,
    /** Findings another surface shows better: a chart template's, once the chart is rendered (its findings are then placed from the render). */
    private readonly replaced?: ReplacedFindings,
  ) {
    // Published in a task of its own: a read and its publishing never block the thread together,
    // which probe timers share with editing.
    this.subscription = vscode.Disposable.from(
      models.onDidShow(({ document, snapshot }) => this.publishSoon(document, snapshot)),
      ...(replaced ? [replaced.onDidChange((uris) => this.republish(uris))] : []),
    );
    for (const document of vscode.workspace.textDocuments) this.publish(document, models.get(document));
  }

  private republish(uris: readonly vscode.Uri[]): void {
    const keys = new Set(uris.map((u) => u.toString()));
    for (const document of vscode.workspace.textDocuments) if (keys.has(document.uri.toString())) this.publishSoon(document, this.models.get(document));
  }

  private publishSoon(document: vscode.TextDocument, snapshot: ManifestSnapshot): void {
    const key = document.uri.toString();
    const queued = this.queued.has(key);
    this.queued.set(key, { document, snapshot });
    if (queued) return;
    setImmediate(() => {
      const latest = this.queued.get(key);
      this.queued.delete(key);
      if (latest && !this.disposed) this.publish(latest.document, latest.snapshot);
    });
  }

  private publish(document: vscode.TextDocument, snapshot: ManifestSnapshot): void {
    const started = performance.now();
    const findings = this.replaced?.replaces(document) ? [] : snapshot.findings;
    if (document.isClosed || findings.length === 0) this.collection.delete(document.uri);
    else this.collection.set(document.uri, presentFindings(findings).map((problem) => diagnosticOf(document.uri, problem)));
    this.lastPublishedAt = performance.now();
    this.lastPublishMs = this.lastPublishedAt - started;
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    this.collection.dispose();
  }
}
