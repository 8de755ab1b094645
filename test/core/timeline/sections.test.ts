import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { type ModelSection, SectionCursor, sectionLaneKey } from '../../../src/core/timeline/sections';
import { type PodLane, type ProbeLane, TimelineModel } from '../../../src/core/timeline/viewModel';
import { simulated, webPod } from '../../helpers/engine';

// Issue 12 §3: a recording and its replay one above the other. One model holds both runs, each
// event in the run its position says, each run's lanes apart (ids prefixed with its name).

const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}';
const STARTUP = 'startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 12}';
const SLOW = 'containers: {web: {readyAfter: 45}}';

const sections = (recorded: number, replayed: number): ModelSection[] => [
  { name: 'recorded', title: 'recorded', events: recorded },
  { name: 'replayed', title: 'replayed with the edited manifest', events: replayed },
];

test('SectionCursor: each event count to its section, empty sections skipped, the last section taking any beyond', () => {
  const cursor = new SectionCursor([
    { name: 'a', title: 'a', events: 2 },
    { name: 'empty', title: 'empty', events: 0 },
    { name: 'b', title: 'b', events: 1 },
  ]);
  assert.deepEqual([0, 1, 2, 3, 4].map((n) => cursor.sectionOf(n)?.name), ['a', 'a', 'b', 'b', 'b']);
  assert.equal(new SectionCursor([{ name: 'none', title: '', events: 0 }]).sectionOf(0)?.name, 'none');
  assert.equal(sectionLaneKey(undefined, 'pod:web'), 'pod:web');
  assert.equal(sectionLaneKey('replayed', 'pod:web'), 'replayed|pod:web');
});

test('two runs of one pod: each run\'s lanes apart and in its order, restarts in the recording only, probes under their own container', () => {
  const recorded = simulated(webPod(LIVENESS), SLOW, 240);
  const replayed = simulated(webPod(`${STARTUP}\n${LIVENESS}`), SLOW, 240);
  const model = new TimelineModel(sections(recorded.length, replayed.length));
  // In pieces, as a large load arrives: the boundary falls inside a piece.
  const all = [...recorded, ...replayed];
  const cut = recorded.length - 7;
  model.append(all.slice(0, cut));
  model.append(all.slice(cut));
  assert.deepEqual(
    [...model.lanes()].map((l) => `${l.id} ${l.section}`),
    [
      'recorded|pod:web recorded',
      'recorded|container:web/web recorded',
      'recorded|probe:web/web/liveness recorded',
      'replayed|pod:web replayed',
      'replayed|container:web/web replayed',
      'replayed|probe:web/web/startup replayed',
      'replayed|probe:web/web/liveness replayed',
    ],
  );
  const restarts = (section: string) => (model.lane(`${section}|container:web/web`) as { restarts: unknown[] }).restarts.length;
  assert.ok(restarts('recorded') >= 2, 'killed during the slow start');
  assert.equal(restarts('replayed'), 0, 'the startupProbe covers it');
  const probe = model.lane('replayed|probe:web/web/liveness') as ProbeLane;
  assert.equal(model.containerOf(probe)?.id, 'replayed|container:web/web');
  // Marks point into the one list of events: the replay's are after the recording's.
  assert.ok((probe.attempts.source[0] as number) >= recorded.length);
  assert.equal(model.events.length, all.length);
});

test('a model without sections is the usual one: ids unprefixed, no section on its lanes', () => {
  const model = new TimelineModel();
  model.append(simulated(webPod(LIVENESS), '', 30));
  for (const lane of model.lanes()) {
    assert.doesNotMatch(lane.id, /\|/);
    assert.equal('section' in lane, false);
  }
});

test('per run, its own open stretches: a tunnel down in one run is not closed by the other\'s', () => {
  const tunnel = (t: number, state: 'up' | 'down'): EngineEvent => ({ type: 'tunnel', t, pod: 'p', state, local: '127.0.0.1:4000', remote: '8080' });
  const model = new TimelineModel(sections(1, 2));
  model.append([tunnel(5, 'down'), tunnel(1, 'down'), tunnel(3, 'up')]);
  assert.deepEqual((model.lane('recorded|pod:p') as PodLane).tunnelsDown.map((s) => [s.start, s.end]), [[5, undefined]]);
  assert.deepEqual((model.lane('replayed|pod:p') as PodLane).tunnelsDown.map((s) => [s.start, s.end]), [[1, 3]]);
});
