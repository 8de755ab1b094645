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

  constructor(
    models: ManifestModels,
    private readonly rulesDoc: vscode.Uri,
  ) {
    this.subscription = models.onDidUpdate(({ document, snapshot }) => this.publish(document, snapshot));
    for (const document of vscode.workspace.textDocuments) this.publish(document, models.get(document));
  }

  private publish(document: vscode.TextDocument, snapshot: ManifestSnapshot): void {
    if (document.isClosed || snapshot.findings.length === 0) this.collection.delete(document.uri);
    else this.collection.set(document.uri, snapshot.findings.map((f) => this.toDiagnostic(f)));
  }

  private toDiagnostic(finding: Finding): vscode.Diagnostic {
    const diagnostic = new vscode.Diagnostic(toVsRange(finding.range), finding.message, SEVERITY[finding.severity]);
    diagnostic.source = DIAGNOSTIC_SOURCE;
    diagnostic.code = { value: finding.rule, target: this.rulesDoc.with({ fragment: finding.rule.toLowerCase() }) };
    return diagnostic;
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }
}
