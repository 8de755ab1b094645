/**
 * What every extension-host suite needs from the workbench: the extension's test API and the
 * fixture workspace (test/e2e/fixtures/workspace, opened as a throw-away copy).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeLensApi } from '../../src/extension/extension';

/** publisher.name from package.json. */
export const EXTENSION_ID = 'probe-lens.probe-lens';

export function probeLensExtension(): vscode.Extension<ProbeLensApi> {
  const found = vscode.extensions.getExtension<ProbeLensApi>(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is not loaded: is the harness passing extensionDevelopmentPath?`);
  return found;
}

/** The API `activate()` returns (activating the extension if nothing has yet). */
export function activateProbeLens(): Promise<ProbeLensApi> {
  return Promise.resolve(probeLensExtension().activate());
}

export function fixtureUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is open');
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/'));
}

/** Not a preview editor: the next opened file would replace it and close the document. */
export async function openFixture(relative: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(fixtureUri(relative));
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

/** The diagnostics Probe Lens published for a document (live ones included). */
export function probeLensDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'probe-lens');
}

/** A diagnostic's rule id (its `code`, or `code.value` where it links to the rule's docs). */
export function ruleId(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' ? String(code.value) : String(code);
}

let untitledCount = 0;

/**
 * A new untitled YAML document holding `content`, under a name no other has had. VS Code names
 * `openTextDocument({ content })` after the lowest free `Untitled-N`, and hands back the text
 * model it still holds for a name just freed (an untitled document closed a moment ago, whose
 * model the extension host's reference keeps alive) — with that document's old text.
 */
export async function openUntitledYaml(content: string, name = 'manifest'): Promise<vscode.TextDocument> {
  untitledCount += 1;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `/${name}-${process.pid}-${untitledCount}.yaml` }));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(document.uri, new vscode.Position(0, 0), content);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the untitled document takes its text');
  assert.equal(document.getText(), content);
  return document;
}
