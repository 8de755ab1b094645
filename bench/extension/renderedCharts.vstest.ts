/**
 * Issue 21 §6, in a real extension host: an edit to a chart's values.yaml → its rendered
 * findings handed to VS Code, against the floor — one `helm template` of the same chart, run
 * directly in the same host. Both with the real helm 4.1.4 (scripts/install-renderers.mjs).
 * The editor's figure starts when the render starts (the debounce has run out: the wait for
 * typing to stop, `probeLens.debounceMs`, is reported apart) and ends when the diagnostics are set.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ProbeLensApi } from '../../src/extension/extension';
import { test, waitFor } from '../../test/extension/harness';
import { fixtureUri, probeLensExtension } from '../../test/extension/workbench';
import { median } from '../stats';

const GOAL_RATIO = 1.3;
const EDITS = 15;

function report(line: string): void {
  console.log(`  ${line}`);
}

function helmPath(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '.renderers.json'), 'utf8')) as Record<string, { path: string }>;
  return (manifest['helm4'] as { path: string }).path;
}

/** One `helm template` of the chart, as Probe Lens runs it (offline, plugins off), timed from spawn to exit. */
function helmTemplateMs(helm: string, root: string): number {
  const started = performance.now();
  execFileSync(helm, ['template', 'release-name', root, '--kube-version', 'v1.33.0'], { env: { ...process.env, HELM_NO_PLUGINS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return performance.now() - started;
}

test('a values.yaml edit → rendered diagnostics, against one helm template', async () => {
  const api: ProbeLensApi = await probeLensExtension().activate();
  const helm = helmPath();
  await vscode.workspace.getConfiguration('probeLens').update('helm.path', helm, vscode.ConfigurationTarget.Global);
  const root = fixtureUri('charts/web').fsPath;
  const document = await vscode.workspace.openTextDocument(fixtureUri('charts/web/values.yaml'));
  await vscode.window.showTextDocument(document, { preview: false });
  await waitFor(() => api.rendered.resultOf(root)?.outcome.ok, 30_000, 'the chart rendered');
  const line = document.getText().split('\n').findIndex((l) => l.includes('successThreshold: 2'));
  assert.ok(line >= 0);
  const character = document.lineAt(line).text.indexOf('2');
  const editor: number[] = [];
  const renders: number[] = [];
  const waited: number[] = [];
  const proofsBefore = api.rendered.proofsOf(root);
  for (let i = 0; i < EDITS; i++) {
    const value = String(3 + (i % 5));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(line, character, line, character + 1), value);
    const editedAt = performance.now();
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => vscode.languages.getDiagnostics(document.uri).some((d) => d.message.includes(`successThreshold is ${value}`)), 10_000, `the finding for ${value}`);
    const result = api.rendered.resultOf(root);
    assert.ok(result?.outcome.ok);
    editor.push(api.renderedDiagnostics.lastPublishedAt - result.startedAt);
    waited.push(result.startedAt - editedAt);
    renders.push(helmTemplateMs(helm, root));
  }
  const proofs = api.rendered.proofsOf(root);
  const ms = median(editor);
  const floor = median(renders);
  const ratio = ms / floor;
  report(`values.yaml edit → rendered diagnostics: ${ms.toFixed(0)} ms vs one helm template ${floor.toFixed(0)} ms = ${ratio.toFixed(2)}× (median of ${EDITS} edits; goal ≤ ${GOAL_RATIO}×) ${ratio <= GOAL_RATIO ? 'PASS' : 'FAIL'}`);
  report(`  proofs over the edits: ${proofs.recalled - proofsBefore.recalled} recalled, ${proofs.proven - proofsBefore.proven} proven again (a proof render each)`);
  report(`  before the render: the debounce (probeLens.debounceMs) and the edit's own event, ${median(waited).toFixed(0)} ms (median)`);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}, { timeoutMs: 180_000 });
