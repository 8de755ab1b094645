/**
 * The timeline panel's host side of issue 12, without VS Code: the selection's *why* as the host
 * answers it (`explainMoment`: the core's explanation, each cited line said with the lane it is
 * drawn on). The panel's messages run inside VS Code (test/extension/suite/timelineInsights.vstest.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runHeader } from '../../src/core/timeline/jsonl';
import { laneKeyOf } from '../../src/core/timeline/laneKeys';
import { explainMoment, type ExplainRequest } from '../../src/extension/timeline/explainMoment';
import { TIMELINE_PROTOCOL_VERSION } from '../../src/shared/protocol';
import { formatElapsed, formatWallClock } from '../../src/webview/timeline/words/format';
import { PAUSE, pausedSession } from '../core/timeline/pauseSession';

const EVENTS = pausedSession();
const HEADER = runHeader({ mode: 'run', target: 'local', kind: 'local', file: 'web.yaml' });
const VIRTUAL = { kind: 'virtual' } as const;
const ask = (t: number, over: Partial<ExplainRequest> = {}): ExplainRequest => ({ type: 'explain', protocol: TIMELINE_PROTOCOL_VERSION, request: 1, pod: 'web', container: 'web', t, ...over });

test('the why at a moment: from the lines up to then, each cited line with the lane it is drawn on', () => {
  const during = explainMoment({ header: HEADER, events: EVENTS }, ask(76), VIRTUAL);
  assert.ok('explanation' in during, JSON.stringify(during));
  const { explanation } = during;
  assert.equal(explanation.state, 'not-ready');
  assert.match(explanation.sentence, /^Not Ready since/);
  assert.match(explanation.sentence, /debugger/);
  const cited = explanation.causes.flatMap((c) => c.evidence);
  assert.ok(cited.length > 0);
  for (const e of cited) {
    assert.ok(e.t <= 76, `cites only lines up to the moment: ${e.t}`);
    const line = EVENTS.find((event) => event.t === e.t && event.type === e.type && laneKeyOf(event) === e.lane);
    assert.ok(line, `${e.type} at ${e.t} on ${e.lane} is a line of the recording`);
  }
  assert.ok(cited.some((e) => e.type === 'pause' && e.lane === 'pod:web' && e.t === PAUSE.from), 'the pause, on the pod\'s lane');
  // Before the pause, the same container is Ready; after it, Ready again.
  const before = explainMoment({ header: HEADER, events: EVENTS }, ask(50), VIRTUAL);
  assert.ok('explanation' in before && before.explanation.state === 'ready', JSON.stringify(before));
});

test('in a timeline of several runs, the lanes are the run\'s; a container the run has no lines of is a failure, said', () => {
  const replayed = explainMoment({ header: HEADER, events: EVENTS }, ask(76, { section: 'replayed' }), VIRTUAL);
  assert.ok('explanation' in replayed);
  for (const e of replayed.explanation.causes.flatMap((c) => c.evidence)) assert.match(e.lane, /^replayed\|(pod|container|probe):/);
  const missing = explainMoment({ header: HEADER, events: EVENTS }, ask(76, { container: 'sidecar' }), VIRTUAL);
  assert.deepEqual(missing, { failure: 'web/sidecar has no lines by then' });
});

test('the why says its times as the panel\'s axis does: elapsed on a virtual clock (not t+00:01:10), the time of day on the wall clock', () => {
  const virtual = explainMoment({ header: HEADER, events: EVENTS }, ask(76), VIRTUAL);
  assert.ok('explanation' in virtual);
  // The axis labels 70 s and 58 s so (`formatElapsed`).
  assert.deepEqual([formatElapsed(70), formatElapsed(60), formatElapsed(58)], ['1m10s', '1m', '58s']);
  assert.match(virtual.explanation.sentence, /^Not Ready since 1m10s: readiness failed 3 times in a row \(HTTP 503 at 1m, 1m5s, 1m10s; .*\. Paused in the debugger since 58s\.$/);
  assert.doesNotMatch(JSON.stringify(virtual.explanation), /t\+\d\d:/);

  const startedAtMs = Date.UTC(2026, 10, 24, 12, 0, 0, 400);
  const wall = explainMoment({ header: HEADER, events: EVENTS }, ask(76), { kind: 'wall', startedAtMs });
  assert.ok('explanation' in wall);
  // The wall clock's axis label of the second the readiness result turned Failure in.
  assert.ok(wall.explanation.sentence.startsWith(`Not Ready since ${formatWallClock(startedAtMs - 400 + 70_000)}: `), wall.explanation.sentence);
});
