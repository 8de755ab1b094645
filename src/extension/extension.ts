import * as vscode from 'vscode';
import { FindingsDiagnostics } from './diagnostics';

/** Composition root: wires core to VS Code and nothing else. */
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(new FindingsDiagnostics(vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules.md')));
}

export function deactivate(): void {}
