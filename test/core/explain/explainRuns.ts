/**
 * What the explanation tables share (explain.test.ts, explainSessions.test.ts): recordings made by
 * real engine runs, explained at a moment, and the check that every cited line is the line it
 * says and what its cause claims.
 */
import assert from 'node:assert/strict';
import type { EngineEvent } from '../../../src/core/engine/events';
import { desiredPods } from '../../../src/core/engine/manager';
import { type Explanation, explainContainer } from '../../../src/core/explain/explain';
import { buildHistory } from '../../../src/core/history/history';
import { timeFormatFor } from '../../../src/core/history/timeFormat';
import { parseManifest } from '../../../src/core/manifest';
import { startSimulation } from '../../../src/core/targets/simulation';
import { runHeader, type RunHeader } from '../../../src/core/timeline/jsonl';
import { podManifest, scenario, webPod } from '../../helpers/engine';

// Wall-clock times in these tables are UTC.
process.env.TZ = 'UTC';

export const NOON = '2025-01-01T12:00:00.000Z';

export interface Recording {
  readonly header: RunHeader;
  readonly events: readonly EngineEvent[];
}

/** `probe-lens simulate` to `until`: the recording's header and lines. */
export function simulated(yaml: string, scenarioText: string, until: number, wall = false): Recording {
  const events: EngineEvent[] = [];
  const simulation = startSimulation(desiredPods(parseManifest(yaml)), { scenario: scenario(scenarioText), seed: 1, emit: (e) => events.push(e) });
  try {
    simulation.advanceTo(until);
  } finally {
    simulation.dispose();
  }
  // A wall-clock recording: the same lines, as a run that began at noon would have them.
  return { header: runHeader(wall ? { mode: 'simulate', startedAt: NOON } : { mode: 'simulate' }), events };
}

export function explain(recording: Recording, pod: string, container: string, at: number): Explanation {
  const history = buildHistory(recording.header, recording.events);
  const explanation = explainContainer(history, pod, container, at, timeFormatFor(history.startedAtMs));
  assert.ok(explanation, `${pod}/${container} is in the recording`);
  return explanation;
}

/**
 * What each reason's evidence must be: every cited line is of a kind its cause speaks of. (The
 * indexes and times are checked for every cause in `assertCitesItsLines`.)
 */
type Line = EngineEvent;
const is = {
  worker: (e: Line) => e.type === 'worker',
  failure: (probe: string) => (e: Line) => e.type === 'attempt' && e.probe === probe && e.error === undefined && (e.outcome === 'failure' || e.outcome === 'unknown'),
  success: (probe: string) => (e: Line) => e.type === 'attempt' && e.probe === probe && e.error === undefined && (e.outcome === 'success' || e.outcome === 'warning'),
  errored: (probe?: string) => (e: Line) => e.type === 'attempt' && (probe === undefined || e.probe === probe) && e.error !== undefined,
  result: (value: string) => (e: Line) => e.type === 'result' && e.value === value,
  status: (ready?: boolean, started?: boolean) => (e: Line) => e.type === 'status' && (ready === undefined || e.ready === ready) && (started === undefined || e.started === started),
  running: (e: Line) => e.type === 'container' && e.state === 'running',
  terminated: (e: Line) => e.type === 'container' && e.state === 'terminated',
  waiting: (reason: string) => (e: Line) => e.type === 'container' && e.state === 'waiting' && e.reason === reason,
  event: (reason: string, probe?: string) => (e: Line) => e.type === 'event' && e.reason === reason && (probe === undefined || e.probe === probe),
  deletion: (e: Line) => e.type === 'event' && e.reason === 'Killing' && (e.container === undefined || e.message.startsWith('Stopping container')),
  pause: (e: Line) => e.type === 'pause',
};
const any = (...checks: ((e: Line) => boolean)[]) => (e: Line) => checks.some((check) => check(e));

const CLAIMS: Readonly<Record<string, (e: Line) => boolean>> = {
  ready: any(is.worker, is.success('readiness'), is.result('Success'), is.status(true)),
  started: any(is.worker, is.failure('startup'), is.success('startup'), is.result('Success')),
  'readiness-failing': any(is.worker, is.failure('readiness'), is.result('Failure'), is.status(false)),
  'readiness-not-yet': any(is.worker, is.failure('readiness'), is.status(false)),
  'readiness-below-threshold': any(is.worker, is.failure('readiness')),
  'liveness-below-threshold': any(is.worker, is.failure('liveness')),
  'success-threshold': any(is.worker, is.success('readiness'), is.status(false)),
  'initial-delay': any(is.worker, is.running),
  'waiting-for-readiness': any(is.worker, is.running, is.status(false)),
  'waiting-for-startup': any(is.worker, is.running, is.status(false, false)),
  'startup-budget': any(is.worker, is.failure('startup'), is.status(false, false)),
  'never-probed-prober-error': any(is.worker, is.errored()),
  'prober-error': any(is.worker, is.errored()),
  warning: any(is.success('readiness'), is.success('liveness'), is.success('startup'), is.event('ProbeWarning')),
  'liveness-restarts': any(is.event('Killing', 'liveness'), is.failure('liveness'), is.terminated),
  'startup-restarts': any(is.event('Killing', 'startup'), is.failure('startup'), is.terminated),
  'exit-restarts': any(is.running, is.terminated),
  'back-off': any(is.terminated, is.waiting('CrashLoopBackOff'), is.event('BackOff')),
  killing: any(is.worker, is.failure('liveness'), is.failure('startup'), is.event('Killing')),
  killed: any(is.worker, is.failure('liveness'), is.failure('startup'), is.event('Killing'), is.terminated),
  deleting: any(is.deletion, is.waiting('PodInitializing')),
  deleted: any(is.deletion, is.terminated),
  exited: any(is.running, is.terminated),
  completed: any(is.running, is.terminated),
  'init-containers': any(is.waiting('PodInitializing'), is.running, is.waiting('CrashLoopBackOff'), is.terminated, is.status()),
  'init-running': any(is.running, is.status(false, true)),
  'init-failed': any(is.waiting('PodInitializing'), is.running, is.terminated),
  paused: any(is.pause, (e) => e.type === 'attempt' && e.paused === true && e.outcome !== 'success'),
  prediction: (e) => e.type === 'prediction' && e.state === 'pending',
  'prediction-confirmed': (e) => e.type === 'prediction' && (e.state === 'pending' || e.state === 'confirmed'),
  'prediction-missed': (e) => e.type === 'prediction' && (e.state === 'pending' || e.state === 'missed'),
  disagreement: (e) => e.type === 'disagreement' && e.state === 'open',
  kubelet: (e) => e.type === 'kubelet',
  'cluster-restarts': any(is.running, (e) => e.type === 'prediction' && e.state === 'confirmed'),
  'cluster-stopped': any(is.running, is.terminated, (e) => e.type === 'prediction' && e.state === 'confirmed'),
  waiting: (e) => e.type === 'container' && e.state === 'waiting',
  'not-created': is.worker,
};

/** Every cited line exists, is the line it says (type, time, order), was written by the moment explained, and is what its cause claims. */
export function assertCitesItsLines(events: readonly EngineEvent[], explanation: Explanation): void {
  for (const cause of explanation.causes) {
    const claim = CLAIMS[cause.reason];
    assert.ok(claim, `the table knows what ${cause.reason} cites`);
    assert.ok(cause.evidence.length > 0, `${cause.reason} cites at least one line`);
    let previous = -1;
    for (const evidence of cause.evidence) {
      const line = events[evidence.index];
      assert.ok(line, `${cause.reason} cites line ${evidence.index}, which exists`);
      assert.equal(line.type, evidence.type, `${cause.reason}: line ${evidence.index}'s type`);
      assert.equal(line.t, evidence.t, `${cause.reason}: line ${evidence.index}'s time`);
      assert.ok(line.t <= explanation.t, `${cause.reason}: line ${evidence.index} was written by t=${explanation.t}`);
      assert.ok(evidence.index > previous, `${cause.reason}: cited in the recording's order`);
      previous = evidence.index;
      if ('pod' in line) assert.equal(line.pod, explanation.pod, `${cause.reason}: line ${evidence.index} is about pod ${explanation.pod}`);
      assert.ok(claim(line), `${cause.reason}: line ${evidence.index} is what it claims: ${JSON.stringify(line)}`);
    }
  }
}


export const READINESS = 'readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 10}';
export const LIVENESS = 'livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}';
export const STARTUP = 'startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 30}';

/** Ready at once; from t=60 readiness answers 503 (readiness every 10 s from t=0). */
export const READINESS_FAILS_AT_60 = 'containers:\n  web:\n    probes:\n      readiness: [{from: 0, outcome: success}, {from: 60, outcome: failure}]';
/** Starts in 15 s; 40 s after each start liveness is refused, and SIGTERM ends it at once. */
export const LIVENESS_FAILS_AT_40 = 'containers:\n  web:\n    readyAfter: 15\n    stopAfter: 0\n    probes:\n      liveness: [{from: 0, outcome: success}, {from: 40, outcome: failure}]';
export const WITH_STARTUP = webPod(`startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 30}\n${READINESS}\n${LIVENESS}`);
export const WITH_INIT = (podFields = '') => podManifest(`${podFields}\ninitContainers:\n  - {name: migrate, image: busybox}\ncontainers:\n  - {name: web, image: nginx, ports: [{name: http, containerPort: 8080}], ${READINESS}}`);
