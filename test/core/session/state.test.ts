/**
 * The session snapshot (src/core/session/state.ts) on a virtual clock: counts per container
 * instance and in total, restarts counted at the kill decision (K2) and through the back-off
 * (B2), the probe that caused them, and snapshots that are immutable, versioned and shared.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import type { ContainerSnapshot } from '../../../src/core/session/snapshot';
import { SessionState } from '../../../src/core/session/state';
import { only, webPod } from '../../helpers/engine';
import { sessionRun } from './sessionRun';

/** Liveness every second, killed after 3 failures; the app hangs 5 s after each start. */
const LIVENESS_FAILS = webPod(`
livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 1, failureThreshold: 3}
readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1}
`);
/** Exits at once on SIGTERM: killed at t=8, 16 (then back-off 10 s), 34 (back-off 20 s)… */
const HANGS_AT_5 = 'containers:\n  web: {readyAfter: 0, failAfter: 5, stopAfter: 0, latency: 0.01}\n';
/** Ignores SIGTERM: a kill takes the whole grace period (30 s). */
const HANGS_AT_5_IGNORES_SIGTERM = 'containers:\n  web: {readyAfter: 0, failAfter: 5, latency: 0.01}\n';

function web(snapshot: { pods: ReadonlyMap<string, { containers: ReadonlyMap<string, ContainerSnapshot> }> }): ContainerSnapshot {
  const container = snapshot.pods.get('web')?.containers.get('web');
  assert.ok(container, 'container web is in the snapshot');
  return container;
}

test('counters are per container instance: a restarted container starts from none, the totals go on', () => {
  const run = sessionRun(LIVENESS_FAILS, HANGS_AT_5);
  try {
    const before = web(run.at(7.5)).probes.get('liveness');
    assert.deepEqual([before?.containerId, before?.attempts, before?.successes, before?.total.attempts], ['sim://web/web/0', 6, 4, 6]);
    // Killed at t=8 (third failure), restarted at once (B2: the first restart waits for nothing).
    const restarted = web(run.at(8.005));
    const liveness = restarted.probes.get('liveness');
    assert.equal(restarted.containerId, 'sim://web/web/1');
    assert.deepEqual([liveness?.containerId, liveness?.attempts, liveness?.successes, liveness?.recent, liveness?.result, liveness?.last], ['sim://web/web/1', 0, 0, [], undefined, undefined]);
    assert.deepEqual(liveness?.total, { attempts: 7, successes: 4, answered: 7 }, 'the totals keep every instance');
    assert.deepEqual(liveness?.recentAttempts, [], 'the hover lists this instance\'s attempts');
    assert.equal(liveness?.newest?.containerId, 'sim://web/web/0', 'the newest attempt of any instance: the failure that got it killed');
    assert.equal(liveness?.newest?.outcome, 'failure');
    const later = web(run.at(11.5)).probes.get('liveness');
    assert.deepEqual([later?.attempts, later?.successes, later?.recent, later?.total], [3, 3, ['success', 'success', 'success'], { attempts: 10, successes: 7, answered: 10 }]);
    assert.deepEqual(later?.recentAttempts.map((a) => [a.t, a.outcome, a.containerId]), [9.01, 10.01, 11.01].map((t) => [t, 'success', 'sim://web/web/1']));
    assert.equal(later?.failureThreshold, 3, 'from the worker line');
  } finally {
    run.dispose();
  }
});

test('K2: a kill decision counts as a restart at once, naming the probe, while the container still stops', () => {
  for (const kills of ['carried-out', 'reported'] as const) {
    const run = sessionRun(LIVENESS_FAILS, HANGS_AT_5_IGNORES_SIGTERM, kills);
    try {
      const killed = web(run.at(8));
      assert.deepEqual(
        [killed.state, killed.restartCount, killed.restarts, killed.killing, killed.lastRestartCause],
        ['running', 0, 1, { probe: 'liveness', t: 8, restarts: true }, 'liveness'],
        `${kills}: counted at the decision, 30 s before the kubelet's restartCount`,
      );
      // K3: the grace period runs out at t=38; the new instance has the count the kubelet gives it.
      const after = web(run.at(38));
      assert.deepEqual([after.containerId, after.restartCount, after.restarts, after.killing], ['sim://web/web/1', 1, 1, undefined], kills);
    } finally {
      run.dispose();
    }
  }
});

test('B2: waiting out CrashLoopBackOff counts the restart to come and says when the back-off ends', () => {
  const run = sessionRun(LIVENESS_FAILS, HANGS_AT_5);
  try {
    const waiting = web(run.at(20));
    assert.deepEqual(
      [waiting.state, waiting.reason, waiting.restartCount, waiting.restarts, waiting.backOffUntil, waiting.lastRestartCause],
      ['waiting', 'CrashLoopBackOff', 1, 2, 26, 'liveness'],
    );
    assert.equal(web(run.at(40)).backOffUntil, 54, 'killed at 34, back-off 20 s');
    assert.deepEqual([web(run.at(54)).restarts, web(run.now()).restartCount], [3, 3]);
  } finally {
    run.dispose();
  }
});

test('a process that exits by itself: the restart\'s cause is the exit', () => {
  const run = sessionRun(webPod('readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 1}'), 'containers:\n  web: {readyAfter: 0, exitAfter: 5, latency: 0.01}\n');
  try {
    const restarted = web(run.at(6));
    assert.deepEqual([restarted.restarts, restarted.lastRestartCause, restarted.killing], [1, 'exit', undefined]);
  } finally {
    run.dispose();
  }
});

test('an attempt of an instance already replaced (in flight) counts in the totals only', () => {
  const state = new SessionState('carried-out');
  const container = (t: number, id: string, restartCount: number): EngineEvent => ({ type: 'container', t, pod: 'p', container: 'c', containerId: id, state: 'running', restartCount });
  const attempt = (t: number, id: string): EngineEvent => ({ type: 'attempt', t, pod: 'p', container: 'c', probe: 'readiness', containerId: id, outcome: 'success', output: '', durationMs: 1 });
  for (const event of [container(0, 'x/0', 0), attempt(1, 'x/0'), container(2, 'x/1', 1), attempt(2.5, 'x/0')]) state.apply(event);
  const probe = state.snapshot({ t: 3, clock: { kind: 'wall' } }).pods.get('p')?.containers.get('c')?.probes.get('readiness');
  assert.deepEqual([probe?.containerId, probe?.attempts, probe?.recentAttempts.length, probe?.total.attempts, probe?.newest?.t], ['x/1', 0, 0, 2, 2.5]);
});

test('snapshots: the same object while nothing changes, a new version when anything does, unchanged parts shared and frozen', () => {
  const run = sessionRun(LIVENESS_FAILS, HANGS_AT_5);
  try {
    const first = run.at(3.5);
    const moment = { t: first.t, clock: first.clock };
    assert.equal(run.state.snapshot(moment), first, 'nothing happened: the same snapshot');
    const paused = run.state.snapshot({ t: first.t, clock: { kind: 'virtual', paused: true, speed: 1 } });
    assert.equal(paused.version, first.version + 1, 'the clock paused: a new version');
    assert.equal(paused.pods, first.pods, '… sharing every pod');
    const next = run.at(4.5);
    assert.ok(next.version > paused.version);
    assert.notEqual(web(next), web(first), 'attempts changed the container');
    assert.equal(web(next).probes.get('startup'), undefined);
    assert.ok(Object.isFrozen(next) && Object.isFrozen(web(next)) && Object.isFrozen(web(next).probes.get('liveness')));
    assert.equal(web(first).probes.get('liveness')?.attempts, 3, 'an older snapshot does not change');
  } finally {
    run.dispose();
  }
});

test('forgetProbe: an edited probe starts its counts afresh, the others keep theirs', () => {
  const run = sessionRun(LIVENESS_FAILS, HANGS_AT_5);
  try {
    run.at(3.5);
    run.state.forgetProbe('web', 'web', 'readiness');
    const after = web(run.now());
    assert.equal(after.probes.get('readiness'), undefined);
    assert.equal(after.probes.get('liveness')?.attempts, 3);
    assert.ok(only(run.events, 'attempt').length > 0);
  } finally {
    run.dispose();
  }
});
