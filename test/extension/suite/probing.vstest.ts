/**
 * Probing sessions inside a real VS Code: a local session against a real HTTP server started
 * here (tree rows, live diagnostics, edits followed, nothing left behind on stop), a one-off probe,
 * and simulations (a scenario beside the manifest, one created from the template, a container
 * restarted). Fixtures: test/e2e/fixtures/workspace/probing/.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { NextEvent } from '../../../src/core/session/playback';
import type { ProbeLensApi } from '../../../src/extension/extension';
import type { LocalStarted, ProbeOnceResult } from '../../../src/extension/sessions/launcher';
import type { ProbingSession } from '../../../src/extension/sessions/probingSession';
import type { ProbingApi } from '../../../src/extension/registerProbing';
import type { ProbeTreeNode } from '../../../src/extension/tree/nodes';
import type { TimelinePanel } from '../../../src/extension/timeline/timelinePanel';
import { activeCounts } from '../../helpers/activeResources';
import { sleep, test, waitFor } from '../harness';
import { probingApi, startHealthServer, withSetting } from '../probing';
import { settled } from '../timelines';
import { activateProbeLens, fixtureUri, openFixture, probeLensDiagnostics } from '../workbench';

/** A row's label, description, icon id and context value, from the exported tree provider. */
function row(probing: ProbingApi, node: ProbeTreeNode): { label: string; description: string; icon: string; context: string; tooltip: string } {
  const item = probing.tree.getTreeItem(node);
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? '');
  return { label, description: String(item.description ?? ''), icon: (item.iconPath as vscode.ThemeIcon).id, context: item.contextValue ?? '', tooltip };
}

/** session → pod → container → probe rows as `label: description [icon]` lines, indented by depth. */
function treeText(probing: ProbingApi, session: ProbingSession): string[] {
  const lines: string[] = [];
  const walk = (node: ProbeTreeNode, depth: number) => {
    const r = row(probing, node);
    lines.push(`${'  '.repeat(depth)}${r.label}: ${r.description} [${r.icon}]`);
    for (const child of probing.tree.getChildren(node)) walk(child, depth + 1);
  };
  const root = probing.tree.getChildren().find((n) => n.session === session);
  if (root) walk(root, 0);
  return lines;
}

function nodeOf(probing: ProbingApi, session: ProbingSession, pod?: string, container?: string, probe?: 'liveness' | 'readiness' | 'startup'): ProbeTreeNode {
  const node = probing.tree.find(session, pod, container, probe);
  assert.ok(node, `a tree row for ${[session.id, pod, container, probe].filter(Boolean).join('/')}`);
  return node;
}

function liveMessages(probing: ProbingApi, uri: vscode.Uri): string[] {
  return probing.liveDiagnostics.diagnostics(uri).map((d) => `${d.range.start.line}:${d.range.start.character} ${vscode.DiagnosticSeverity[d.severity]} ${d.message}`);
}

/** Sockets and timers are what a stopped session could leave behind. */
function leftovers(before: Record<string, number>): string[] {
  const after = activeCounts();
  return ['TCPSocketWrap', 'TCPWRAP', 'Timeout', 'ProcessWrap'].filter((type) => (after[type] ?? 0) > (before[type] ?? 0)).map((type) => `${type} ${before[type] ?? 0} → ${after[type]}`);
}

const READINESS_KEY = '14:6';

/** The titles of a manifest's code lenses, top to bottom (resolved, as VS Code shows them). */
async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
  return lenses.map((lens) => lens.command?.title ?? '(unresolved)');
}

/** The virtual time a text shows (`t+00:03:20`). */
function virtualTimeIn(text: string | undefined): string | undefined {
  return /t\+\d\d:\d\d:\d\d/.exec(text ?? '')?.[0];
}

test('a local session probes a real server: tree reaches ready, a 503 shows as a live diagnostic and clears, stop leaves nothing', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  try {
    const document = await openFixture('probing/web.yaml');
    await sleep(300); // settle what opening the file started in the workbench
    const before = activeCounts();

    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.ok(started, 'startProbing returned the session');
    const { session } = started;
    assert.equal(started.exec, 'none');
    assert.equal(probing.sessions.forDocument(document.uri), session);
    assert.equal(session.kind, 'local');

    // Ready: both probes pass and the container is ready.
    await waitFor(() => row(probing, nodeOf(probing, session, 'web', 'web')).description.startsWith('ready'), 10_000, () => `the container to be ready; tree:\n${treeText(probing, session).join('\n')}`);
    const ready = row(probing, nodeOf(probing, session, 'web', 'web', 'readiness'));
    assert.equal(ready.icon, 'pass');
    assert.equal(ready.context, 'probe.readiness');
    assert.match(ready.description, /^\d+\/\d+ ok · \d+ ms$/);
    assert.equal(row(probing, nodeOf(probing, session, 'web', 'web')).context, 'container');
    assert.equal(row(probing, nodeOf(probing, session, 'web')).description, 'Ready');
    const sessionRow = row(probing, nodeOf(probing, session));
    assert.equal(sessionRow.context, 'session');
    assert.equal(sessionRow.label, 'web.yaml');
    assert.equal(sessionRow.description, 'pod web Ready', 'the pod\'s readiness, not a count of ready containers');
    assert.match(sessionRow.tooltip, /probing this machine · 127\\\.0\\\.0\\\.1/);
    // The status bar and diagnostics redraw on the sessions' published snapshots (≤ 4 a second).
    await waitFor(() => probing.statusBar.text === '$(pulse) pod web Ready', 2_000, () => `the status bar to say the pod is Ready; it says ${probing.statusBar.text}`);
    assert.deepEqual(liveMessages(probing, document.uri), []);

    // 503: the kubelet's own event text, on the probe keys; the readiness one is an Error (threshold 1 reached).
    server.status = 503;
    await waitFor(() => liveMessages(probing, document.uri).includes(`${READINESS_KEY} Error Readiness probe failed: HTTP probe failed with statuscode: 503`), 10_000, () => `the readiness diagnostic; saw ${JSON.stringify(liveMessages(probing, document.uri))}`);
    await waitFor(() => row(probing, nodeOf(probing, session, 'web', 'web', 'readiness')).icon === 'error', 5_000, 'the readiness row to show failing');
    const failing = row(probing, nodeOf(probing, session, 'web', 'web', 'readiness'));
    assert.match(failing.description, /^failing 1\/1 · \d+\/\d+ ok$/);
    assert.match(failing.tooltip, /HTTP probe failed with statuscode: 503/);
    assert.match(row(probing, nodeOf(probing, session, 'web', 'web')).description, /^started · not ready · restarts 0$/);
    // The same failures reach the shared Problems list with source probe-lens.
    await waitFor(() => probeLensDiagnostics(document.uri).some((d) => d.message === 'Readiness probe failed: HTTP probe failed with statuscode: 503'), 5_000, 'the live diagnostic in getDiagnostics');
    // Liveness asks the same path: its failures (toward a kill) are worse than being unready.
    await waitFor(() => /^\$\(warning\) web: liveness failing \d+\/60$/.test(probing.statusBar.text ?? ''), 2_000, () => `the status bar to say failing; it says ${probing.statusBar.text}`);

    // Healthy again: the diagnostics clear, the row passes.
    server.status = 200;
    await waitFor(() => liveMessages(probing, document.uri).length === 0, 10_000, () => `the diagnostics to clear; saw ${JSON.stringify(liveMessages(probing, document.uri))}`);
    await waitFor(() => row(probing, nodeOf(probing, session, 'web', 'web', 'readiness')).icon === 'pass', 5_000, 'the readiness row to pass again');

    // An edit restarts only the edited probe's worker: readiness counts start afresh, liveness keeps counting.
    const livenessBefore = session.state.pods.get('web')?.containers.get('web')?.probes.get('liveness')?.attempts ?? 0;
    const path = document.getText().indexOf('/healthz');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(path), document.positionAt(path + '/healthz'.length)), '/missing');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => liveMessages(probing, document.uri).includes(`${READINESS_KEY} Error Readiness probe failed: HTTP probe failed with statuscode: 404`), 10_000, () => `the edited probe's 404; saw ${JSON.stringify(liveMessages(probing, document.uri))}`);
    const liveness = session.state.pods.get('web')?.containers.get('web')?.probes.get('liveness')?.attempts ?? 0;
    assert.ok(liveness >= livenessBefore, `liveness kept its counts (${livenessBefore} → ${liveness})`);
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => liveMessages(probing, document.uri).length === 0, 10_000, 'the reverted probe to pass');

    // Stop: the session's diagnostics, the status bar item and every socket and timer go; its rows stay, ended.
    const stopped = await vscode.commands.executeCommand<number>('probeLens.stopProbing', { uri: document.uri });
    assert.equal(stopped, 1);
    assert.ok(session.isStopped);
    assert.equal(probing.sessions.forDocument(document.uri), undefined);
    await waitFor(() => probing.liveDiagnostics.diagnostics(document.uri).length === 0, 2_000, 'live diagnostics cleared');
    assert.equal(probing.statusBar.text, undefined);
    assert.deepEqual(probing.tree.getChildren().filter((n) => n.session === session).map((n) => row(probing, n).context), ['session.ended']);
    await waitFor(() => server.open() === 0, 5_000, () => `the server's connections to close (${server.open()} open)`);
    const requests = server.requests;
    await waitFor(() => leftovers(before).length === 0, 5_000, () => `no socket or timer left: ${leftovers(before).join(', ')}`);
    await sleep(1500);
    assert.equal(server.requests, requests, 'no probe after stop');
  } finally {
    probing.sessions.stopAll();
    await restore();
    await server.close();
  }
}, { timeoutMs: 90_000 });

test('runProbeOnce (uri, pod, container, probe): one attempt, the kubelet\'s text, nothing left running', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  try {
    const document = await openFixture('probing/web.yaml');
    const ok = await vscode.commands.executeCommand<ProbeOnceResult | undefined>('probeLens.runProbeOnce', document.uri, 'web', 'web', 'readiness');
    assert.equal(ok?.outcome.result, 'success');
    assert.equal(ok?.outcome.output, 'ok');
    assert.equal(server.requests, 1);
    server.status = 503;
    const failed = await vscode.commands.executeCommand<ProbeOnceResult | undefined>('probeLens.runProbeOnce', { uri: document.uri, pod: 'web', container: 'web', probe: 'liveness' });
    assert.equal(failed?.outcome.result, 'failure');
    assert.equal(failed?.message, 'Liveness probe failed: HTTP probe failed with statuscode: 503');
    assert.equal(probing.sessions.all.length, 0, 'a one-off probe starts no session');
    await waitFor(() => server.open() === 0, 5_000, 'the one-off connections to close');
  } finally {
    await restore();
    await server.close();
  }
}, { timeoutMs: 30_000 });

test('a simulation with the scenario beside the manifest, played fast; restartContainer kills and the kubelet restarts', async () => {
  const probing = await probingApi();
  const document = await openFixture('probing/sim.yaml');
  const before = activeCounts();
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 60 });
  assert.ok(session, 'simulate returned the session');
  try {
    assert.equal(session.kind, 'simulated');
    const container = () => row(probing, nodeOf(probing, session, 'sim', 'app'));
    assert.equal(container().context, 'container.simulated');
    // readyAfter 20 s (virtual): at 60× the container is ready within a second or so.
    await waitFor(() => container().description === 'ready · restarts 0', 10_000, () => `ready; tree:\n${treeText(probing, session).join('\n')}`);
    assert.equal(row(probing, nodeOf(probing, session, 'sim')).description, 'Ready');
    assert.match(row(probing, nodeOf(probing, session, 'sim', 'app', 'readiness')).description, /^\d+\/\d+ ok · \d+ ms$/);

    const outcome = await vscode.commands.executeCommand('probeLens.restartContainer', { uri: document.uri, pod: 'sim', container: 'app' });
    assert.equal(outcome, 'restarting');
    // Killed now (exit 137); the kubelet's sync that restarts it (B2: at once, the first time) follows on the clock.
    const containerLines = () => session.events.events().flatMap((e) => (e.type === 'container' && e.container === 'app' ? [`${e.state} ${e.restartCount}${e.reason ? ` ${e.reason}` : ''}`] : []));
    await waitFor(() => containerLines().length >= 3, 5_000, () => `the restart; saw ${containerLines().join(', ')}`);
    assert.deepEqual(containerLines().slice(0, 3), ['running 0', 'terminated 0 Error', 'running 1']);
    // The new instance replays the scenario from 0: not ready for 20 virtual seconds, then ready.
    await waitFor(() => container().description === 'ready · restarts 1 (exited)', 10_000, () => `ready after the restart; saw ${container().description}`);

    assert.equal(await vscode.commands.executeCommand('probeLens.restartContainer', { uri: document.uri, pod: 'sim', container: 'nope' }), 'unknown-container');

    // ~20 events a second reach the session; the tree redraws at most 4 times a second (each snapshot
    // published), and only the rows that changed: the probes' counts, not the rows above them.
    // Steady first: liveness, failing too before the app came up, has passed again (the pod row's
    // headline says `liveness failing 2/3` until it has, and changes when it does).
    const podTooltip = () => row(probing, nodeOf(probing, session, 'sim')).tooltip;
    await waitFor(() => podTooltip().endsWith('\n\npod sim Ready · 1 restart'), 10_000, () => `liveness passing again; the pod row says ${podTooltip()}`);
    const eventsBefore = session.events.total;
    const refreshesBefore = probing.tree.refreshes;
    const fullBefore = probing.tree.fullRefreshes;
    probing.tree.rowRedraws.clear();
    await sleep(2_000);
    const refreshes = probing.tree.refreshes - refreshesBefore;
    assert.ok(session.events.total - eventsBefore > 20, `events kept coming (${session.events.total - eventsBefore})`);
    assert.ok(refreshes >= 1 && refreshes <= 9, `${refreshes} tree refreshes in 2 s`);
    assert.equal(probing.tree.fullRefreshes - fullBefore, 0, 'never the whole tree');
    const redrawn = [...probing.tree.rowRedraws.keys()].map((id) => id.slice(session.id.length)).sort();
    assert.ok(redrawn.length > 0 && redrawn.every((id) => /^\/sim\/app\/(liveness|readiness)$/.test(id)), `only probe rows whose counts changed, not the rows above them: ${redrawn.join(', ')}`);
  } finally {
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
  }
  assert.ok(session.isStopped);
  const elapsed = session.elapsedSeconds;
  await sleep(300);
  assert.equal(session.elapsedSeconds, elapsed, 'the virtual clock stops with the session');
  await waitFor(() => leftovers(before).length === 0, 5_000, () => `no timer left: ${leftovers(before).join(', ')}`);
}, { timeoutMs: 40_000 });

test('simulate with a new scenario from the template: the file is created beside the manifest, opened, and played', async () => {
  const probing = await probingApi();
  const document = await openFixture('probing/template.yaml');
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, createScenario: true, speed: 600 });
  assert.ok(session, 'simulate returned the session');
  try {
    const scenario = fixtureUri('probing/template.scenario.yaml');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(scenario));
    assert.match(text, /^containers:\n {2}api:\n {4}readyAfter: 20 /m);
    await waitFor(() => vscode.workspace.textDocuments.some((d) => d.uri.toString() === scenario.toString()), 5_000, 'the scenario to be opened');
    assert.match(session.options.detail, /^600× · template\.scenario\.yaml$/);
    // readyAfter 20 s: the startup probe (period 2 s) passes at about 20–22 virtual seconds.
    await waitFor(() => row(probing, nodeOf(probing, session, 'fresh', 'api', 'startup')).icon === 'pass', 10_000, () => `startup to pass; tree:\n${treeText(probing, session).join('\n')}`);
    assert.equal(probing.sessions.all.filter((s) => s.kind === 'simulated').length, 1);
  } finally {
    session.dispose();
  }
  assert.equal(probing.sessions.all.length, 0);
}, { timeoutMs: 30_000 });

test('moving the cursor onto a probe of a probed manifest selects its row in the Probes view', async () => {
  const probing = await probingApi();
  const document = await openFixture('probing/sim.yaml');
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 10 });
  assert.ok(session);
  try {
    await vscode.commands.executeCommand('probeLens.probes.focus');
    await waitFor(() => probing.treeView.visible, 5_000, 'the Probes view to be shown');
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const line = document.getText().split('\n').findIndex((l) => l.includes('livenessProbe:'));
    editor.selection = new vscode.Selection(line + 1, 12, line + 1, 12);
    await waitFor(() => probing.treeView.selection[0]?.id === `${session.id}/sim/app/liveness`, 5_000, () => `the liveness row selected; selection ${probing.treeView.selection.map((n) => n.id).join(', ')}`);
  } finally {
    session.dispose();
  }
}, { timeoutMs: 30_000 });

test('one snapshot: the tree, the status bar and the lenses show the same version; pause, step, speed; counters reset after a restart', async () => {
  const probing = await probingApi();
  const document = await openFixture('probing/sim.yaml');
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 60 });
  assert.ok(session, 'simulate returned the session');
  try {
    const container = () => row(probing, nodeOf(probing, session, 'sim', 'app'));
    await waitFor(() => container().description === 'ready · restarts 0', 10_000, () => `ready; tree:\n${treeText(probing, session).join('\n')}`);

    // While it plays: whenever a snapshot is published, the rows and the status bar already show it.
    const seen: string[] = [];
    const listening = probing.sessions.onDidChange(() => seen.push(`${session.state.version} tree ${probing.tree.renderedVersion(session)} status ${probing.statusBar.renderedVersion(session)}`));
    await waitFor(() => seen.length >= 6, 5_000, 'six snapshots published');
    listening.dispose();
    assert.deepEqual(seen.filter((line) => !/^(\d+) tree \1 status \1$/.test(line)), [], 'every snapshot rendered by both at once');

    // Paused: the virtual clock stands still, and everything says the same thing.
    assert.equal(await vscode.commands.executeCommand('probeLens.pauseSimulation', { sessionId: session.id }), true);
    assert.equal(row(probing, nodeOf(probing, session)).context, 'session.simulated.paused');
    const at = session.elapsedSeconds;
    await sleep(400);
    assert.equal(session.elapsedSeconds, at, 'paused');
    const version = session.state.version;
    const sessionRow = row(probing, nodeOf(probing, session));
    assert.match(sessionRow.description, /^pod sim Ready · paused t\+\d\d:\d\d:\d\d$/);
    assert.equal(sessionRow.icon, 'debug-pause');
    assert.equal(probing.statusBar.text, `$(debug-pause) pod sim Ready · ${virtualTimeIn(sessionRow.description)}`);
    const readiness = row(probing, nodeOf(probing, session, 'sim', 'app', 'readiness')).description;
    const counts = /^(\d+\/\d+) ok · \d+ ms$/.exec(readiness)?.[1];
    assert.ok(counts, `the readiness row counts: ${readiness}`);
    const lenses = await lensTitles(document.uri);
    assert.deepEqual(lenses.slice(0, 3), ['started · ready · restarts 0', 'Open timeline', 'Stop'], `the lenses: ${JSON.stringify(lenses)}`);
    assert.ok(lenses.includes(`● ready · ${counts} ok · 10 ms`), `the readiness lens says ${counts} as the tree does: ${JSON.stringify(lenses)}`);
    assert.deepEqual([probing.tree.renderedVersion(session), probing.statusBar.renderedVersion(session), session.state.version], [version, version, version]);

    // Restarted while paused: killed now, started again on the next event; this container's counts start from none.
    assert.equal(await vscode.commands.executeCommand('probeLens.restartContainer', { uri: document.uri, pod: 'sim', container: 'app' }), 'restarting');
    assert.match(container().description, /^terminated \(Error\) · restarts 0$/, 'the kill shows at once');
    const stepped = await vscode.commands.executeCommand<NextEvent>('probeLens.nextSimulationEvent', { sessionId: session.id });
    assert.equal(stepped?.ok, true, JSON.stringify(stepped));
    await waitFor(() => container().description === 'started · not ready · restarts 1 (exited)', 2_000, () => `the new container; saw ${container().description}`);
    assert.equal(row(probing, nodeOf(probing, session, 'sim', 'app', 'readiness')).description, 'waiting for the first attempt');
    const fresh = session.state.pods.get('sim')?.containers.get('app')?.probes.get('readiness');
    assert.deepEqual([fresh?.attempts, fresh?.containerId], [0, 'sim://sim/app/1']);
    assert.ok((fresh?.total.attempts ?? 0) > 0, 'the total of every container goes on');
    const restarted = await lensTitles(document.uri);
    assert.equal(restarted[0], 'started · not ready · restarts 1 (exited)');
    assert.ok(restarted.includes('○ waiting for the first attempt'), `the readiness lens starts afresh: ${JSON.stringify(restarted)}`);
    assert.ok(!restarted.some((title) => title.includes(`${counts} ok`)), 'not the previous container\'s counts');

    // Faster, then playing again.
    assert.equal(await vscode.commands.executeCommand('probeLens.setSimulationSpeed', { sessionId: session.id, speed: 600 }), 600);
    assert.equal(await vscode.commands.executeCommand('probeLens.resumeSimulation', { sessionId: session.id }), false);
    assert.equal(session.rate, 600);
    assert.equal(row(probing, nodeOf(probing, session)).context, 'session.simulated.playing');
    await waitFor(() => / · 600×$/.test(row(probing, nodeOf(probing, session)).description), 2_000, 'the row to say 600×');
    await waitFor(() => container().description === 'ready · restarts 1 (exited)', 10_000, () => `ready again; saw ${container().description}`);
  } finally {
    session.dispose();
  }
}, { timeoutMs: 60_000 });

/** A pod whose liveness probe asks a path the test server does not have (404): killed 2 s in. */
const KILLED_BY_LIVENESS = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: web
      image: example/web:1.0
      ports:
        - containerPort: 8080
      readinessProbe:
        httpGet: {path: /healthz, port: 8080}
        periodSeconds: 1
      livenessProbe:
        httpGet: {path: /missing, port: 8080}
        periodSeconds: 1
        failureThreshold: 2
`;

test('a local session only reports the kubelet\'s kills: "would restart", counted at the decision', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  const uri = fixtureUri('probing/would-restart.yaml');
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(KILLED_BY_LIVENESS));
  try {
    const document = await openFixture('probing/would-restart.yaml');
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.ok(started);
    const { session } = started;
    const container = () => row(probing, nodeOf(probing, session, 'web', 'web'));
    // Two failures (1 s apart) and the kubelet decides to kill: the count follows at once, not a grace period (30 s) later.
    await waitFor(() => container().description === 'would restart now (liveness failed) · would restart 1× (liveness)', 8_000, () => `the kill decision; saw ${container().description}`);
    assert.equal(session.state.pods.get('web')?.containers.get('web')?.restartCount, 0, 'the kubelet\'s own restartCount comes with the new container');
    assert.equal(probing.statusBar.text, '$(error) web: would restart now · 1× (liveness)');
    assert.equal(row(probing, nodeOf(probing, session)).description, 'web: would restart now · 1× (liveness)');
    await waitFor(async () => (await lensTitles(document.uri))[0] === 'would restart now (liveness failed) · would restart 1× (liveness)', 3_000, 'the lens to say so too');
    assert.match(container().tooltip, /the process itself runs on/);
  } finally {
    probing.sessions.stopAll();
    await restore();
    await server.close();
    await vscode.workspace.fs.delete(uri);
  }
}, { timeoutMs: 40_000 });

test('after Stop the last session stays, frozen and marked ended, its timeline openable, until cleared or the next session starts', async () => {
  const probing = await probingApi();
  const api: ProbeLensApi = await activateProbeLens();
  const document = await openFixture('probing/sim.yaml');
  const start = () => vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 60 });
  const session = await start();
  assert.ok(session);
  await waitFor(() => row(probing, nodeOf(probing, session, 'sim', 'app')).description === 'ready · restarts 0', 10_000, 'ready');
  assert.equal(await vscode.commands.executeCommand<number>('probeLens.stopProbing', { uri: document.uri }), 1);

  assert.equal(probing.sessions.ended, session);
  assert.equal(probing.statusBar.text, undefined, 'nothing runs');
  const ended = row(probing, nodeOf(probing, session));
  assert.equal(ended.context, 'session.ended');
  assert.match(ended.description, /^ended \d\d:\d\d · pod sim Ready$/);
  assert.equal(row(probing, nodeOf(probing, session, 'sim', 'app')).context, 'container.ended');
  const frozen = treeText(probing, session);
  assert.equal(frozen.length, 5, frozen.join('\n'));
  await sleep(600);
  assert.deepEqual(treeText(probing, session), frozen, 'frozen');
  assert.match((await lensTitles(document.uri))[0] ?? '', /Run probes$/, 'the editor is back to its static lenses');

  // The ended session's row opens its timeline, as the row's button does.
  const panel = await vscode.commands.executeCommand<TimelinePanel | undefined>('probeLens.openTimeline', nodeOf(probing, session));
  assert.ok(panel, 'Open Timeline on the ended row opens its panel');
  assert.equal(api.timeline.openSession(session), panel, 'the same panel as the session has');
  try {
    await waitFor(() => panel.content?.source().live === false, 10_000, 'the timeline of the ended session');
    assert.ok(panel.content && 'session' in panel.content && panel.content.session === session);
  } finally {
    await settled(panel);
    panel.dispose();
  }

  assert.equal(await vscode.commands.executeCommand('probeLens.clearEndedSession'), true);
  assert.equal(probing.sessions.ended, undefined);
  assert.deepEqual(probing.tree.getChildren().filter((n) => n.session === session), []);
  assert.equal(await vscode.commands.executeCommand('probeLens.clearEndedSession'), false, 'nothing left to clear');

  // The next session replaces the ended one.
  const first = await start();
  assert.ok(first);
  first.dispose();
  assert.equal(probing.sessions.ended, first);
  const next = await start();
  assert.ok(next);
  try {
    assert.equal(probing.sessions.ended, undefined);
    assert.deepEqual(probing.tree.getChildren().map((n) => n.session), [next]);
  } finally {
    next.dispose();
    probing.sessions.clearEnded();
  }
}, { timeoutMs: 40_000 });

test('a session of a file not in view keeps the lenses in view live: VS Code asking for another file\'s lenses does not leave the next refresh waiting', async () => {
  const api = await activateProbeLens();
  const hidden = await openFixture('probing/sim.yaml');
  const shown = await openFixture('probing/web.yaml');
  assert.equal(vscode.window.activeTextEditor?.document, shown, 'probing/web.yaml in view, sim.yaml behind it');
  const told: number[] = [];
  const watching = api.codeLenses.onDidChangeCodeLenses(() => told.push(Date.now()));
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: hidden.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 60 });
  assert.ok(session);
  try {
    if (vscode.window.activeTextEditor?.document !== shown) await vscode.window.showTextDocument(shown, { preview: false });
    // The hidden file's session changes several times a second: VS Code is told, asks for the
    // lenses in view (web.yaml's, which have no session), and must be told again next time.
    await waitFor(() => told.length >= 3, 10_000, () => `VS Code told again and again while the hidden session ran (told ${told.length} times)`);
  } finally {
    watching.dispose();
    session.dispose();
  }
});
