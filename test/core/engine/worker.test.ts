import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EffectiveProbe, ProbeType } from '../../../src/core/manifest';
import type { ContainerState, ContainerStatusView, PodPhase, PodStatusView } from '../../../src/core/engine/podState';
import { type CachedResult, type ResultUpdate, ResultsCache } from '../../../src/core/engine/results';
import { type AttemptVerdict, ProbeWorker } from '../../../src/core/engine/worker';

/** A container status the test edits between steps. */
interface FakeContainer {
  name: string;
  containerId?: string;
  state: ContainerState;
  startedAt?: number;
  started: boolean;
  ready: boolean;
  restartCount: number;
}

/** A pod status the test controls; `present: false` means the kubelet knows no status yet. */
interface FakePod {
  present: boolean;
  phase: PodPhase;
  deleting: boolean;
  restartPolicy: string;
  containers: FakeContainer[];
}

type Scripted = 'S' | 'F' | 'E';

function spec(overrides: Partial<EffectiveProbe> = {}): EffectiveProbe {
  return {
    handler: { type: 'tcpSocket', port: 8080 },
    handlerCount: 1,
    initialDelaySeconds: 0,
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
    ...overrides,
  };
}

/** A worker with a hand-written host: a pod status we control and scripted verdicts. */
class Rig {
  readonly pod: FakePod;
  readonly published: ResultUpdate[] = [];
  readonly results: ResultsCache;
  /** Container IDs the worker asked to probe, in order. */
  readonly probed: string[] = [];
  readonly worker: ProbeWorker;
  now = 0;
  private script: Scripted[] = [];

  constructor(
    readonly type: ProbeType,
    options: { spec?: Partial<EffectiveProbe>; sidecar?: boolean; container?: Partial<FakeContainer>; pod?: Partial<FakePod> } = {},
  ) {
    this.results = new ResultsCache(type, (update) => this.published.push(update));
    const container: FakeContainer = {
      name: 'web',
      containerId: 'c1',
      state: 'running',
      startedAt: 0,
      // Gating open for the probe under test by default.
      started: type !== 'startup',
      ready: false,
      restartCount: 0,
      ...options.container,
    };
    this.pod = { present: true, phase: 'Running', deleting: false, restartPolicy: 'Always', containers: [container], ...options.pod };
    const view = (): PodStatusView | undefined => {
      if (!this.pod.present) return undefined;
      const pod = this.pod;
      return {
        phase: pod.phase,
        deleting: pod.deleting,
        restartPolicy: pod.restartPolicy,
        container: (name: string): ContainerStatusView | undefined => pod.containers.find((c) => c.name === name),
      };
    };
    this.worker = new ProbeWorker(type, 'web', options.sidecar ?? false, spec(options.spec), this.results, {
      podStatus: view,
      now: () => this.now,
      probe: (containerId, done) => {
        this.probed.push(containerId);
        const next = this.script.shift();
        if (next === undefined) throw new Error(`unscripted probe #${this.probed.length}`);
        const verdict: AttemptVerdict = next === 'E' ? { error: 'dial error' } : { result: next === 'S' ? 'Success' : 'Failure' };
        done(verdict);
      },
    });
  }

  get container(): FakeContainer {
    return this.pod.containers[0] as FakeContainer;
  }

  /** Queues verdicts for the next probes: `'FFS'`, `'E'`. */
  will(verdicts: string): this {
    this.script.push(...(verdicts.split('') as Scripted[]));
    return this;
  }

  /** One `doProbe`; returns keepGoing. The host answers synchronously. */
  step(): boolean {
    let keepGoing: boolean | undefined;
    this.worker.doProbe((k) => (keepGoing = k));
    assert.notEqual(keepGoing, undefined, 'doProbe settled synchronously');
    return keepGoing as boolean;
  }

  /** `n` steps, each expected to keep going. */
  steps(n: number): void {
    for (let i = 0; i < n; i++) assert.equal(this.step(), true, `step ${i + 1} keeps going`);
  }

  get value(): CachedResult | undefined {
    return this.results.get(this.container.containerId ?? '');
  }

  /** Publishes as `id=Value`. */
  get updates(): string[] {
    return this.published.map((u) => `${u.containerId}=${u.result}`);
  }

  newContainer(id: string, at = this.now): void {
    Object.assign(this.container, { containerId: id, state: 'running', startedAt: at });
  }
}

// ---------------------------------------------------------------- W2

test('W2: initial values are written on first sight of a container ID, before any probe: readiness Failure, liveness Success, startup Unknown', () => {
  const expected: Record<ProbeType, CachedResult> = { readiness: 'Failure', liveness: 'Success', startup: 'Unknown' };
  for (const type of ['readiness', 'liveness', 'startup'] as const) {
    // Inside a 30 s initial delay: nothing is probed, the initial value is still there.
    const rig = new Rig(type, { spec: { initialDelaySeconds: 30 } });
    assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'initial-delay' });
    assert.deepEqual(rig.updates, [`c1=${expected[type]}`], type);
    assert.equal(rig.probed.length, 0);
    // Seen again: same value, nothing new published (R2).
    rig.step();
    assert.deepEqual(rig.updates, [`c1=${expected[type]}`], type);
  }
});

// ---------------------------------------------------------------- W5, step by step

test('W5.1: no pod status → keep going, nothing probed, nothing cached', () => {
  const rig = new Rig('liveness', { pod: { present: false } });
  assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'no-pod-status' });
  assert.equal(rig.step(), true);
  assert.deepEqual(rig.updates, []);
  assert.equal(rig.probed.length, 0);
  assert.equal(rig.worker.state.containerId, undefined);
});

test('W5.2: pod phase Failed or Succeeded → the worker exits, before looking at the container', () => {
  for (const phase of ['Failed', 'Succeeded'] as const) {
    for (const type of ['liveness', 'readiness', 'startup'] as const) {
      const rig = new Rig(type, { pod: { phase } });
      assert.deepEqual(rig.worker.decide(), { kind: 'exit', reason: 'pod-finished' }, `${type} ${phase}`);
      assert.equal(rig.step(), false);
      // Step 2 precedes step 4: the container ID was never adopted, no initial value written.
      assert.deepEqual(rig.updates, []);
      assert.equal(rig.probed.length, 0);
    }
  }
});

test('W5.2: a Failed phase makes even an on-hold worker exit (step 2 precedes step 5)', () => {
  const rig = new Rig('liveness', { spec: { failureThreshold: 1 } }).will('F');
  rig.step();
  assert.equal(rig.worker.state.onHold, true);
  rig.pod.phase = 'Failed';
  assert.equal(rig.step(), false);
});

test('W5.3: container status missing, or present without a container ID → keep going, change nothing', () => {
  const missing = new Rig('readiness');
  missing.pod.containers = [{ name: 'other', containerId: 'x', state: 'running', startedAt: 0, started: true, ready: false, restartCount: 0 }];
  assert.deepEqual(missing.worker.decide(), { kind: 'keep-going', reason: 'no-container' });
  assert.equal(missing.step(), true);
  assert.deepEqual(missing.updates, []);

  const noId = new Rig('readiness', { container: { containerId: undefined, state: 'waiting' } });
  assert.deepEqual(noId.worker.decide(), { kind: 'keep-going', reason: 'no-container' });
  assert.equal(noId.step(), true);
  assert.deepEqual(noId.updates, []);
  assert.equal(noId.probed.length, 0);
  // No ID even with Never + a terminated state: step 3 wins over step 6, the worker stays.
  noId.pod.restartPolicy = 'Never';
  noId.container.state = 'terminated';
  assert.equal(noId.step(), true);
  assert.deepEqual(noId.updates, []);
});

test('W5.4: a new container ID removes the old cached result (silently), sets the initial value and clears the hold', () => {
  const rig = new Rig('liveness', { spec: { failureThreshold: 1 } }).will('F');
  rig.step();
  assert.deepEqual(rig.updates, ['c1=Success', 'c1=Failure']);
  assert.equal(rig.worker.state.onHold, true);
  rig.now = 10_000;
  assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'on-hold' });

  rig.newContainer('c2', 10_000);
  rig.will('S');
  rig.now = 20_000;
  assert.equal(rig.step(), true);
  assert.equal(rig.results.get('c1'), undefined, 'old ID removed');
  assert.equal(rig.results.get('c2'), 'Success');
  // Remove publishes nothing (R2); the new ID's initial value is published once.
  assert.deepEqual(rig.updates, ['c1=Success', 'c1=Failure', 'c2=Success']);
  assert.equal(rig.worker.state.onHold, false);
  assert.deepEqual(rig.probed, ['c1', 'c2'], 'the new container is probed in the same doProbe');
});

test('W5.4: the new ID is adopted even when the worker then does not probe (initial delay, not running)', () => {
  const rig = new Rig('readiness', { spec: { initialDelaySeconds: 10 } });
  rig.step();
  rig.newContainer('c2', 5_000);
  rig.container.state = 'waiting';
  rig.now = 6_000;
  rig.step();
  // Initial Failure for c2, then step 6 sets Failure again (no second publish).
  assert.deepEqual(rig.updates, ['c1=Failure', 'c2=Failure']);
  assert.equal(rig.worker.state.containerId, 'c2');
});

test('W5.5: on hold → keep going without probing, before the not-running check (step 5 precedes step 6)', () => {
  // A startup worker on hold after a Success: its container then stops (same ID).
  const rig = new Rig('startup').will('S');
  rig.step();
  assert.equal(rig.value, 'Success');
  assert.equal(rig.worker.state.onHold, true);
  rig.container.state = 'terminated';
  rig.pod.restartPolicy = 'Never';
  assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'on-hold' });
  rig.steps(3);
  // Step 6 was never reached: no Failure cached, no exit despite terminated + Never.
  assert.equal(rig.value, 'Success');
  assert.deepEqual(rig.updates, ['c1=Unknown', 'c1=Success']);
  assert.equal(rig.probed.length, 1);
});

test('W5.6: a waiting container → Failure cached for all three probe types, keep going', () => {
  for (const type of ['liveness', 'readiness', 'startup'] as const) {
    const rig = new Rig(type, { container: { state: 'waiting' }, pod: { restartPolicy: 'Never' } });
    assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'not-running' }, type);
    assert.equal(rig.value, 'Failure', type);
    assert.equal(rig.step(), true, `${type}: waiting is not terminated, even under Never`);
    assert.equal(rig.probed.length, 0);
  }
});

test('W5.6: a terminated container → Failure; the worker exits only for restartPolicy Never and not a sidecar', () => {
  const cases: [policy: string, sidecar: boolean, keepGoing: boolean][] = [
    ['Always', false, true],
    ['OnFailure', false, true],
    ['Never', false, false],
    ['Never', true, true],
    ['Always', true, true],
  ];
  for (const [policy, sidecar, keepGoing] of cases) {
    for (const type of ['liveness', 'readiness', 'startup'] as const) {
      const rig = new Rig(type, { sidecar, container: { state: 'terminated' }, pod: { restartPolicy: policy } });
      assert.equal(rig.step(), keepGoing, `${type} ${policy} sidecar=${sidecar}`);
      assert.equal(rig.value, 'Failure', `${type} ${policy} sidecar=${sidecar}`);
      assert.equal(rig.probed.length, 0);
      if (!keepGoing) assert.deepEqual(rig.worker.decide(), { kind: 'exit', reason: 'will-not-restart' });
    }
  }
});

test('W5.6: not running comes before the deletion check (step 6 precedes step 7)', () => {
  const rig = new Rig('liveness', { container: { state: 'waiting' }, pod: { deleting: true } });
  assert.equal(rig.step(), true);
  assert.equal(rig.value, 'Failure');
});

test('W5.7: pod deleting → liveness and startup cache Success and exit; readiness keeps probing', () => {
  const liveness = new Rig('liveness', { spec: { failureThreshold: 1 } }).will('F');
  liveness.step();
  assert.equal(liveness.value, 'Failure');
  // A new container so the hold is lifted; it is running while the pod is deleted.
  liveness.newContainer('c2');
  liveness.pod.deleting = true;
  assert.equal(liveness.step(), false);
  assert.equal(liveness.results.get('c2'), 'Success');
  assert.equal(liveness.probed.length, 1);

  const startup = new Rig('startup', { pod: { deleting: true } });
  assert.deepEqual(startup.worker.decide(), { kind: 'exit', reason: 'pod-deleting' });
  assert.deepEqual(startup.updates, ['c1=Unknown', 'c1=Success']);
  assert.equal(startup.probed.length, 0);

  const readiness = new Rig('readiness', { pod: { deleting: true } }).will('SF');
  assert.equal(readiness.step(), true);
  assert.equal(readiness.value, 'Success');
  assert.equal(readiness.step(), true);
  assert.deepEqual(readiness.probed, ['c1', 'c1']);
});

test('W5.7: deletion comes before the initial delay and start gating (a liveness worker inside its delay, not started, exits)', () => {
  const rig = new Rig('liveness', { spec: { initialDelaySeconds: 60 }, container: { started: false }, pod: { deleting: true } });
  assert.deepEqual(rig.worker.decide(), { kind: 'exit', reason: 'pod-deleting' });
});

test('W5.8/W6: initial delay in whole seconds, truncated, since the container startedAt (not since the worker started)', () => {
  const rig = new Rig('readiness', { spec: { initialDelaySeconds: 5 }, container: { startedAt: 300 } }).will('S');
  // 4.999 s since start → int 4 < 5.
  rig.now = 5_299;
  assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'initial-delay' });
  rig.step();
  assert.equal(rig.probed.length, 0);
  // 5.000 s → probe.
  rig.now = 5_300;
  assert.equal(rig.worker.decide().kind, 'probe');
  rig.step();
  assert.deepEqual(rig.probed, ['c1']);

  // A worker that first runs long after the container started is not delayed again.
  const late = new Rig('liveness', { spec: { initialDelaySeconds: 5 }, container: { startedAt: 0 } }).will('S');
  late.now = 100_000;
  late.step();
  assert.equal(late.probed.length, 1);

  // A restarted container's delay counts from its own startedAt.
  late.newContainer('c2', 200_000);
  late.now = 204_999;
  assert.deepEqual(late.worker.decide(), { kind: 'keep-going', reason: 'initial-delay' });
  late.now = 205_000;
  assert.equal(late.worker.decide().kind, 'probe');
});

test('W5.8: the initial delay is checked before start gating', () => {
  const rig = new Rig('liveness', { spec: { initialDelaySeconds: 5 }, container: { started: false } });
  rig.now = 1_000;
  assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'initial-delay' });
  rig.now = 5_000;
  assert.deepEqual(rig.worker.decide(), { kind: 'keep-going', reason: 'not-started' });
});

test('W5.9: start gating both ways: started → startup skips, liveness/readiness probe; not started → the reverse', () => {
  for (const started of [true, false]) {
    for (const type of ['liveness', 'readiness', 'startup'] as const) {
      const rig = new Rig(type, { container: { started } }).will('S');
      const probes = (type === 'startup') !== started;
      const decision = rig.worker.decide();
      if (probes) assert.deepEqual(decision, { kind: 'probe', containerId: 'c1' }, `${type} started=${started}`);
      else assert.deepEqual(decision, { kind: 'keep-going', reason: started ? 'already-started' : 'not-started' }, `${type} started=${started}`);
      assert.equal(rig.step(), true);
      assert.equal(rig.probed.length, probes ? 1 : 0, `${type} started=${started}`);
    }
  }
});

// ---------------------------------------------------------------- W7, W8

test('W7: failureThreshold counts consecutive failures; one success resets the run', () => {
  const rig = new Rig('liveness', { spec: { failureThreshold: 3 } }).will('FFSFF');
  rig.steps(5);
  assert.equal(rig.value, 'Success');
  assert.deepEqual(rig.worker.state, { lastResult: 'Failure', resultRun: 2, onHold: false, containerId: 'c1' });
  rig.will('F');
  rig.step();
  assert.equal(rig.value, 'Failure');
  assert.deepEqual(rig.updates, ['c1=Success', 'c1=Failure']);
});

test('W7: successThreshold counts consecutive successes; one failure resets the run', () => {
  const rig = new Rig('readiness', { spec: { successThreshold: 3 } }).will('SSFSS');
  rig.steps(5);
  assert.equal(rig.value, 'Failure');
  assert.deepEqual(rig.updates, ['c1=Failure']);
  rig.will('S');
  rig.step();
  assert.equal(rig.value, 'Success');
  assert.deepEqual(rig.updates, ['c1=Failure', 'c1=Success']);
  // With successThreshold 3, a single failure after Success (failureThreshold 3) does not flip it.
  rig.will('FF');
  rig.steps(2);
  assert.equal(rig.value, 'Success');
});

test('W8: a thresholded result is published only when the cached value changes', () => {
  const rig = new Rig('readiness', { spec: { failureThreshold: 1, successThreshold: 1 } }).will('FFSSSFFFS');
  rig.steps(9);
  // Initial Failure; the first two failures change nothing; S, F, S flip it.
  assert.deepEqual(rig.updates, ['c1=Failure', 'c1=Success', 'c1=Failure', 'c1=Success']);
});

test('W8: the 4th, 5th… consecutive readiness failures publish nothing new', () => {
  const rig = new Rig('readiness', { spec: { failureThreshold: 3 } }).will('SFFFFFF');
  rig.steps(7);
  assert.deepEqual(rig.updates, ['c1=Failure', 'c1=Success', 'c1=Failure']);
  assert.equal(rig.worker.state.resultRun, 6);
});

// ---------------------------------------------------------------- W9

test('W9: liveness goes on hold after a thresholded Failure (run reset to 0), not after Success', () => {
  const rig = new Rig('liveness', { spec: { failureThreshold: 2 } }).will('SSFF');
  rig.steps(2);
  assert.equal(rig.worker.state.onHold, false, 'liveness Success does not hold');
  rig.steps(2);
  assert.deepEqual(rig.worker.state, { lastResult: 'Failure', resultRun: 0, onHold: true, containerId: 'c1' });
  rig.steps(5);
  assert.equal(rig.probed.length, 4, 'no probes while on hold');
});

test('W9: startup goes on hold after a thresholded Success and after a thresholded Failure', () => {
  const ok = new Rig('startup', { spec: { successThreshold: 1 } }).will('FS');
  ok.steps(4);
  assert.deepEqual(ok.worker.state, { lastResult: 'Success', resultRun: 0, onHold: true, containerId: 'c1' });
  assert.equal(ok.probed.length, 2);

  const failed = new Rig('startup', { spec: { failureThreshold: 2 } }).will('FF');
  failed.steps(4);
  assert.deepEqual(failed.worker.state, { lastResult: 'Failure', resultRun: 0, onHold: true, containerId: 'c1' });
  assert.equal(failed.probed.length, 2);
  assert.deepEqual(failed.updates, ['c1=Unknown', 'c1=Failure']);
});

test('W9: readiness is never on hold', () => {
  const rig = new Rig('readiness', { spec: { failureThreshold: 1 } }).will('FFSFSS');
  for (let i = 0; i < 6; i++) {
    rig.step();
    assert.equal(rig.worker.state.onHold, false);
  }
  assert.equal(rig.probed.length, 6);
});

// ---------------------------------------------------------------- W10

test('W10: the failure run survives a new container ID: k−1 failures, new container, the next failure trips the threshold', () => {
  const rig = new Rig('liveness', { spec: { failureThreshold: 3 } }).will('FF');
  rig.steps(2);
  assert.equal(rig.value, 'Success');
  // The container dies by itself and is replaced.
  rig.newContainer('c2', 30_000);
  rig.now = 30_000;
  rig.will('F');
  rig.step();
  assert.equal(rig.results.get('c2'), 'Failure', 'one failure on the new container trips failureThreshold 3');
  assert.deepEqual(rig.updates, ['c1=Success', 'c2=Success', 'c2=Failure']);
});

test('W10: after a thresholded liveness Failure the run is 0, so the replacement gets the full budget', () => {
  const rig = new Rig('liveness', { spec: { failureThreshold: 3 } }).will('FFF');
  rig.steps(3);
  assert.equal(rig.value, 'Failure');
  rig.now = 60_000;
  rig.newContainer('c2');
  rig.will('FF');
  rig.steps(2);
  assert.equal(rig.results.get('c2'), 'Success');
  rig.will('F');
  rig.step();
  assert.equal(rig.results.get('c2'), 'Failure');
});

test('W10: a readiness success run also survives a new container ID', () => {
  const rig = new Rig('readiness', { spec: { successThreshold: 2 } }).will('S');
  rig.step();
  rig.newContainer('c2');
  rig.will('S');
  rig.step();
  assert.equal(rig.results.get('c2'), 'Success');
});

// ---------------------------------------------------------------- W12

test('W12: while not started, a liveness probe that would fail has no effect (stays Success); readiness stays Failure', () => {
  for (const [type, initial] of [['liveness', 'Success'], ['readiness', 'Failure']] as const) {
    const rig = new Rig(type, { spec: { failureThreshold: 1 }, container: { started: false } }).will('FFFF');
    rig.steps(4);
    assert.equal(rig.probed.length, 0, type);
    assert.equal(rig.value, initial, type);
    assert.deepEqual(rig.updates, [`c1=${initial}`]);
  }
});

// ---------------------------------------------------------------- P5, W5.10

test('P5: an error verdict changes nothing: no counting, no cache change, the run is not broken', () => {
  const rig = new Rig('liveness', { spec: { failureThreshold: 1 } }).will('EEE');
  rig.steps(3);
  assert.equal(rig.probed.length, 3);
  assert.equal(rig.value, 'Success');
  assert.deepEqual(rig.worker.state, { resultRun: 0, onHold: false, containerId: 'c1' });
  assert.deepEqual(rig.updates, ['c1=Success']);

  // F E F F with failureThreshold 3: the error neither counts nor resets the run.
  const run = new Rig('liveness', { spec: { failureThreshold: 3 } }).will('FEF');
  run.steps(3);
  assert.equal(run.value, 'Success');
  assert.equal(run.worker.state.resultRun, 2);
  run.will('F');
  run.step();
  assert.equal(run.value, 'Failure');

  const readiness = new Rig('readiness', { spec: { successThreshold: 1 } }).will('SEEE');
  readiness.steps(4);
  assert.equal(readiness.value, 'Success', 'readiness keeps its last cached value');
});

// ---------------------------------------------------------------- W14

test('W14: cleanup removes the worker’s cached result without publishing', () => {
  const rig = new Rig('readiness').will('S');
  rig.step();
  assert.equal(rig.value, 'Success');
  rig.worker.cleanup();
  assert.equal(rig.results.get('c1'), undefined);
  assert.deepEqual(rig.updates, ['c1=Failure', 'c1=Success']);
});

// ---------------------------------------------------------------- R2

test('R2: ResultsCache publishes on a new key or a changed value only; remove publishes nothing', () => {
  const published: string[] = [];
  const cache = new ResultsCache('readiness', (u) => published.push(`${u.type} ${u.containerId}=${u.result}`));
  cache.set('a', 'Success');
  cache.set('a', 'Success');
  cache.set('b', 'Success');
  cache.set('a', 'Failure');
  cache.remove('a');
  assert.equal(cache.get('a'), undefined);
  cache.set('a', 'Failure');
  assert.deepEqual(published, ['readiness a=Success', 'readiness b=Success', 'readiness a=Failure', 'readiness a=Failure']);
});
