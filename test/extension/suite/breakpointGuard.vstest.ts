/**
 * The breakpoint guard in a real VS Code with a real Node debug session (js-debug, built in):
 * debugging/server.js (an HTTP server with a heartbeat timer) runs under the debugger while a
 * local session probes it through debugging/api.yaml; a breakpoint on the heartbeat holds it.
 * The countdown shows in the status bar and the container's lens, `pause` lines and attempts
 * marked `paused: true` reach the session's events, and it all clears when the program goes on.
 * `probeLens.breakpointGuard.enabled` turns it off (and on again mid-pause).
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as vscode from 'vscode';
import type { EngineEvent } from '../../../src/core/engine/events';
import { pausedStatus } from '../../../src/extension/debug/pauseStatus';
import type { ProbeLensApi } from '../../../src/extension/extension';
import type { LocalStarted } from '../../../src/extension/sessions/launcher';
import type { ProbingSession } from '../../../src/extension/sessions/probingSession';
import { freePort } from '../../helpers/httpServers';
import { sleep, test, waitFor } from '../harness';
import { withSetting } from '../probing';
import { activateProbeLens, fixtureUri, openFixture } from '../workbench';

const MANIFEST = 'debugging/api.yaml';
const PROGRAM = 'debugging/server.js';
/** The status bar and the lens are plain text: the container's name without backticks. */
const AHEAD = /^\$\(debug-pause\) paused \d+ s — in the cluster liveness would restart api in \d+ s \(3 × 1 s\)$/;
const OVERDUE = /^\$\(debug-pause\) paused \d+ s — in the cluster liveness would have restarted api (just now|\d+ s ago) \(3 × 1 s\)$/;

type Attempt = Extract<EngineEvent, { type: 'attempt' }>;

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 500 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

/** The 0-based line of the program the tests put a breakpoint on. */
async function breakpointLine(uri: vscode.Uri): Promise<number> {
  const text = (await vscode.workspace.openTextDocument(uri)).getText();
  const line = text.split('\n').findIndex((l) => l.includes('// BREAKPOINT'));
  assert.ok(line >= 0, 'server.js marks its breakpoint line');
  return line;
}

/** The lenses of the container line (`- name: api`), as VS Code resolves them. */
async function containerLensTitles(document: vscode.TextDocument): Promise<string[]> {
  const line = document.getText().split('\n').findIndex((l) => l.includes('- name: api'));
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri, 100);
  return lenses.filter((lens) => lens.range.start.line === line).map((lens) => lens.command?.title ?? '(unresolved)');
}

interface Debugged {
  readonly api: ProbeLensApi;
  readonly document: vscode.TextDocument;
  readonly session: ProbingSession;
  /** Every event the probing session recorded since it started. */
  readonly events: EngineEvent[];
  readonly program: vscode.Uri;
  /** Stops debugging and probing and restores the settings. */
  readonly end: () => Promise<void>;
}

/** server.js under the debugger, probed by a local session through api.yaml until it is Ready. */
async function debugAndProbe(): Promise<Debugged> {
  const api = await activateProbeLens();
  const port = await freePort();
  const restorePortMap = await withSetting('local.portMap', { '8080': port }, vscode.ConfigurationTarget.Workspace);
  const program = fixtureUri(PROGRAM);
  const folder = vscode.workspace.workspaceFolders?.[0];
  const subscriptions: vscode.Disposable[] = [];
  let session: ProbingSession | undefined;
  const end = async () => {
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    await vscode.debug.stopDebugging();
    session?.dispose();
    subscriptions.forEach((s) => s.dispose());
    await restorePortMap();
  };
  try {
    const started = await vscode.debug.startDebugging(folder, { type: 'node', request: 'launch', name: 'server.js', program: program.fsPath, env: { PORT: String(port) }, console: 'internalConsole', skipFiles: ['<node_internals>/**'] });
    assert.ok(started, 'VS Code started a Node debug session (js-debug is built in)');
    await waitFor(() => answers(port), 15_000, `server.js to answer on 127.0.0.1:${port} under the debugger`);
    const document = await openFixture(MANIFEST);
    const local = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.ok(local, 'startProbing returned the session');
    session = local.session;
    const events: EngineEvent[] = [];
    subscriptions.push(session.onDidRecord((event) => events.push(event)));
    const probing = session;
    await waitFor(() => probing.state.pods.get('api')?.containers.get('api')?.ready, 10_000, 'the container to be ready');
    return { api, document, session, events, program, end };
  } catch (error) {
    await end();
    throw error;
  }
}

/**
 * Stops the heartbeat once. Its first hit only (`==1`): removing a breakpoint reaches the adapter
 * after a while, and a `continue` that overtakes the removal would stop again at once on the
 * heartbeat the pause made overdue — a second pause the tests did not ask for.
 */
async function holdAtBreakpoint(program: vscode.Uri): Promise<void> {
  const line = await breakpointLine(program);
  vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(program, new vscode.Position(line, 0)), true, undefined, '==1')]);
  await waitFor(() => vscode.debug.activeStackItem instanceof vscode.DebugStackFrame, 10_000, 'the debugger to stop at the breakpoint');
}

async function goOn(): Promise<void> {
  vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
  await vscode.commands.executeCommand('workbench.action.debug.continue');
}

const pauses = (events: readonly EngineEvent[], state: 'paused' | 'continued') => events.filter((e) => e.type === 'pause' && e.state === state);
const pausedAttempts = (events: readonly EngineEvent[]) => events.filter((e): e is Attempt => e.type === 'attempt' && e.paused === true);

test('a breakpoint holding a probed Node program: the countdown in the status bar and the container lens, pause lines, paused attempts; going on clears it', async () => {
  const { api, document, session, events, program, end } = await debugAndProbe();
  try {
    const statusBar = api.probing.statusBar;
    assert.ok(!statusBar.text?.startsWith('$(debug-pause)'), `no countdown before the pause: ${statusBar.text}`);
    await holdAtBreakpoint(program);

    // The countdown leads the status bar and the container's lens line.
    await waitFor(() => AHEAD.test(statusBar.text ?? ''), 3_000, () => `the status bar countdown; it says ${statusBar.text}`);
    const status = pausedStatus(api.breakpointGuard.all());
    assert.equal(status?.backgroundColor, undefined, 'no warning while the window lasts');
    // The tooltip is Markdown: there the name is code.
    assert.match(status?.tooltip.value ?? '', /: paused \d+ s — in the cluster liveness would restart `api` in \d+ s \(3 × 1 s\)$/m);
    // A local session is the kubelet here: the countdown follows its own ticks and run, not the worst case.
    const [countdown] = api.breakpointGuard.all();
    assert.equal(countdown?.countdown.kind === 'restart' && countdown.countdown.basis, 'seen', `counted on the session's ticks: ${JSON.stringify(countdown?.countdown)}`);
    // The pause came before liveness's first attempt (api.yaml's initial delay): its worker's ticks
    // give the phase. They run every second from its start; the one at +2 s is still inside the
    // delay (the container started just after the worker), so failures end at +4, +5 and +6 s.
    const worker = session.events.events().find((e) => e.type === 'worker' && e.probe === 'liveness');
    const restartAt = countdown?.countdown.kind === 'restart' ? countdown.countdown.restartAt : NaN;
    assert.ok(worker && Math.abs(restartAt - (worker.t + 6)) < 0.05, `the restart on the worker's ticks: ${restartAt} vs the worker's start ${worker?.t}`);
    await waitFor(async () => (await containerLensTitles(document)).some((t) => /^\$\(debug-pause\) paused \d+ s — in the cluster liveness would (restart api in|have restarted api) /.test(t)), 5_000, 'the countdown in the container lens');
    const lenses = await containerLensTitles(document);
    assert.match(lenses[0] ?? '', /^\$\(debug-pause\) /, `the countdown leads the container's lens line: ${JSON.stringify(lenses)}`);

    // One `pause` line for the pod; the probes that ran meanwhile time out, marked paused.
    await waitFor(() => pauses(events, 'paused').length === 1, 3_000, 'the pause line');
    assert.deepEqual(pauses(events, 'paused').map((e) => e.type === 'pause' && `${e.pod} ${e.debugSession}`), [`api ${vscode.debug.activeDebugSession?.name}`]);
    await waitFor(() => pausedAttempts(events).some((a) => a.probe === 'liveness' && a.outcome === 'failure'), 5_000, 'a liveness attempt marked paused');
    const pausedAt = pauses(events, 'paused')[0]?.t ?? 0;
    for (const a of pausedAttempts(events)) assert.ok(a.t > pausedAt, `a paused attempt ended after the pause began (${a.t} > ${pausedAt})`);
    const before = events.filter((e): e is Attempt => e.type === 'attempt' && e.t < pausedAt);
    assert.ok(before.length > 0 && before.every((a) => a.paused === undefined), `attempts that ended before the pause are not marked: ${JSON.stringify(before)}`);

    // Past the 3 × 1 s window: would have restarted, on a warning background.
    await waitFor(() => OVERDUE.test(statusBar.text ?? ''), 8_000, () => `the status bar to say it would have restarted; it says ${statusBar.text}`);
    assert.equal(pausedStatus(api.breakpointGuard.all())?.backgroundColor?.id, 'statusBarItem.warningBackground');
    // It counts every second.
    const seconds = () => Number(/paused (\d+) s/.exec(statusBar.text ?? '')?.[1]);
    const first = seconds();
    await waitFor(() => seconds() > first, 2_500, 'the countdown to count');

    // Going on: the countdown clears, a `continued` line closes the pause.
    await goOn();
    await waitFor(() => !statusBar.text?.startsWith('$(debug-pause)'), 5_000, () => `the status bar to clear; it says ${statusBar.text}`);
    await waitFor(() => pauses(events, 'continued').length === 1, 3_000, 'the continued line');
    await waitFor(async () => !(await containerLensTitles(document)).some((t) => t.startsWith('$(debug-pause)')), 5_000, 'the lens countdown to clear');
    assert.equal(api.breakpointGuard.all().length, 0);
    // The session's own timeline holds them too.
    assert.equal(session.events.events().filter((e) => e.type === 'pause').length, 2);
  } finally {
    await end();
  }
}, { timeoutMs: 60_000 });

test('probeLens.breakpointGuard.enabled off: no countdown, no pause lines, nothing marked; turned on mid-pause it starts, off again it ends the pause', async () => {
  const restoreGuard = await withSetting('breakpointGuard.enabled', false, vscode.ConfigurationTarget.Workspace);
  try {
    const { api, session, events, program, end } = await debugAndProbe();
    try {
      const statusBar = api.probing.statusBar;
      await holdAtBreakpoint(program);
      // Long enough for attempts to time out while held.
      await waitFor(() => events.some((e) => e.type === 'attempt' && e.outcome === 'failure'), 5_000, 'a failed attempt while held');
      await sleep(1_000);
      assert.ok(!statusBar.text?.startsWith('$(debug-pause)'), `no countdown: ${statusBar.text}`);
      assert.deepEqual(pauses(events, 'paused'), []);
      assert.deepEqual(pausedAttempts(events), []);
      assert.equal(api.breakpointGuard.all().length, 0);

      // On while the program is held: it holds the session from now.
      await vscode.workspace.getConfiguration('probeLens').update('breakpointGuard.enabled', true, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => statusBar.text?.startsWith('$(debug-pause) paused'), 3_000, () => `the countdown once turned on; the status bar says ${statusBar.text}`);
      assert.equal(pauses(events, 'paused').length, 1);
      // Off again: the countdown goes, and the pause it wrote is closed.
      await vscode.workspace.getConfiguration('probeLens').update('breakpointGuard.enabled', false, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => !statusBar.text?.startsWith('$(debug-pause)'), 3_000, () => `the countdown to go; the status bar says ${statusBar.text}`);
      assert.equal(pauses(events, 'continued').length, 1);
      const count = events.length;
      await goOn();
      await sleep(500);
      assert.deepEqual(events.slice(count).filter((e) => e.type === 'pause'), [], 'nothing written once off');
      assert.ok(!session.isStopped);
    } finally {
      await end();
    }
  } finally {
    await restoreGuard();
  }
}, { timeoutMs: 60_000 });
