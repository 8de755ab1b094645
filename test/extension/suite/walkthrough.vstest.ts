/**
 * The Get Started walkthrough's commands inside a real VS Code (src/extension/walkthrough.ts):
 * the packaged example opened as a copy in the extension's storage, kept once the user changed
 * it, and simulated with its scenario. The walkthrough's page itself is driven through the UI by
 * test/e2e/marketplaceTest.mjs, from the installed .vsix.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbingSession } from '../../../src/extension/sessions/probingSession';
import { test, waitFor } from '../harness';
import { activateProbeLens, probeLensDiagnostics, probeLensExtension, ruleId } from '../workbench';

function packagedExample(name: string): vscode.Uri {
  return vscode.Uri.joinPath(probeLensExtension().extensionUri, 'media', 'walkthrough', 'example', name);
}

async function textOf(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

test('walkthrough: "Open the Example" opens a copy of the packaged web.yaml, with its L10 warning', async () => {
  await activateProbeLens();
  const editor = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('probeLens.walkthrough.openExample');
  assert.ok(editor, 'the command returned the editor');
  const copy = editor.document.uri;
  assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), copy.toString(), 'the copy is the active editor');
  assert.match(copy.path, /\/walkthrough\/web\.yaml$/);
  assert.ok(!copy.path.startsWith(probeLensExtension().extensionUri.path), 'a copy, not the packaged file');
  assert.equal(editor.document.getText(), await textOf(packagedExample('web.yaml')));
  // The scenario the simulation step plays sits beside it, as Simulate… looks for it.
  assert.equal(await textOf(vscode.Uri.joinPath(copy, '..', 'web.scenario.yaml')), await textOf(packagedExample('web.scenario.yaml')));
  const found = await waitFor(() => {
    const rules = probeLensDiagnostics(copy).map(ruleId);
    return rules.length > 0 && rules;
  }, 10_000, 'diagnostics on the example');
  assert.deepEqual(found, ['L10']);
});

test('walkthrough: "Open the Example" again keeps the copy the user changed', async () => {
  const first = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('probeLens.walkthrough.openExample');
  assert.ok(first);
  const marker = '# changed by the user\n';
  await first.edit((edit) => edit.insert(new vscode.Position(0, 0), marker));
  assert.ok(await first.document.save(), 'saved');
  try {
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const again = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('probeLens.walkthrough.openExample');
    assert.ok(again);
    assert.equal(again.document.uri.toString(), first.document.uri.toString());
    assert.ok(again.document.getText().startsWith(marker), 'the saved change is still there');
  } finally {
    // Back to the example as shipped, for the next test.
    await vscode.workspace.fs.writeFile(first.document.uri, await vscode.workspace.fs.readFile(packagedExample('web.yaml')));
  }
});

test('walkthrough: "Simulate the Example" plays the copy against its scenario at 10×', async () => {
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.walkthrough.simulateExample');
  assert.ok(session, 'the command returned the session');
  try {
    assert.equal(session.kind, 'simulated');
    assert.match(session.uri.path, /\/walkthrough\/web\.yaml$/);
    assert.equal(session.rate, 10);
    // The scenario's app listens after 45 s; liveness (period 10 s, threshold 3) kills it first,
    // 3 s into the simulation at 10×.
    const killed = () => session.events.events().some((e) => e.type === 'event' && e.reason === 'Killing');
    await waitFor(killed, 10_000, 'the liveness probe to kill the container');
  } finally {
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: session.uri });
  }
}, { timeoutMs: 30_000 });
