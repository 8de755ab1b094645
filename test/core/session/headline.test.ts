/**
 * The worst-state headline (src/core/session/headline.ts): a table of container conditions in
 * rank order, pod and session headlines, and the same words from a simulation on a virtual clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clockText, containerCondition, podHeadline, RANK, restartsLabel, sessionHeadline } from '../../../src/core/session/headline';
import { virtualTime } from '../../../src/core/text/durations';
import type { ContainerSnapshot, KillMode, PodSnapshot, ProbeSnapshot, SessionSnapshot } from '../../../src/core/session/snapshot';
import type { ProbeType } from '../../../src/core/manifest';
import type { ProbeResult } from '../../../src/core/probers/types';
import { webPod } from '../../helpers/engine';
import { sessionRun } from './sessionRun';

function probe(type: ProbeType, recent: ProbeResult[], failureThreshold = 3): ProbeSnapshot {
  return {
    type,
    containerId: 'c/0',
    attempts: recent.length,
    successes: recent.filter((r) => r === 'success').length,
    recent,
    lastOutput: '',
    lastError: undefined,
    lastDurationMs: 1,
    result: undefined,
    last: undefined,
    total: { attempts: recent.length, successes: 0, answered: recent.filter((r) => r !== 'unknown').length },
    recentAttempts: [],
    newest: undefined,
    failureThreshold,
  };
}

const RUNNING: ContainerSnapshot = {
  name: 'web',
  containerId: 'c/0',
  state: 'running',
  reason: undefined,
  message: undefined,
  restartCount: 0,
  restarts: 0,
  started: true,
  ready: true,
  killing: undefined,
  lastRestartCause: undefined,
  backOffUntil: undefined,
  startedAt: 0,
  kubelet: undefined,
  disagreement: undefined,
  prediction: undefined,
  probes: new Map(),
};

function container(fields: Partial<ContainerSnapshot>, probes: ProbeSnapshot[] = []): ContainerSnapshot {
  return { ...RUNNING, ...fields, probes: new Map(probes.map((p) => [p.type, p])) };
}

const CRASH_LOOP = container({ state: 'waiting', reason: 'CrashLoopBackOff', restartCount: 6, restarts: 7, lastRestartCause: 'liveness', started: false, ready: false });

test('container conditions, worst first: each with its rank, severity and words', () => {
  const table: [string, ContainerSnapshot, KillMode, number, string, string][] = [
    ['crash loop', CRASH_LOOP, 'carried-out', RANK.crashLoop, 'error', 'CrashLoopBackOff · 7 restarts (liveness)'],
    ['crash loop, kills reported', CRASH_LOOP, 'reported', RANK.crashLoop, 'error', 'CrashLoopBackOff · would restart 7× (liveness)'],
    ['killed, restarting', container({ killing: { probe: 'startup', t: 3, restarts: true }, restarts: 1, lastRestartCause: 'startup' }), 'carried-out', RANK.restarting, 'error', 'restarting · 1 restart (startup)'],
    ['kill decided, only reported', container({ killing: { probe: 'liveness', t: 3, restarts: true }, restarts: 2, lastRestartCause: 'liveness' }), 'reported', RANK.restarting, 'error', 'would restart now · 2× (liveness)'],
    ['killed for good (restartPolicy Never)', container({ killing: { probe: 'liveness', t: 3, restarts: false } }), 'carried-out', RANK.restarting, 'error', 'stopping (liveness failed)'],
    ['terminated', container({ state: 'terminated', reason: 'Error', ready: false }), 'carried-out', RANK.terminated, 'error', 'terminated (Error)'],
    ['startup failing', container({ started: false, ready: false }, [probe('startup', ['failure', 'failure'], 30)]), 'carried-out', RANK.startupFailing, 'error', 'startup failing 2/30'],
    ['liveness failing, prober errors skipped (P5)', container({}, [probe('liveness', ['success', 'failure', 'unknown', 'failure'])]), 'carried-out', RANK.livenessFailing, 'warning', 'liveness failing 2/3'],
    ['readiness failing', container({ ready: false }, [probe('readiness', ['failure'], 1)]), 'carried-out', RANK.notReady, 'warning', 'readiness failing 1/1'],
    ['started, not ready yet', container({ ready: false }), 'carried-out', RANK.notReady, 'warning', 'not ready'],
    ['starting', container({ started: false, ready: false }), 'carried-out', RANK.starting, 'pending', 'starting'],
    ['waiting for init containers', container({ state: 'waiting', reason: 'PodInitializing', started: false, ready: false }), 'carried-out', RANK.starting, 'pending', 'waiting (PodInitializing)'],
    ['ready', RUNNING, 'carried-out', RANK.ready, 'ok', 'ready'],
    ['completed', container({ state: 'terminated', reason: 'Completed', ready: false }), 'carried-out', RANK.completed, 'ok', 'completed'],
  ];
  for (const [name, snapshot, kills, rank, severity, text] of table) {
    assert.deepEqual(containerCondition(snapshot, kills), { rank, severity, text }, name);
  }
  // Readiness failing while the container crash-loops: the crash loop is what it says.
  const both = container({ ...CRASH_LOOP, probes: new Map() }, [probe('readiness', ['failure'], 1)]);
  assert.equal(containerCondition(both, 'carried-out').text, 'CrashLoopBackOff · 7 restarts (liveness)');
});

function pod(name: string, ready: boolean, containers: ContainerSnapshot[]): PodSnapshot {
  return { name, ready, containers: new Map(containers.map((c) => [c.name, c])), kubeletReady: undefined, clusterPod: undefined, clusterEvents: [] };
}

function session(pods: PodSnapshot[], kills: KillMode = 'carried-out'): SessionSnapshot {
  return { version: 1, t: 200, clock: { kind: 'virtual', paused: false, speed: 60 }, kills, pods: new Map(pods.map((p) => [p.name, p])), endedAt: undefined, stoppedBecause: undefined };
}

test('pod and session headlines: trouble by container name, else the pod\'s Ready or NotReady, never a count of ready containers', () => {
  const sidecar = { ...RUNNING, name: 'proxy' };
  const table: [string, SessionSnapshot, string][] = [
    ['a crash loop beats a readiness failure beside it', session([pod('web-0', false, [CRASH_LOOP, container({ name: 'proxy', ready: false }, [probe('readiness', ['failure'], 1)])])]), 'web: CrashLoopBackOff · 7 restarts (liveness)'],
    ['not ready', session([pod('web-0', false, [container({ ready: false }, [probe('readiness', ['failure'])]), sidecar])]), 'pod web-0 NotReady · web: readiness failing 1/3'],
    ['starting', session([pod('web-0', false, [container({ started: false, ready: false })])]), 'pod web-0 NotReady · web: starting'],
    ['ready', session([pod('web-0', true, [RUNNING, sidecar])]), 'pod web-0 Ready'],
    ['ready after restarts', session([pod('web-0', true, [container({ restarts: 2, restartCount: 2 })])]), 'pod web-0 Ready · 2 restarts'],
    ['ready after restarts only decided', session([pod('web-0', true, [container({ restarts: 1 })])], 'reported'), 'pod web-0 Ready · would restart 1×'],
    ['several pods: the worst, named with its pod', session([pod('web-0', true, [RUNNING]), pod('web-1', false, [CRASH_LOOP])]), 'web-1/web: CrashLoopBackOff · 7 restarts (liveness)'],
    ['several pods, all ready', session([pod('web-0', true, [RUNNING]), pod('web-1', true, [RUNNING])]), '2 pods Ready'],
    ['nothing reported yet', session([]), 'starting'],
  ];
  for (const [name, snapshot, text] of table) assert.equal(sessionHeadline(snapshot).text, text, name);
  const worst = sessionHeadline(session([pod('web-0', true, [RUNNING]), pod('web-1', false, [CRASH_LOOP])]));
  assert.deepEqual([worst.pod, worst.container, worst.severity], ['web-1', 'web', 'error']);
  assert.equal(podHeadline(pod('web-0', false, []), 'carried-out').text, 'pod web-0 starting');
});

test('virtual time and a simulation\'s clock: t+hh:mm:ss, the speed or paused', () => {
  assert.deepEqual([virtualTime(0), virtualTime(200.9), virtualTime(3 * 3600 + 61), virtualTime(100 * 3600)], ['t+00:00:00', 't+00:03:20', 't+03:01:01', 't+100:00:00']);
  assert.equal(clockText({ kind: 'virtual', paused: false, speed: 60 }, 200), 't+00:03:20 · 60×');
  assert.equal(clockText({ kind: 'virtual', paused: true, speed: 60 }, 200), 't+00:03:20 · paused');
  assert.equal(clockText({ kind: 'wall' }, 200), undefined);
});

test('restart labels for rows and lenses: restarts N (cause), or would restart N× where kills are only reported', () => {
  assert.equal(restartsLabel(RUNNING, 'carried-out'), 'restarts 0');
  assert.equal(restartsLabel(RUNNING, 'reported'), 'restarts 0', 'not "would restart 0×"');
  assert.equal(restartsLabel(CRASH_LOOP, 'carried-out'), 'restarts 7 (liveness)');
  assert.equal(restartsLabel(container({ restarts: 1, lastRestartCause: 'exit' }), 'reported'), 'would restart 1× (exited)');
});

/** Killed after 3 liveness failures (period 1 s), the app hanging 5 s after each start and exiting at once on SIGTERM. */
const CRASH_LOOPING = webPod(`
livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 1, failureThreshold: 3}
readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1, failureThreshold: 1}
`);

test('on the virtual clock: ready, liveness failing, restarting, CrashLoopBackOff, in the kubelet\'s order', () => {
  const run = sessionRun(CRASH_LOOPING, 'containers:\n  web: {readyAfter: 0, failAfter: 5, stopAfter: 0, latency: 0.01}\n');
  try {
    const at = (t: number) => sessionHeadline(run.at(t)).text;
    assert.equal(at(3), 'pod web Ready');
    // Readiness (threshold 1) fails at t=6 too, but the liveness failure is the worse.
    assert.equal(at(6.5), 'web: liveness failing 1/3');
    assert.equal(at(9), 'pod web Ready · 1 restart');
    assert.equal(at(20), 'web: CrashLoopBackOff · 2 restarts (liveness)');
  } finally {
    run.dispose();
  }
  const reported = sessionRun(CRASH_LOOPING, 'containers:\n  web: {readyAfter: 0, failAfter: 5, latency: 0.01}\n', 'reported');
  try {
    assert.equal(sessionHeadline(reported.at(8)).text, 'web: would restart now · 1× (liveness)');
  } finally {
    reported.dispose();
  }
});
