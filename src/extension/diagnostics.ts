import * as vscode from 'vscode';
import type { ManifestSnapshot } from '../core/editing/incrementalChecker';
import type { Finding, Severity } from '../core/rules/types';
import type { ManifestModels } from './documents/manifestModels';
import { toVsRange } from './documents/positions';

const SEVERITY: Readonly<Record<Severity, vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export const DIAGNOSTIC_SOURCE = 'probe-lens';

/** Publishes the checker's findings for every manifest the models read; nothing here runs a probe. */
export class FindingsDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('probe-lens');
  private readonly subscription: vscode.Disposable;
  /** Per document, the newest snapshot waiting to be published. */
  private readonly queued = new Map<string, { document: vscode.TextDocument; snapshot: ManifestSnapshot }>();
  private disposed = false;
  /** When findings were last handed to VS Code (`performance.now()` ms): for measurements. */
  lastPublishedAt = 0;

  constructor(
    models: ManifestModels,
    private readonly rulesDoc: vscode.Uri,
  ) {
    // Published in a task of its own: a read and its publishing never block the thread together,
    // which probe timers share with editing.
    this.subscription = models.onDidUpdate(({ document, snapshot }) => this.publishSoon(document, snapshot));
    for (const document of vscode.workspace.textDocuments) this.publish(document, models.get(document));
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
    if (document.isClosed || snapshot.findings.length === 0) this.collection.delete(document.uri);
    else this.collection.set(document.uri, snapshot.findings.map((f) => this.toDiagnostic(f)));
    this.lastPublishedAt = performance.now();
  }

  private toDiagnostic(finding: Finding): vscode.Diagnostic {
    const diagnostic = new vscode.Diagnostic(toVsRange(finding.range), finding.message, SEVERITY[finding.severity]);
    diagnostic.source = DIAGNOSTIC_SOURCE;
    diagnostic.code = { value: finding.rule, target: this.rulesDoc.with({ fragment: finding.rule.toLowerCase() }) };
    return diagnostic;
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    this.collection.dispose();
  }
}
