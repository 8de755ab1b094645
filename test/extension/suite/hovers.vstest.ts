/**
 * A probe's hover while a session runs (issue 10 §5): under the verdict and the address, the last
 * attempts with their session times and outcomes, newest first, from the session's published
 * snapshot; once the session stops they are gone again.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test, waitFor } from '../harness';
import { probingApi } from '../probing';
import { fixtureUri, openFixture } from '../workbench';

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

test('hover while simulating: the last attempts with their times, newest first; none once stopped', async () => {
  await probingApi();
  const document = await openFixture('probing/sim.yaml');
  // On the readinessProbe key of sim.yaml (line 18, 1-based).
  const readiness = new vscode.Position(17, 14);
  const session = await vscode.commands.executeCommand<{ isStopped: boolean } | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 60 });
  assert.ok(session, 'simulate returned the session');
  try {
    // readyAfter 20 s: the first four attempts (t = 0, 5, 10, 15) fail, then they succeed.
    const text = await waitFor(
      async () => {
        const hover = await hoverText(document.uri, readiness);
        return /\| ● success \|/.test(hover) && /\| ✖ failure \|/.test(hover) && hover;
      },
      15_000,
      'a hover listing both failed and successful attempts',
    );
    assert.match(text, /^\*\*readinessProbe\*\* of `app`\n\n\*\*Ready after the first success; unready after 15 s failing\*\* \(3 × 5 s\)\./);
    assert.match(text, /\n\n\*\*Connects to\*\* `<pod IP>:8080` over TCP · `<pod IP>` is the pod's own IP address\n\n\*\*Last \d attempts\*\* \(\d+ of \d+ ok\), newest first:\n\n\| at \| result \| took \|( output \|)?\n/);
    const rows = [...text.matchAll(/^\| ([\d.:]+(?: s)?) \| (● success|✖ failure) \| (\d+) ms \|/gm)];
    assert.ok(rows.length >= 2 && rows.length <= 5, `2 to 5 attempt rows:\n${text}`);
    const times = rows.map((row) => Number(/^[\d.]+/.exec(row[1] as string)?.[0]));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.ok(text.indexOf('**Last ') < text.indexOf('| field | value |'), 'the attempts come before the values');
  } finally {
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
  }
  await waitFor(async () => !(await hoverText(document.uri, readiness)).includes('**Last '), 5_000, 'no attempts once the session stopped');
}, { timeoutMs: 40_000 });
