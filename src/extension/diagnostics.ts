import * as vscode from 'vscode';
import { checkText, parseKubernetesVersion } from '../core/check';
import { normaliseRuleIds } from '../core/rules/registry';
import type { Finding, Severity } from '../core/rules/types';

const SEVERITY: Readonly<Record<Severity, vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

const DEBOUNCE_MS = 200;

/**
 * Publishes the checker's findings on YAML documents: when opened, shortly after typing stops,
 * when settings change; cleared when closed. Nothing here runs a probe.
 */
export class FindingsDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('probe-lens');
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly rulesDoc: vscode.Uri) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => this.publish(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('probeLens')) vscode.workspace.textDocuments.forEach((d) => this.publish(d));
      }),
    ];
    vscode.workspace.textDocuments.forEach((d) => this.publish(d));
  }

  private schedule(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.publish(document);
      }, DEBOUNCE_MS),
    );
  }

  private publish(document: vscode.TextDocument): void {
    if (document.languageId !== 'yaml' || document.isClosed) return;
    const settings = vscode.workspace.getConfiguration('probeLens', document.uri);
    const minorVersion = parseKubernetesVersion(settings.get<string>('kubernetesVersion', '1.33'));
    const findings = checkText(document.getText(), {
      file: document.uri.fsPath,
      disabledRules: new Set(normaliseRuleIds(settings.get<string[]>('disabledRules', [])).known),
      ...(minorVersion !== undefined ? { minorVersion } : {}),
    });
    this.collection.set(document.uri, findings.map((f) => this.toDiagnostic(f)));
  }

  private toDiagnostic(finding: Finding): vscode.Diagnostic {
    const { start, end } = finding.range;
    const diagnostic = new vscode.Diagnostic(new vscode.Range(start.line, start.character, end.line, end.character), finding.message, SEVERITY[finding.severity]);
    diagnostic.source = 'probe-lens';
    diagnostic.code = { value: finding.rule, target: this.rulesDoc.with({ fragment: finding.rule.toLowerCase() }) };
    return diagnostic;
  }

  private forget(uri: vscode.Uri): void {
    clearTimeout(this.pending.get(uri.toString()));
    this.pending.delete(uri.toString());
    this.collection.delete(uri);
  }

  dispose(): void {
    this.pending.forEach((timer) => clearTimeout(timer));
    this.pending.clear();
    this.subscriptions.forEach((s) => s.dispose());
    this.collection.dispose();
  }
}
