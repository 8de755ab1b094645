/**
 * Measured probe values in the real VS Code (issue 12 §2): with a recording of the manifest open
 * in the timeline (or a session of it running), a code action on a probe applies the recommended
 * values — one workspace edit, undone by one undo — and the hover section says what was measured
 * and why. Fixture: test/e2e/fixtures/workspace/recommend/ (a throw-away copy); the recording is
 * made here, by the engine, from the fixture's own text.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { simulate } from '../../../src/core/targets/simulation';
import { parseManifest } from '../../../src/core/manifest';
import { parseScenario } from '../../../src/core/scenario/parse';
import type { EngineEvent } from '../../../src/core/engine/events';
import { runHeader, toJsonLines } from '../../../src/core/timeline/jsonl';
import { recommendationHover } from '../../../src/extension/editor/recommendActions';
import { test, waitFor } from '../harness';
import { simulateFixture } from '../probing';
import { activateProbeLens, fixtureUri, openFixture } from '../workbench';
import { loaded } from '../timelines';

const MANIFEST = 'recommend/api.yaml';
const SCENARIO = 'recommend/api.scenario.yaml';

/** The fixture with the values its app calls for: 2 s timeouts (p99 700 ms), a startupProbe of 8 × 10 s (start-up 47.1 s × 1.5). */
function recommended(original: string): string {
  return original.replace('            periodSeconds: 5\n', '            periodSeconds: 5\n            timeoutSeconds: 2\n').replace(
    '            periodSeconds: 10\n',
    '            periodSeconds: 10\n            timeoutSeconds: 2\n          startupProbe:\n            httpGet:\n              path: /healthz\n              port: http\n            failureThreshold: 8\n            periodSeconds: 10\n            timeoutSeconds: 2\n',
  );
}

const APPLY_TITLE = 'Apply measured probe values to api: liveness timeoutSeconds 1 → 2, readiness timeoutSeconds 1 → 2, add a startupProbe (8 × 10 s)';

async function measuredActions(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', document.uri, new vscode.Range(position, position), vscode.CodeActionKind.QuickFix.value);
  return (actions ?? []).filter((a): a is vscode.CodeAction => typeof a.command !== 'string' && /^Apply (all \d+ )?measured probe values/.test(a.title));
}

/** On the `livenessProbe` key. */
function livenessKey(document: vscode.TextDocument): vscode.Position {
  const line = document.getText().split('\n').findIndex((l) => l.trim() === 'livenessProbe:');
  assert.ok(line >= 0);
  return new vscode.Position(line, 12);
}

/** A recording of the fixture's app, as `probe-lens simulate --format jsonl` writes it, naming the manifest in its header. */
async function writeRecording(text: string): Promise<vscode.Uri> {
  const scenario = parseScenario((await vscode.workspace.fs.readFile(fixtureUri(SCENARIO))).toString());
  assert.ok(scenario.ok);
  const events: EngineEvent[] = [];
  simulate(parseManifest(text), { scenario: scenario.scenario, durationSeconds: 3600, seed: 1, emit: (e) => events.push(e) });
  const uri = fixtureUri('recommend/api.jsonl');
  await vscode.workspace.fs.writeFile(uri, Buffer.from(toJsonLines(runHeader({ mode: 'simulate', file: MANIFEST }), events)));
  return uri;
}

/** Applies the action's edit, checks the text, undoes it with one undo and checks the text is back. */
async function applyAndUndo(document: vscode.TextDocument, action: vscode.CodeAction, original: string): Promise<void> {
  assert.ok(action.edit, 'the action carries its edit');
  assert.equal(action.edit.entries().length, 1, 'one document');
  assert.ok(await vscode.workspace.applyEdit(action.edit));
  assert.equal(document.getText(), recommended(original));
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('undo');
  await waitFor(() => document.getText() === original, 5_000, 'one undo to restore the text');
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

test('recommend: a recording open in the timeline offers its values on a probe; one edit, one undo; the hover says why', async () => {
  const api = await activateProbeLens();
  const document = await openFixture(MANIFEST);
  const original = document.getText();
  assert.deepEqual(await measuredActions(document, livenessKey(document)), [], 'nothing measured yet: no action');
  const recording = await writeRecording(original);
  const panel = await api.timeline.openFile(recording);
  assert.ok(panel, 'the recording opened');
  // Loaded before the editor covers it: a webview hidden (or closed) while it still loads leaves
  // VS Code for the Web's webview service worker waiting on its fetches for 30 s, and no webview
  // opened meanwhile starts (code-server 4.100: "Found unexpected service worker controller").
  await loaded(panel, "the recording's panel");
  try {
    // The extension's own classes are bundled apart from this file's imports: no instanceof here.
    assert.equal((panel.content as { manifest?: vscode.Uri } | undefined)?.manifest?.toString(), document.uri.toString(), 'the header leads to the manifest');
    const actions = await waitFor(() => measuredActions(document, livenessKey(document)).then((a) => a.length > 0 && a), 10_000, 'the measured values action');
    assert.deepEqual(
      actions.map((a) => a.title),
      [APPLY_TITLE],
    );
    // Anywhere in a probe of the container, not only on its key; not outside the probes.
    const readinessPath = new vscode.Position(document.getText().split('\n').findIndex((l) => l.includes('path: /ready')), 22);
    assert.deepEqual((await measuredActions(document, readinessPath)).map((a) => a.title), [APPLY_TITLE]);
    assert.deepEqual(await measuredActions(document, new vscode.Position(6, 4)), [], 'not on metadata');

    // The hover section (hovers.ts shows it): the figures, what is recommended, and why.
    const measured = api.recommendations.forDocument(document);
    const hover = recommendationHover(measured, 'api', 'api', 'liveness').join('\n\n');
    // Markdown-escaped: `\(`, `\.`, `\-`.
    assert.match(hover, /^\*\*Measured\*\* \(recording api\\\.jsonl\): \d+ attempts · p99 700 ms over \d+ answered attempts \\\(p50 700 ms, max 700 ms\\\)/);
    assert.match(hover, /\n\n\*\*Recommended:\*\* `livenessProbe\.timeoutSeconds: 1 → 2` — p99 700 ms/);
    assert.match(hover, /\n\n\*\*Recommended:\*\* `startupProbe added: failureThreshold 8, periodSeconds 10, timeoutSeconds 2` — the slowest start\\-up seen took 47\\\.1 s .*\. \*What it changes:\* adds a startupProbe/);
    assert.deepEqual(recommendationHover(measured, 'api', 'other', 'liveness'), [], 'nothing for a container the recording did not measure');

    await applyAndUndo(document, actions[0] as vscode.CodeAction, original);
  } finally {
    panel.dispose();
  }
  await waitFor(async () => (await measuredActions(document, livenessKey(document))).length === 0, 5_000, 'no action once the recording is closed');
}, { timeoutMs: 40_000 });

test('recommend: a running simulated session of the manifest offers the same values once it has measured enough', async () => {
  const { document } = await simulateFixture(MANIFEST, SCENARIO, 600);
  const original = document.getText();
  try {
    const action = await waitFor(
      async () => (await measuredActions(document, livenessKey(document))).find((a) => a.title === APPLY_TITLE),
      30_000,
      'all three values measured by the session',
    );
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
    await applyAndUndo(document, action, original);
  } finally {
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
  }
}, { timeoutMs: 60_000 });
