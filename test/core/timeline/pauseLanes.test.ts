import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { MARK_OUTCOMES, type MarkOutcome } from '../../../src/core/timeline/columns';
import { parseJsonLines, runHeader, toJsonLines } from '../../../src/core/timeline/jsonl';
import { blamedOnPause } from '../../../src/core/timeline/pauseLanes';
import { type PodLane, type ProbeLane, TimelineModel } from '../../../src/core/timeline/viewModel';
import { DEBUG_SESSION, PAUSE, pausedSession } from './pauseSession';

// Issue 12 §4 on the timeline's model: a debugger's `pause` lines become stretches on the pod's
// lane, and attempts with `paused: true` that failed are the pause's (counted apart, flagged in the
// attempt columns), while the kubelet's run counts them as it always does.

function modelOf(events: readonly EngineEvent[]): TimelineModel {
  const model = new TimelineModel();
  model.append(events);
  return model;
}

const pause = (t: number, state: 'paused' | 'continued', debugSession = 'api (launch)', pod = 'p'): EngineEvent => ({ type: 'pause', t, pod, state, debugSession });

test('pause lines: a stretch on the pod lane from paused to continued, named by its debug session; a pause while paused changes nothing; an open one reaches now', () => {
  const model = modelOf([
    { type: 'pod', t: 0, pod: 'p', ready: true },
    pause(10, 'paused'),
    pause(12, 'paused', 'another'),
    pause(20, 'continued'),
    pause(25, 'continued'),
    pause(40, 'paused', 'again'),
  ]);
  const lane = model.lane('pod:p') as PodLane;
  assert.deepEqual(
    lane.pauses.map((s) => `${s.start}–${s.end ?? 'now'} ${s.value}`),
    ['10–20 api (launch)', '40–now again'],
  );
  // Only the pod's lane: a pause makes no container or probe lane.
  assert.deepEqual([...model.lanes()].map((l) => l.id), ['pod:p']);
});

test('paused attempts: a failure or unknown while paused is the pause\'s (counted apart, flagged); a success or prober error is not; the run counts them all', () => {
  const base = { type: 'attempt', pod: 'p', container: 'c', probe: 'liveness', containerId: 'x', output: '', durationMs: 1 } as const;
  const model = modelOf([
    { ...base, t: 10, outcome: 'failure' },
    { ...base, t: 20, outcome: 'failure', paused: true },
    { ...base, t: 30, outcome: 'unknown', paused: true },
    { ...base, t: 40, outcome: 'unknown', error: 'dial error', paused: true },
    { ...base, t: 50, outcome: 'success', paused: true },
  ]);
  const lane = model.lane('probe:p/c/liveness') as ProbeLane;
  const a = lane.attempts;
  const rows = Array.from({ length: a.length }, (_, i) => `${a.t[i]} ${MARK_OUTCOMES[a.outcome[i] as number]} run ${a.run[i]} paused ${a.paused[i]}`);
  assert.deepEqual(rows, ['10 failure run 1 paused 0', '20 failure run 2 paused 1', '30 unknown run 3 paused 1', '40 error run 3 paused 1', '50 success run 1 paused 1']);
  assert.equal(lane.pausedFailures, 2);
  assert.deepEqual(lane.counts, { success: 1, warning: 0, failure: 2, unknown: 1, error: 1 });
});

test('blamedOnPause: only a failed verdict while paused', () => {
  const table: [MarkOutcome, boolean, boolean][] = [
    ['failure', true, true],
    ['unknown', true, true],
    ['success', true, false],
    ['warning', true, false],
    ['error', true, false],
    ['failure', false, false],
    ['unknown', false, false],
  ];
  for (const [outcome, paused, expected] of table) assert.equal(blamedOnPause(outcome, paused), expected, `${outcome} paused=${paused}`);
});

test('a session the breakpoint guard recorded: the pause on pod web, liveness 2/3 and readiness failed only while paused', () => {
  const model = modelOf(pausedSession());
  const pod = model.lane('pod:web') as PodLane;
  assert.deepEqual(pod.pauses.map((s) => [s.start, s.end, s.value]), [[PAUSE.from, PAUSE.to, DEBUG_SESSION]]);
  const liveness = model.lane('probe:web/web/liveness') as ProbeLane;
  const readiness = model.lane('probe:web/web/readiness') as ProbeLane;
  assert.equal(liveness.pausedFailures, liveness.counts.failure, 'every liveness failure was the pause\'s');
  assert.equal(readiness.pausedFailures, readiness.counts.failure);
  assert.equal(liveness.pausedFailures, 2);
  assert.ok(Math.max(...Array.from(liveness.attempts.run.subarray(0, liveness.attempts.length))) >= 2);
});

test('JSON Lines: pause lines and paused attempts round-trip; a pause line of another state is skipped and said', () => {
  const events = pausedSession(100);
  const text = toJsonLines(runHeader({ mode: 'run' }), events);
  const read = parseJsonLines(text);
  assert.equal(read.skipped, 0);
  assert.deepEqual(read.events, events);
  const bad = parseJsonLines(`${text}{"type":"pause","t":101,"pod":"web","state":"stepping","debugSession":"x"}\n`);
  assert.equal(bad.skipped, 1);
  assert.match(bad.problems[0]?.message ?? '', /state/);
});
