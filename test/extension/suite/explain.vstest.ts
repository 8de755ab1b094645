/**
 * Why a container is in its state (issue 12 §1), in the editor: the hover on the container's line
 * (where its lens is) and the Probes view's tooltip of its row, from the running session's
 * events; gone once the session stops. Fixtures: test/e2e/fixtures/workspace/probing/why.yaml.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test, waitFor } from '../harness';
import { probingApi, simulateFixture } from '../probing';

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

/** Markdown as read: escapes undone. */
function plain(markdown: string): string {
  return markdown.replace(/\\(.)/g, '$1');
}

// `- name: api` and `- name: web` (0-based lines of why.yaml).
const API = new vscode.Position(7, 12);
const WEB = new vscode.Position(14, 12);

test('why: the container line\'s hover and the Probes view\'s tooltip explain its state, from the session\'s events', async () => {
  const probing = await probingApi();
  const { document, session } = await simulateFixture('probing/why.yaml', 'probing/why.scenario.yaml', 60);
  try {
    const api = await waitFor(async () => plain(await hoverText(document.uri, API)), 15_000, 'a hover on the api container');
    assert.match(
      api,
      /^\*\*Why `api` is not Ready\*\*\n\nNever probed: the readiness probe's named port `metrics` is not declared by this container \(prober error, discarded each period\)\.\n\n- Every readiness attempt on this container errored \(.+\); the kubelet discards a prober error without counting it \(P5\), so it stays Not Ready\. \*\(never-probed-prober-error, \d+ lines\)\*$/,
    );
    // web crashes 5 s after each start: restarted, then waiting out its back-off.
    const web = await waitFor(
      async () => {
        const text = plain(await hoverText(document.uri, WEB));
        return text.includes('now waiting out back-off') && text;
      },
      20_000,
      'web in CrashLoopBackOff',
    );
    assert.match(web, /^\*\*Why `web` is in CrashLoopBackOff\*\*\n\n(Restarted (?:once|twice|\d+ times)|Stopped twice): each time its process exited by itself \(Error\) 5 s after it started; now waiting out back-off \(\d+ s, until t\+\d\d:\d\d:\d\d\)\.\n\n- Its process exited by itself .*\*\(exit-restarts, \d+ lines\)\*\n- CrashLoopBackOff: .*\*\(back-off, \d+ lines\)\*$/);
    // The probe's own hover is still the probe's.
    assert.match(plain(await hoverText(document.uri, new vscode.Position(11, 8))), /^\*\*readinessProbe\*\* of `api`/);
    // The Probes view: the container row's tooltip says the same.
    const node = probing.tree.find(session, 'why', 'api');
    assert.ok(node, 'a row for why/api');
    const tooltip = await waitFor(
      () => {
        const item = probing.tree.getTreeItem(node);
        const text = item.tooltip instanceof vscode.MarkdownString ? plain(item.tooltip.value) : '';
        return text.includes('**Why**') && text;
      },
      10_000,
      'the why in the api row\'s tooltip',
    );
    assert.match(tooltip, /\n\*\*Why\*\*\n\nNever probed: the readiness probe's named port `metrics` is not declared by this container \(prober error, discarded each period\)\.\n\n- Every readiness attempt/);
  } finally {
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
  }
  await waitFor(async () => !(await hoverText(document.uri, API)).includes('Why'), 5_000, 'no why once the session stopped');
}, { timeoutMs: 60_000 });
