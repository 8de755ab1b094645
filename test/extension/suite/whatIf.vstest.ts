/**
 * *What if…* inside a real VS Code (issue 12 §3): a recording opened in the timeline, replayed
 * against the CURRENT text of its manifest — an unsaved edit included, the file untouched — shown
 * as a read-only table beside the editor and, in the timeline, as both runs one above the other;
 * the same for a simulated session that ended. Fixtures: whatif/ (a real local recording of an
 * app that takes 2 minutes to start: 3 liveness restarts).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimelinePanel } from '../../../src/extension/timeline/timelinePanel';
import { test, waitFor } from '../harness';
import { simulateFixture } from '../probing';
import { closeTimelines as closePanels, timelinePanels as timelines } from '../timelines';
import { fixtureUri, openFixture, probeLensExtension } from '../workbench';

interface WhatIfOutcome {
  readonly document: vscode.Uri;
  readonly report: { readonly schemaVersion: 1; readonly containers: readonly { pod: string; container: string; restarts: { before: number; after: number }; kills: { before: Record<string, number>; after: Record<string, number> } }[]; readonly notes: readonly string[] };
  readonly timeline: boolean;
}

const STARTUP = `      startupProbe:
        httpGet: {path: /healthz, port: http}
        periodSeconds: 10
        failureThreshold: 30
`;

async function revert(document: vscode.TextDocument): Promise<void> {
  if (!document.isDirty) return;
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

test('what if: a recording in the timeline, replayed against its manifest\'s unsaved edit (a startupProbe added) — 3 restarts → 0, a table beside the editor, both runs in the timeline', async () => {
  const panels = await timelines();
  const manifest = await openFixture('whatif/slow-start.yaml');
  const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(manifest.uri));
  try {
    // The edit, not saved: What if… must read the editor's text.
    const editor = await vscode.window.showTextDocument(manifest);
    const at = manifest.getText().indexOf('      readinessProbe:');
    assert.ok(at > 0);
    assert.ok(await editor.edit((e) => e.insert(manifest.positionAt(at), STARTUP)));
    assert.ok(manifest.isDirty);

    const recording = await vscode.commands.executeCommand<TimelinePanel | undefined>('probeLens.openTimelineFromFile', fixtureUri('whatif/slow-start.local.jsonl'));
    assert.ok(recording);
    await waitFor(() => recording.content !== undefined && recording.content.manifest !== undefined, 15_000, 'the recording to be read, its manifest found');
    recording.reveal();
    await waitFor(() => recording.webviewPanel.active, 5_000, 'the recording\'s panel to be active');

    const outcome = await vscode.commands.executeCommand<WhatIfOutcome | undefined>('probeLens.whatIf');
    assert.ok(outcome, 'What if… resolved with its outcome');
    const [web] = outcome.report.containers;
    assert.deepEqual(web?.restarts, { before: 3, after: 0 });
    assert.deepEqual(web?.kills, { before: { liveness: 3, startup: 0 }, after: { liveness: 0, startup: 0 } });

    // The table, read-only, beside the editor.
    const table = await waitFor(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === outcome.document.toString()), 5_000, 'the table\'s document');
    assert.equal(outcome.document.scheme, 'probe-lens-whatif');
    assert.match(table.getText(), /^What if · slow-start\.yaml \(as edited, unsaved changes included\)\nbefore: slow-start\.local\.jsonl, 195 s as recorded\nafter: {2}the same app, replayed with slow-start\.yaml\n\nweb\/web\n/);
    assert.match(table.getText(), /\n {2}restarts {8}3 {10}→ 0\n/);
    assert.match(table.getText(), /\n {2}kills {11}liveness 3 → none\n/);
    assert.notEqual(table.languageId, 'yaml', 'never read as a manifest');
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === outcome.document.toString()), 'shown');

    // Both runs in the timeline, one above the other.
    assert.equal(outcome.timeline, true);
    const comparison = panels.all.find((p) => p.webviewPanel.title === 'Timeline · What if · slow-start.yaml');
    assert.ok(comparison, `the comparison's panel (open: ${panels.all.map((p) => p.webviewPanel.title).join(', ')})`);
    assert.deepEqual(comparison.content?.snapshot().sections?.map((s) => s.name), ['recorded', 'replayed']);

    // The manifest was read, not written.
    assert.ok(manifest.isDirty);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(manifest.uri)), onDisk);

    // From the panel's title button: VS Code passes the panel's own resource, which means the panel.
    recording.reveal(false);
    await waitFor(() => recording.webviewPanel.active, 5_000, 'the recording\'s panel to be active again');
    const fromTitle = await vscode.commands.executeCommand<WhatIfOutcome | undefined>('probeLens.whatIf', vscode.Uri.from({ scheme: 'webview-panel', path: 'webview-panel/webview-1f25c85d' }));
    assert.deepEqual(fromTitle?.report.containers[0]?.restarts, { before: 3, after: 0 }, 'the title button replays the panel\'s recording');

    // Without the edit: the app restarts again and again (each restart starts it over, as in a cluster).
    await revert(manifest);
    const again = await vscode.commands.executeCommand<WhatIfOutcome | undefined>('probeLens.whatIf', { recording: fixtureUri('whatif/slow-start.local.jsonl'), manifest: manifest.uri });
    assert.ok(again);
    assert.ok((again.report.containers[0]?.restarts.after ?? 0) >= 3);
    assert.equal(again.document.toString(), outcome.document.toString(), 'the same table, redone');
    await waitFor(() => !/restarts {8}3 {10}→ 0/.test(vscode.workspace.textDocuments.find((d) => d.uri.toString() === outcome.document.toString())?.getText() ?? ''), 5_000, 'the open table to follow');
  } finally {
    await revert(manifest);
    await closePanels(panels);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
}, { timeoutMs: 90_000 });

test('what if: a simulated session that ended, from its manifest — the recording replayed against the manifest as it is', async () => {
  const panels = await timelines();
  const { document, session } = await simulateFixture('timeline/checkout.yaml', 'timeline/checkout.scenario.yaml', 600);
  try {
    await waitFor(() => session.elapsedSeconds > 150, 20_000, 'some virtual minutes to play');
    session.dispose();
    const outcome = await vscode.commands.executeCommand<WhatIfOutcome | undefined>('probeLens.whatIf', document.uri);
    assert.ok(outcome);
    assert.ok(outcome.report.containers.length > 0);
    // The same manifest, the same app: the replay does what the session did.
    for (const c of outcome.report.containers) assert.equal(c.restarts.after, c.restarts.before, `${c.pod}/${c.container} restarts`);
  } finally {
    session.dispose();
    await closePanels(panels);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
}, { timeoutMs: 60_000 });

test('what if: contributed to the palette (category Probe Lens), the editor title and the Probes view\'s session rows', () => {
  const contributes = (probeLensExtension().packageJSON as { contributes: { commands: { command: string; title: string; category?: string }[]; menus: Record<string, { command: string; when?: string }[]> } }).contributes;
  const command = contributes.commands.find((c) => c.command === 'probeLens.whatIf');
  assert.deepEqual([command?.title, command?.category], ['What If… (replay this recording against the manifest)', 'Probe Lens']);
  assert.ok(contributes.menus['editor/title']?.some((m) => m.command === 'probeLens.whatIf'));
  assert.ok(contributes.menus['view/item/context']?.some((m) => m.command === 'probeLens.whatIf'));
  assert.ok(contributes.menus['commandPalette']?.some((m) => m.command === 'probeLens.whatIf' && m.when !== 'false'));
});
