/**
 * The breakpoint guard's countdown (src/core/pause/pauseCountdown.ts): when the kubelet would
 * restart a container whose app a debugger holds, on numbers named after the spec's rules (W3
 * ticks, W5.8 initial delay, W5.9/S1 start gating, W7/W9/W10 counting, K2 restarts, P3/P5
 * counted outcomes, T1 TCP), checked against the engine itself (a scenario app that hangs is a
 * paused app), and the words each case gets.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countedOutcome,
  noteAttempt,
  type PausedContainer,
  pauseCountdown,
  pauseCountdownDetail,
  pauseCountdownText,
  type ProbeTiming,
  restartingProbe,
  type SeenRun,
  thresholdTime,
  workerStarted,
} from '../../../src/core/pause/pauseCountdown';
import { countdownWords } from '../../../src/core/text/durations';
import { kubeletEventLines, only, simulated, webPod } from '../../helpers/engine';

const HTTP: ProbeTiming = { handler: 'httpGet', initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3 };

/** Attempts `[start, durationMs, outcome]` folded as a session sees them. */
function seenOf(attempts: readonly (readonly [number, number, 'success' | 'failure' | 'unknown' | 'warning' | 'error'])[], failureThreshold = 3): SeenRun | undefined {
  let run: SeenRun | undefined;
  for (const [start, ms, outcome] of attempts) {
    const line = { t: start + ms / 1000, durationMs: ms, outcome: outcome === 'error' ? 'failure' : outcome, ...(outcome === 'error' ? { error: 'invalid port' } : {}) } as const;
    run = noteAttempt(run, line, failureThreshold);
  }
  return run;
}

function container(partial: Partial<PausedContainer> = {}): PausedContainer {
  return { name: 'api', liveness: HTTP, startup: undefined, running: true, started: true, startedAt: 0, ...partial };
}

describe('counting (W7, W9, W10, P3, P5)', () => {
  test('P3: success and warning count as success, failure and unknown as failure; P5: a prober error is discarded', () => {
    assert.equal(countedOutcome({ outcome: 'success' }), 'success');
    assert.equal(countedOutcome({ outcome: 'warning' }), 'success');
    assert.equal(countedOutcome({ outcome: 'failure' }), 'failure');
    assert.equal(countedOutcome({ outcome: 'unknown' }), 'failure');
    assert.equal(countedOutcome({ outcome: 'failure', error: 'invalid port number: 0' }), 'discarded');
  });

  test('W7: failures count in a row; one success resets the run', () => {
    assert.equal(seenOf([[0, 5, 'failure'], [10, 5, 'failure']])?.failures, 2);
    assert.equal(seenOf([[0, 5, 'failure'], [10, 5, 'success'], [20, 5, 'failure']])?.failures, 1);
  });

  test('P5: a discarded attempt moves the phase but neither lengthens nor ends the run', () => {
    const run = seenOf([[0, 5, 'failure'], [10, 5, 'error']]);
    assert.deepEqual({ failures: run?.failures, lastStart: run?.lastStart, lastCounted: run?.lastCounted }, { failures: 1, lastStart: 10, lastCounted: 'failure' });
  });

  test('K2, W9: the run reaching failureThreshold is a restart at the end of that attempt, and counting starts afresh', () => {
    const run = seenOf([[0, 1000, 'failure'], [10, 1000, 'failure'], [20, 1000, 'failure'], [30, 1000, 'failure']]);
    assert.deepEqual(run?.thresholds, [21]);
    assert.equal(run?.failures, 1);
  });

  test('W3: an attempt line is stamped when it ends: the tick is t − durationMs', () => {
    const run = seenOf([[40, 250, 'success']]);
    assert.equal(run?.lastStart, 40);
    assert.equal(run?.lastEnd, 40.25);
  });
});

describe('which probe restarts it (S1, W5.9, K2)', () => {
  const startup: ProbeTiming = { ...HTTP, failureThreshold: 30 };
  test('S1, W5.9: before its startupProbe succeeded, the startupProbe\'s window applies (liveness does not run yet)', () => {
    assert.equal(restartingProbe({ liveness: HTTP, startup, started: false })?.probe, 'startup');
  });
  test('W11: once started, liveness', () => {
    assert.equal(restartingProbe({ liveness: HTTP, startup, started: true })?.probe, 'liveness');
  });
  test('K2: readiness never restarts: no liveness once started is nothing to count', () => {
    assert.equal(restartingProbe({ liveness: undefined, startup, started: true }), undefined);
    assert.equal(restartingProbe({ liveness: undefined, startup: undefined, started: true }), undefined);
  });
});

describe('when the threshold is reached (W3, W5.8)', () => {
  test('worst case: the kubelet ticks as the pause begins, so the f-th failure ends (f−1)·p + timeout later', () => {
    assert.equal(thresholdTime(HTTP, undefined, 100, 0), 100 + 2 * 10 + 1);
    assert.equal(thresholdTime({ ...HTTP, failureThreshold: 1 }, undefined, 100, 0), 101);
  });

  test('W3: seen ticks give the phase: the last success 0.5 s before the pause puts the failures at +9.5, +19.5, +29.5', () => {
    const seen = seenOf([[89.5, 5, 'success'], [99.5, 5, 'success']]);
    assert.equal(thresholdTime(HTTP, seen, 100, 0), 99.5 + 30 + 1);
  });

  test('W7: failures already counted before the pause shorten what is left', () => {
    const seen = seenOf([[80, 1000, 'failure'], [90, 1000, 'failure']]);
    assert.equal(thresholdTime(HTTP, seen, 95, 0), 100 + 1);
  });

  test('W3: an attempt begun just before the pause and not answered yet is held too', () => {
    // The tick at 99.8 is not seen at the pause (100): it waits on the held app, and fails at 100.8.
    const seen = seenOf([[89.8, 5, 'success']]);
    assert.equal(thresholdTime(HTTP, seen, 100, 0), 99.8 + 20 + 1);
  });

  test('W3: ticks the session did not see long before the pause did not probe (the worker skipped them)', () => {
    // Ticks every 10 s from 8.5: 98.5 would have ended (timed out) before the pause, unseen: skipped.
    const seen = seenOf([[8.5, 5, 'success']]);
    assert.equal(thresholdTime(HTTP, seen, 100, 0), 108.5 + 20 + 1);
  });

  test('W3: a timeout longer than the period runs the attempts back to back (ticks coalesce)', () => {
    const slow: ProbeTiming = { ...HTTP, periodSeconds: 2, timeoutSeconds: 5 };
    assert.equal(thresholdTime(slow, undefined, 100, 0), 100 + 3 * 5);
  });

  test('W5.8: no attempt before initialDelaySeconds after the container started', () => {
    const delayed: ProbeTiming = { ...HTTP, initialDelaySeconds: 30 };
    assert.equal(thresholdTime(delayed, undefined, 5, 0), 30 + 20 + 1);
    // Seen phase: ticks every 10 s from 3; the first at or after 30 is 33.
    assert.equal(thresholdTime(delayed, { lastStart: 3, lastEnd: 3, lastCounted: undefined, failures: 0, thresholds: [] }, 5, 0), 33 + 20 + 1);
  });
});

describe('the countdown (issue 12 §4)', () => {
  test('a restart ahead: time left, the basis, the window', () => {
    const countdown = pauseCountdown(container(), 100, 112);
    assert.equal(countdown.kind, 'restart');
    assert.equal(pauseCountdownText(countdown, 'markdown'), 'paused 12 s — in the cluster liveness would restart `api` in 9 s (3 × 10 s)');
    assert.match(pauseCountdownDetail(countdown), /^While paused, each attempt of the httpGet livenessProbe waits for the held process and times out after 1 s; after 3 failures in a row/);
    assert.match(pauseCountdownDetail(countdown), /Worst case: the kubelet's next tick comes the moment the pause begins, so the 3rd failure ends 2 × 10 s \+ 1 s after it\./);
  });

  test('plain for the status bar and a lens title (no backticks), Markdown for a tooltip (the name as code)', () => {
    const ahead = pauseCountdown(container(), 100, 112);
    assert.equal(pauseCountdownText(ahead, 'plain'), 'paused 12 s — in the cluster liveness would restart api in 9 s (3 × 10 s)');
    assert.equal(pauseCountdownText(ahead, 'markdown'), 'paused 12 s — in the cluster liveness would restart `api` in 9 s (3 × 10 s)');
    assert.equal(pauseCountdownText(pauseCountdown(container(), 100, 125), 'plain'), 'paused 25 s — in the cluster liveness would have restarted api 4 s ago (3 × 10 s)');
    assert.equal(pauseCountdownText(pauseCountdown(container({ liveness: undefined }), 100, 112), 'plain'), 'paused 12 s — api has no livenessProbe: the cluster would not restart it');
    const tcp = container({ liveness: { ...HTTP, handler: 'tcpSocket' } });
    assert.equal(pauseCountdownText(pauseCountdown(tcp, 100, 112), 'plain'), "paused 12 s — api's livenessProbe is a tcpSocket, which a paused process still accepts: the cluster would not restart it");
  });

  test('the issue\'s example: the last success just before the pause, 12 s in: 18 s left of 3 × 10 s', () => {
    const seen = { liveness: seenOf([[99.8, 200, 'success']]) as SeenRun };
    const countdown = pauseCountdown(container({ seen }), 100, 112);
    assert.equal(pauseCountdownText(countdown, 'markdown'), 'paused 12 s — in the cluster liveness would restart `api` in 19 s (3 × 10 s)');
    assert.equal(countdown.kind === 'restart' && countdown.restartAt, 99.8 + 30 + 1);
    assert.match(pauseCountdownDetail(countdown), /Counted on this session's own ticks \(every 10 s\)\.$/);
  });

  test('K2: past the window, "would have restarted … ago"; the restart the session saw decided wins', () => {
    assert.equal(pauseCountdownText(pauseCountdown(container(), 100, 125), 'markdown'), 'paused 25 s — in the cluster liveness would have restarted `api` 4 s ago (3 × 10 s)');
    assert.equal(pauseCountdownText(pauseCountdown(container(), 100, 121.4), 'markdown'), 'paused 21 s — in the cluster liveness would have restarted `api` just now (3 × 10 s)');
    const seen = { liveness: seenOf([[90, 5, 'success'], [100, 1000, 'failure'], [110, 1000, 'failure'], [120, 1000, 'failure']]) as SeenRun };
    const countdown = pauseCountdown(container({ seen }), 99.9, 125);
    assert.equal(countdown.kind === 'restart' && countdown.restartAt, 121);
  });

  test('the time left reaches 0 at the restart (rounded up), the time paused counts whole seconds', () => {
    assert.match(pauseCountdownText(pauseCountdown(container(), 100, 120.2), 'markdown'), /paused 20 s — .* in 1 s /);
    assert.match(pauseCountdownText(pauseCountdown(container(), 100, 101), 'markdown'), /paused 1 s — .* in 20 s /);
  });

  test('no livenessProbe: nothing scary', () => {
    assert.equal(pauseCountdownText(pauseCountdown(container({ liveness: undefined }), 100, 112), 'markdown'), 'paused 12 s — `api` has no livenessProbe: the cluster would not restart it');
  });

  test('S1: not started yet, the startupProbe\'s window applies, with the failures it already counted', () => {
    const startup: ProbeTiming = { ...HTTP, failureThreshold: 30 };
    const seen = { startup: seenOf(Array.from({ length: 10 }, (_, i) => [i * 10, 3, 'failure'] as const), 30) as SeenRun };
    const countdown = pauseCountdown(container({ startup, started: false, seen }), 95, 100);
    assert.equal(countdown.kind === 'restart' && countdown.failuresBefore, 10);
    // 20 more failures: ticks 100 … 290, the last ends at 291.
    assert.equal(pauseCountdownText(countdown, 'markdown'), 'paused 5 s — in the cluster the startupProbe would restart `api` in 3 min 11 s (30 × 10 s)');
    assert.match(pauseCountdownDetail(countdown), /after the 10 failures it had already counted\.$/);
  });

  test('T1: a tcpSocket liveness probe holds (the kernel accepts for a paused process)', () => {
    const tcp = container({ liveness: { ...HTTP, handler: 'tcpSocket' } });
    assert.equal(pauseCountdownText(pauseCountdown(tcp, 100, 112), 'markdown'), "paused 12 s — `api`'s livenessProbe is a tcpSocket, which a paused process still accepts: the cluster would not restart it");
  });

  test('what the session saw during the pause wins over the handler: a success holds, a failure counts', () => {
    const holding = { liveness: seenOf([[95, 5, 'success'], [105, 5, 'success']]) as SeenRun };
    assert.equal(pauseCountdownText(pauseCountdown(container({ seen: holding }), 100, 112), 'markdown'), "paused 12 s — `api`'s livenessProbe still succeeds while paused: the cluster would not restart it");
    const failing = { liveness: seenOf([[95, 5, 'success'], [105, 1000, 'failure']]) as SeenRun };
    const tcp = container({ liveness: { ...HTTP, handler: 'tcpSocket' }, seen: failing });
    assert.equal(pauseCountdown(tcp, 100, 112).kind, 'restart');
  });

  test('an exec probe is assumed to need the app (the worst case), and says so', () => {
    const countdown = pauseCountdown(container({ liveness: { ...HTTP, handler: 'exec' } }), 100, 112);
    assert.equal(countdown.kind, 'restart');
    assert.match(pauseCountdownDetail(countdown), /exec livenessProbe is assumed to need the held process/);
  });

  test('a container not running has nothing to count down', () => {
    assert.equal(pauseCountdownText(pauseCountdown(container({ running: false }), 100, 101), 'markdown'), 'paused 1 s — `api` is not running');
  });

  test('durations in words', () => {
    assert.deepEqual([0, 12, 59.6, 60, 125, 3600].map((s) => countdownWords(s)), ['0 s', '12 s', '1 min', '1 min', '2 min 5 s', '60 min']);
  });
});

/** The engine's run of `web` under a scenario whose app hangs: when it started, its liveness worker and timing, and its liveness Killing. */
function engineHang(probe: string, scenarioText: string, seed?: number) {
  const events = simulated(webPod(probe), scenarioText, 200, seed);
  const started = only(events, 'container', 'web').find((e) => e.state === 'running')?.t ?? 0;
  const worker = only(events, 'worker', 'web').find((e) => e.probe === 'liveness');
  assert.ok(worker);
  const timing: ProbeTiming = { handler: 'httpGet', initialDelaySeconds: worker.initialDelaySeconds, periodSeconds: worker.periodSeconds, timeoutSeconds: worker.timeoutSeconds, failureThreshold: worker.failureThreshold };
  const kill = Number(kubeletEventLines(events, 'Killing')[0]?.split(' ')[0]);
  assert.ok(Number.isFinite(kill), 'the engine killed the container');
  return { events, started, worker, timing, kill };
}

/**
 * The engine is the reference: a scenario app that hangs from `failAfter` on (every probe times
 * out) is what a debugger's pause does to it. Folding the attempts seen just after the hang
 * began must give the time of the engine's own liveness Killing, whatever the phase.
 */
describe('against the engine: a hang is a pause', () => {
  const cases = [
    { name: 'period 10, threshold 3', probe: 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}', failAfter: 47.3 },
    { name: 'period 5, timeout 2, threshold 4', probe: 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5, timeoutSeconds: 2, failureThreshold: 4}', failAfter: 61.7 },
    { name: 'timeout above the period (W3 coalescing)', probe: 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 2, timeoutSeconds: 3, failureThreshold: 3}', failAfter: 30.5 },
    { name: 'threshold 1', probe: 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 7, failureThreshold: 1}', failAfter: 40.2 },
  ];
  for (const { name, probe, failAfter } of cases) {
    for (const seed of [1, 2, 3]) {
      test(`W3, W7, K2: ${name}, jitter seed ${seed}: the seen ticks give the engine's kill time; the worst case is never later`, () => {
        // kubeletStartedAgo 0: start-up jitter (W4) puts the ticks at a random phase.
        const { events, started, timing, kill } = engineHang(probe, `kubelet: {startedAgo: 0}\ncontainers: {web: {readyAfter: 0, failAfter: ${failAfter}, latency: 0.01}}`, seed);
        const pausedAt = started + failAfter;
        let seen: SeenRun | undefined;
        for (const a of only(events, 'attempt', 'web')) if (a.probe === 'liveness' && a.t <= pausedAt + 0.1) seen = noteAttempt(seen, a, timing.failureThreshold);
        assert.ok(Math.abs(thresholdTime(timing, seen, pausedAt, started) - kill) < 1e-6, `seen: ${thresholdTime(timing, seen, pausedAt, started)} vs the engine's ${kill}`);
        assert.ok(thresholdTime(timing, undefined, pausedAt, started) <= kill + 1e-6, 'the worst case is the earliest');
      });
    }
  }
});

describe('against the engine: a pause before the first attempt', () => {
  test('W3: the worker line gives the ticks: its first (at its start, before the container) skipped, the kill comes on the next ones', () => {
    // The kubelet has been up long (no W4 jitter): the worker ticks from its start, and that first tick finds no container yet.
    const { events, started, worker, timing, kill } = engineHang('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}', 'containers: {web: {readyAfter: 0, failAfter: 3.3, latency: 0.01}}');
    const pausedAt = started + 3.3;
    assert.deepEqual(only(events, 'attempt', 'web').filter((a) => a.t <= pausedAt), [], 'no attempt before the pause');
    assert.equal(thresholdTime(timing, workerStarted(worker.t, worker.periodSeconds), pausedAt, started), kill);
    assert.ok(thresholdTime(timing, undefined, pausedAt, started) < kill, 'the worst case is earlier');
  });
});

describe('steps between pauses', () => {
  test('W7: a step lets the program run too briefly for a probe: the count and the time paused go on from the first pause', () => {
    // Paused at 100, stepped at 110 (paused again at 110.01): the worst case still counts from 100.
    const countdown = pauseCountdown(container(), 110.01, 115, 100);
    assert.equal(pauseCountdownText(countdown, 'markdown'), 'paused 15 s — in the cluster liveness would restart `api` in 6 s (3 × 10 s)');
  });

  test('W7: a probe the program answered during a step ends the run: the count starts again from there', () => {
    // Failures at 100 and 110 (held), the tick at 120 answered during a step at 120.5, paused again at 120.6.
    const seen = { liveness: seenOf([[90, 5, 'success'], [100, 1000, 'failure'], [110, 1000, 'failure'], [120, 600, 'success']]) as SeenRun };
    const countdown = pauseCountdown(container({ seen }), 120.6, 125, 99.9);
    assert.equal(countdown.kind === 'restart' && countdown.restartAt, 130 + 20 + 1);
  });
});
