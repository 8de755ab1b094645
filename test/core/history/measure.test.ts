/**
 * What a recording measures per probe (src/core/history/measure.ts, issue 12 §2): latency of the
 * answered attempts (p50, p99, max), timeouts, the time from each instance's start to its first
 * success, failure bursts after start-up and whether a kill cut them short — over real engine runs
 * on a virtual clock (scenarios with `latency`, per-probe `attempts` and timed overrides), and
 * over hand-made local recordings, where kills are only reported and the app runs on.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { buildHistory } from '../../../src/core/history/history';
import { percentile } from '../../../src/core/history/latency';
import { manifestPodNames, measureRecording, type ProbeMeasurement } from '../../../src/core/history/measure';
import type { ProbeType } from '../../../src/core/manifest';
import { type RunHeader, runHeader } from '../../../src/core/timeline/jsonl';
import { simulated, webPod } from '../../helpers/engine';
import { every, localRecording } from '../../helpers/localRecording';

const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}';
const READINESS = 'readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}';

function measured(events: readonly EngineEvent[], probe: ProbeType, header: RunHeader = runHeader({ mode: 'simulate' })): ProbeMeasurement {
  const found = measureRecording(buildHistory(header, events)).find((m) => m.probe === probe);
  assert.ok(found, `${probe} is measured`);
  return found;
}

function attempts(events: readonly EngineEvent[], probe: ProbeType) {
  return events.filter((e): e is Extract<EngineEvent, { type: 'attempt' }> => e.type === 'attempt' && e.probe === probe);
}

describe('latency of the answered attempts', () => {
  test('scenario latency 0.3 s: p50 = p99 = max = 300 ms, every attempt answered, no timeout', () => {
    const events = simulated(webPod(`${LIVENESS}\n${READINESS}`), 'containers: {web: {readyAfter: 0, latency: 0.3}}', 600);
    for (const probe of ['liveness', 'readiness'] as const) {
      const m = measured(events, probe);
      assert.deepEqual(m.latency, { answered: attempts(events, probe).length, p50Ms: 300, p99Ms: 300, maxMs: 300 });
      assert.equal(m.timeouts, 0);
      assert.equal(m.attempts, attempts(events, probe).length);
    }
  });

  test('P4: latency above timeoutSeconds — every attempt is a timeout, none an answer', () => {
    const events = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0, latency: 2}}', 120);
    const m = measured(events, 'readiness');
    assert.equal(m.latency, undefined);
    assert.equal(m.timeouts, attempts(events, 'readiness').length);
    assert.ok(m.timeouts >= 20);
  });

  test('nearest-rank percentiles of varied answers (a local recording: 99 fast, 1 slow)', () => {
    const { header, events } = localRecording({ steps: every(10, 0, Array(100).fill('success'), (i) => (i === 57 ? 900 : 10 + (i % 10))) });
    const m = measured(events, 'liveness', header);
    assert.equal(m.latency?.answered, 100);
    assert.equal(m.latency?.p50Ms, 14);
    assert.equal(m.latency?.p99Ms, 19, 'the 99th of 100 is the slowest of the fast ones');
    assert.equal(m.latency?.maxMs, 900);
    assert.equal(percentile([1, 2, 3, 4], 50), 2);
    assert.equal(percentile([1, 2, 3, 4], 99), 4);
  });

  test('P5: prober errors (an undeclared named port) are counted apart and are no answer', () => {
    const events = simulated(webPod('readinessProbe: {httpGet: {path: /ready, port: metrics}, periodSeconds: 5}'), 'containers: {web: {readyAfter: 0}}', 60);
    const m = measured(events, 'readiness');
    assert.ok(m.proberErrors > 0);
    assert.equal(m.proberErrors, m.attempts);
    assert.equal(m.latency, undefined);
    assert.deepEqual(m.bursts, []);
  });
});

describe('start-up: from each instance start to its first success', () => {
  test('readyAfter 25: every probe first succeeds at its first tick past 25 s after the instance started', () => {
    const events = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 25}}', 300);
    const readiness = measured(events, 'readiness');
    assert.equal(readiness.startup.length, 1);
    const first = attempts(events, 'readiness').find((a) => a.outcome === 'success');
    assert.equal(readiness.startup[0]?.seconds, first?.t);
    assert.ok((readiness.startup[0]?.seconds ?? 0) >= 25 && (readiness.startup[0]?.seconds ?? 0) < 30);
    assert.equal(readiness.startup[0]?.firstAttemptSucceeded, false);
  });

  test('K2: instances liveness kills before they answer have no start-up, end by liveness, and were watched until terminated', () => {
    const events = simulated(webPod(LIVENESS), 'containers: {web: {readyAfter: 1000, stopAfter: 1}}', 300);
    const m = measured(events, 'liveness');
    assert.ok(m.instances >= 3);
    const killed = m.startup.slice(0, -1);
    for (const s of killed) {
      assert.equal(s.seconds, undefined);
      assert.equal(s.endedBy, 'liveness');
      assert.ok(s.watchedSeconds >= 30 && s.watchedSeconds <= 32, `${s.watchedSeconds}`);
    }
    assert.equal(m.startup.length, m.instances, 'one per instance');
  });

  test('with a startupProbe, liveness first succeeds only after startup has (W9)', () => {
    const events = simulated(webPod(`startupProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5, failureThreshold: 30}\n${LIVENESS}`), 'containers: {web: {readyAfter: 42}}', 200);
    const startup = measured(events, 'startup').startup[0]?.seconds ?? 0;
    const liveness = measured(events, 'liveness').startup[0]?.seconds ?? 0;
    assert.ok(startup >= 42 && startup < 47, `startup ${startup}`);
    assert.ok(liveness > startup, `liveness ${liveness} after startup ${startup}`);
  });

  test('a local recording: start-up counts from the first instance, across a reported kill (the app ran on)', () => {
    const { header, events } = localRecording({
      steps: [...every(10, 10, ['failure', 'failure', 'failure']), { at: 30.01, kill: 'liveness' }, ...every(10, 70, ['success', 'success'])],
    });
    const m = measured(events, 'liveness', header);
    assert.equal(m.kills, 'reported');
    assert.equal(m.instances, 2);
    assert.equal(m.startup.length, 1, 'one app, one start-up');
    assert.equal(m.startup[0]?.containerId, 'local://web/web/0');
    assert.equal(m.startup[0]?.seconds, 70.005);
  });

  test('a local app that answered the very first attempt: its start-up was before the recording', () => {
    const { header, events } = localRecording({ steps: every(10, 10, ['success', 'success']) });
    assert.equal(measured(events, 'liveness', header).startup[0]?.firstAttemptSucceeded, true);
  });
});

describe('failure bursts after start-up', () => {
  test('per-attempt script: 2 then 3 failures between successes — lengths in periods, both known', () => {
    const script = 'containers: {web: {readyAfter: 0, probes: {liveness: {attempts: [success, failure, failure, success, failure, failure, failure, success]}}}}';
    const events = simulated(webPod(LIVENESS.replace('failureThreshold: 3', 'failureThreshold: 5')), script, 200);
    const m = measured(events, 'liveness');
    assert.deepEqual(
      m.bursts.map((b) => [b.failures, b.seconds, b.end, b.lengthKnown, b.killed]),
      [
        [2, 20, 'success', true, false],
        [3, 30, 'success', true, false],
      ],
    );
    assert.equal(m.longestBurst?.failures, 3);
    assert.equal(m.failuresAfterStart, 5);
    assert.equal(m.attemptsAfterStart, attempts(events, 'liveness').length - 1);
  });

  test('timed script: readiness fails from 100 s to 160 s — one burst over 60 s: 12 ticks and the W13 trigger when it turns not ready', () => {
    const script = 'containers: {web: {readyAfter: 0, probes: {readiness: [{from: 0, outcome: success}, {from: 100, outcome: failure}, {from: 160, outcome: success}]}}}';
    const m = measured(simulated(webPod(READINESS), script, 300), 'readiness');
    assert.equal(m.bursts.length, 1);
    assert.deepEqual([m.bursts[0]?.failures, m.bursts[0]?.seconds, m.bursts[0]?.end], [13, 60, 'success']);
  });

  test('K2: a hang (failAfter) is cut short by the liveness kill — length unknown, killed', () => {
    const events = simulated(webPod(LIVENESS), 'containers: {web: {readyAfter: 0, failAfter: 60, stopAfter: 1}}', 200);
    const m = measured(events, 'liveness');
    const first = m.bursts[0];
    assert.ok(first);
    assert.deepEqual([first.failures, first.end, first.lengthKnown, first.killed], [3, 'kill', false, true]);
    assert.ok(m.timeouts >= 3, 'the hang is timeouts');
  });

  test('readiness failures cut short by liveness killing the instance end as instance-end, not kill', () => {
    const events = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 0, failAfter: 60, stopAfter: 1}}', 120);
    assert.equal(measured(events, 'readiness').bursts[0]?.end, 'instance-end');
  });

  test('a local recording: a reported kill ends what is known of a burst (no attempt while the grace period runs)', () => {
    const { header, events } = localRecording({
      steps: [...every(10, 0, ['success', 'failure', 'failure', 'failure']), { at: 30.01, kill: 'liveness' }, ...every(10, 70, ['success', 'failure', 'success'])],
    });
    const m = measured(events, 'liveness', header);
    assert.deepEqual(
      m.bursts.map((b) => [b.failures, b.end, b.lengthKnown, b.killed]),
      [
        [3, 'kill', false, true],
        [1, 'success', true, false],
      ],
    );
  });

  test('the recording ends during a burst: its length is unknown', () => {
    const { header, events } = localRecording({ steps: every(10, 0, ['success', 'failure', 'failure']) });
    const burst = measured(events, 'liveness', header).bursts[0];
    assert.deepEqual([burst?.end, burst?.lengthKnown, burst?.seconds], ['recording-end', false, 10.005]);
  });
});

describe('a debugger pause (issue 12 §4): its attempts say nothing of the app', () => {
  test('attempts marked paused, or inside a pause span, are left out of latency and end a burst', () => {
    const { header, events } = localRecording({
      steps: [
        ...every(10, 0, ['success', 'failure']),
        { at: 15, pause: 'paused' },
        { at: 20, outcome: 'timeout', paused: true },
        { at: 30, outcome: 'timeout' },
        { at: 35, pause: 'continued' },
        ...every(10, 40, ['success', 'success']),
      ],
    });
    const m = measured(events, 'liveness', header);
    assert.equal(m.paused, 2, 'the marked attempt and the one inside the span');
    assert.equal(m.timeouts, 0, 'a paused timeout is the pause\'s');
    assert.equal(m.latency?.answered, 4);
    assert.deepEqual(
      m.bursts.map((b) => [b.failures, b.end, b.seconds]),
      [[1, 'pause', 10]],
    );
  });

  test('a start-up a debugger paused is marked so', () => {
    const { header, events } = localRecording({ steps: [{ at: 1, pause: 'paused' }, { at: 40, pause: 'continued' }, ...every(10, 10, ['failure', 'failure', 'failure', 'failure', 'success'])] });
    assert.equal(measured(events, 'liveness', header).startup[0]?.paused, true);
  });
});

test('how much data: attempts, span, instances; and a cluster run with --all-pods names its manifest pod', () => {
  const events = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0}}', 100);
  const m = measured(events, 'readiness');
  const all = attempts(events, 'readiness');
  assert.equal(m.attempts, all.length);
  assert.deepEqual(m.span, { from: (all[0]?.t ?? 0) - (all[0]?.durationMs ?? 0) / 1000, to: all.at(-1)?.t });
  assert.equal(m.instances, 1);
  const target: EngineEvent = { type: 'target', t: 0, pod: 'web-7d4f9-abcde', manifestPod: 'web', clusterPod: 'web-7d4f9-abcde', namespace: 'default' };
  assert.deepEqual([...manifestPodNames([target, ...events])], [['web-7d4f9-abcde', 'web']]);
});
