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
import { PAUSE, pausedSession } from '../core/timeline/pauseSession';

const EVENTS = pausedSession();
const HEADER = runHeader({ mode: 'run', target: 'local', kind: 'local', file: 'web.yaml' });
const ask = (t: number, over: Partial<ExplainRequest> = {}): ExplainRequest => ({ type: 'explain', protocol: TIMELINE_PROTOCOL_VERSION, request: 1, pod: 'web', container: 'web', t, ...over });

test('the why at a moment: from the lines up to then, each cited line with the lane it is drawn on', () => {
  const during = explainMoment({ header: HEADER, events: EVENTS }, ask(76));
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
  const before = explainMoment({ header: HEADER, events: EVENTS }, ask(50));
  assert.ok('explanation' in before && before.explanation.state === 'ready', JSON.stringify(before));
});

test('in a timeline of several runs, the lanes are the run\'s; a container the run has no lines of is a failure, said', () => {
  const replayed = explainMoment({ header: HEADER, events: EVENTS }, ask(76, { section: 'replayed' }));
  assert.ok('explanation' in replayed);
  for (const e of replayed.explanation.causes.flatMap((c) => c.evidence)) assert.match(e.lane, /^replayed\|(pod|container|probe):/);
  const missing = explainMoment({ header: HEADER, events: EVENTS }, ask(76, { container: 'sidecar' }));
  assert.deepEqual(missing, { failure: 'web/sidecar has no lines by then' });
});
