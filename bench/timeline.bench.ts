/**
 * The timeline's view model (issue 9): building lanes, bands and marks for 100 000 events.
 * Goal: ≤ 50 ms in node. Baseline, in the same run: routing each event to its lane (`laneKeyOf`
 * into per-lane arrays) — the floor of any per-lane model — so the ratio says what the bands,
 * marks and run counts cost on top. Also: parsing the same events from JSON Lines (what loading a
 * recording costs before the model), and the bounded store's push rate at its default cap.
 */
import type { EngineEvent } from '../src/core/engine/events';
import { parseManifest } from '../src/core/manifest';
import { parseScenario } from '../src/core/scenario/parse';
import { simulate } from '../src/core/targets/simulation';
import { parseJsonLines, runHeader, toJsonLines } from '../src/core/timeline/jsonl';
import { laneKeyOf } from '../src/core/timeline/laneKeys';
import { DEFAULT_TIMELINE_CAPACITY, TimelineStore } from '../src/core/timeline/store';
import { TimelineModel } from '../src/core/timeline/viewModel';
import { podsManifest } from './pods';
import { median } from './stats';

const EVENTS = 100_000;
const GOAL_MS = 50;
const RUNS = 15;

export function runTimelineBenchmark(log: (line: string) => void): void {
  const events = recording(EVENTS);
  const kinds = new Map<string, number>();
  for (const e of events) kinds.set(e.type, (kinds.get(e.type) ?? 0) + 1);
  log(`timeline — view model of ${fmt(events.length)} events from a simulation (${[...kinds].map(([k, n]) => `${fmt(n)} ${k}`).join(', ')})`);

  const floor = timed(() => {
    const lanes = new Map<string, EngineEvent[]>();
    for (const event of events) {
      const key = laneKeyOf(event);
      const lane = lanes.get(key);
      if (lane) lane.push(event);
      else lanes.set(key, [event]);
    }
    return lanes.size;
  });
  log(`  baseline: route each event to its lane: median ${floor.toFixed(1)} ms`);
  let lanes = 0;
  const build = timed(() => {
    const model = new TimelineModel();
    model.append(events);
    lanes = [...model.lanes()].length;
    return lanes;
  });
  log(`  view model: ${lanes} lanes, median ${build.toFixed(1)} ms over ${RUNS} builds (ratio to baseline ${(build / floor).toFixed(1)}×)`);
  const text = toJsonLines(runHeader({ mode: 'simulate' }), events);
  const parse = timed(() => parseJsonLines(text).events.length);
  log(`  for scale: parsing the same ${(text.length / 1e6).toFixed(1)} MB of JSON Lines: median ${parse.toFixed(1)} ms`);
  const pushes = 1_000_000;
  const many = Array.from({ length: pushes }, (_, i) => events[i % events.length] as EngineEvent);
  const push = timed(() => {
    const store = new TimelineStore(DEFAULT_TIMELINE_CAPACITY);
    for (const event of many) store.push(event);
    return store.size;
  }, 3);
  log(`  store: ${fmt(pushes)} pushes at its default cap of ${fmt(DEFAULT_TIMELINE_CAPACITY)}: median ${push.toFixed(0)} ms (${fmt(pushes / (push / 1000))} events/s)`);
  log(`  goal view model ≤ ${GOAL_MS} ms at ${fmt(EVENTS)} events: ${build <= GOAL_MS ? 'PASS' : 'FAIL'}`);
}

/** 40 pods × 3 probes whose apps start slowly, hang after 10 min and are restarted: every kind of lane content. */
function recording(count: number): EngineEvent[] {
  const manifest = parseManifest(
    podsManifest(40, () => `      startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 5, failureThreshold: 12}
      readinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}
      livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}`),
  );
  const scenario = parseScenario('containers: {app: {readyAfter: 40, failAfter: 600}}');
  if (!scenario.ok) throw new Error(scenario.error);
  const events: EngineEvent[] = [];
  simulate(manifest, { scenario: scenario.scenario, durationSeconds: 24 * 3600, seed: 1, emit: (e) => events.length < count && events.push(e) });
  return events;
}

function timed(work: () => unknown, runs = RUNS): number {
  work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return median(times);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
