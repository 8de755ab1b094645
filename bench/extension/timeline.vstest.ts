/**
 * The timeline panel's cost to the engine (issue 9, "Measured"), inside a real VS Code extension
 * host: probe lateness p99 of a local session with the panel open and following, beside the same
 * figure without it — measured on one session, in three windows (no panel, panel open, panel
 * closed again), so drift of the machine shows as a difference between the two panel-less ones.
 * The webview's redraw and a recording's time to first paint are measured in Chromium, from the
 * Playwright side: `node test/e2e/uiTest.mjs --only timeline --bench`.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EngineEvent } from '../../src/core/engine/events';
import type { ProbeLensApi } from '../../src/extension/extension';
import type { ProbingSession } from '../../src/extension/sessions/probingSession';
import type { TimelinePanel } from '../../src/extension/timeline/timelinePanel';
import { sleep, test, waitFor } from '../../test/extension/harness';
import { probeLensExtension } from '../../test/extension/workbench';
import { startLoopbackServer } from '../loopbackServer';
import { podsManifest } from '../pods';
import { percentiles } from '../stats';

const PODS = Number(process.env['BENCH_TIMELINE_PODS'] ?? 100);
const WARMUP_MS = 5_000;
const WINDOW_MS = 8_000;
const GOAL_P99_MS = 20;

function report(line: string): void {
  console.log(`  ${line}`);
}

type Attempt = Extract<EngineEvent, { type: 'attempt' }>;

/**
 * How late each probe started against its worker's fixed-rate grid (W3): per probe, an attempt's
 * start (`t − durationMs`) minus the grid point it belongs to, the grid placed at the probe's most
 * punctual start. Attempts started in [from, to) seconds of the session.
 */
function lateness(events: readonly EngineEvent[], from: number, to: number, periodSeconds: number): number[] {
  const starts = new Map<string, number[]>();
  for (const event of events) {
    if (event.type !== 'attempt') continue;
    const attempt = event as Attempt;
    const start = attempt.t - attempt.durationMs / 1000;
    if (start < from || start >= to) continue;
    const key = `${attempt.pod}/${attempt.container}/${attempt.probe}`;
    let list = starts.get(key);
    if (!list) starts.set(key, (list = []));
    list.push(start);
  }
  const late: number[] = [];
  for (const list of starts.values()) {
    const first = list[0] as number;
    const offsets = list.map((s) => {
      const k = Math.round((s - first) / periodSeconds);
      return s - first - k * periodSeconds;
    });
    const punctual = Math.min(...offsets);
    for (const offset of offsets) late.push((offset - punctual) * 1000);
  }
  return late;
}

test('probe lateness with the timeline panel open and following', async () => {
  const api: ProbeLensApi = await probeLensExtension().activate();
  const server = await startLoopbackServer('http');
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder);
  const manifest = vscode.Uri.joinPath(folder.uri, 'bench-timeline.yaml');
  const probes = `      startupProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 1}
      readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 1}
      livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 1}`;
  await vscode.workspace.fs.writeFile(manifest, new TextEncoder().encode(podsManifest(PODS, () => probes)));
  const config = vscode.workspace.getConfiguration('probeLens');
  await config.update('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  let session: ProbingSession | undefined;
  let panel: TimelinePanel | undefined;
  try {
    const document = await vscode.workspace.openTextDocument(manifest);
    await vscode.window.showTextDocument(document, { preview: false });
    const started = await api.probing.launcher.startLocal({ uri: manifest, trusted: true });
    assert.ok(started.ok, started.ok ? '' : started.reason);
    session = started.value.session;
    const s = session;
    await sleep(WARMUP_MS);

    const window = async (): Promise<{ from: number; to: number }> => {
      const from = s.elapsedSeconds;
      await sleep(WINDOW_MS);
      return { from, to: s.elapsedSeconds };
    };
    const before = await window();
    panel = api.timeline.openSession(s);
    const open = panel;
    await waitFor(() => open.isLoaded, 20_000, 'the panel to load');
    const sentFrom = open.sent.length;
    const withPanel = await window();
    const appends = open.sent.slice(sentFrom).filter((m) => m.type === 'append');
    open.dispose();
    panel = undefined;
    const after = await window();

    const events = s.events.events();
    const figure = (w: { from: number; to: number }) => percentiles(lateness(events, w.from, w.to, 1));
    const a = figure(before);
    const b = figure(withPanel);
    const c = figure(after);
    const rate = a.count / (WINDOW_MS / 1000);
    report(`probe lateness, a local session of ${PODS} pods × 3 HTTP probes at periodSeconds 1 against a loopback server (~${Math.round(rate)} attempts/s), ${WINDOW_MS / 1000} s windows:`);
    report(`  without the panel:              p50 ${a.p50.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms (${a.count} attempts)`);
    report(`  panel open, following live:     p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms (${b.count} attempts; ${appends.length} messages, ${(appends.length / (WINDOW_MS / 1000)).toFixed(1)}/s, ${Math.round(appends.reduce((n, m) => n + (m.events ?? 0), 0) / Math.max(1, appends.length))} events each) ${b.p99 <= GOAL_P99_MS ? 'PASS' : 'FAIL'} (goal ≤ ${GOAL_P99_MS} ms)`);
    report(`  without the panel again:        p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms (${c.count} attempts)`);
  } finally {
    panel?.dispose();
    session?.dispose();
    await config.update('local.portMap', undefined, vscode.ConfigurationTarget.Workspace);
    await server.close();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.workspace.fs.delete(manifest).then(undefined, () => undefined);
  }
}, { timeoutMs: 120_000 });
