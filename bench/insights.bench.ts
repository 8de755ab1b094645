/**
 * The insights on a big recording (issue 12): a 24 h simulated recording of 100 pods — time to
 * extract its scenario, explain every container, and replay it against an edited manifest.
 * Baseline, in the same run: parsing the recording from JSON Lines (`parseJsonLines`), what any
 * reader of the file pays before it can say anything, so each ratio says what the insight costs
 * on top of reading the file once.
 */
import type { EngineEvent } from '../src/core/engine/events';
import { explainRecording } from '../src/core/explain/explain';
import { extractScenario } from '../src/core/replay/extractScenario';
import { buildHistory } from '../src/core/history/history';
import { replayRecording } from '../src/core/replay/replay';
import { timeFormatFor } from '../src/core/history/timeFormat';
import { parseManifest } from '../src/core/manifest';
import { parseScenario } from '../src/core/scenario/parse';
import { simulate } from '../src/core/targets/simulation';
import { parseJsonLines, runHeader, toJsonLines } from '../src/core/timeline/jsonl';
import { podsManifest } from './pods';

const PODS = 100;
const HOURS = 24;

/**
 * An app worth explaining: up after 25 s, a readiness outage for 100 s each hour, and a crash
 * every 8 h 20 min (so restarts and back-off too).
 */
const SCENARIO = `containers:
  app:
    readyAfter: 25
    exitAfter: 30000
    latency: 0.05
    probes:
      readiness: [{from: 0, outcome: failure}, {from: 25, outcome: success}, {from: 3600, outcome: failure}, {from: 3700, outcome: success}, {from: 7200, outcome: failure}, {from: 7300, outcome: success}]
`;

const PROBES = `      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 10}
      livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}`;

/** The edit replayed: a startupProbe added. */
const EDITED = `      startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 30}
${PROBES}`;

export function runInsightsBenchmark(log: (line: string) => void): void {
  const scenario = parseScenario(SCENARIO);
  if (!scenario.ok) throw new Error(scenario.error);
  const events: EngineEvent[] = [];
  const header = runHeader({ mode: 'simulate', durationSeconds: HOURS * 3600 });
  simulate(parseManifest(podsManifest(PODS, () => PROBES)), { scenario: scenario.scenario, durationSeconds: HOURS * 3600, seed: 1, emit: (e) => events.push(e) });
  const text = toJsonLines(header, events);
  events.length = 0;
  log(`insights — a ${HOURS} h simulated recording of ${PODS} pods (readiness + liveness every 10 s): ${(text.length / 1e6).toFixed(0)} MB of JSON Lines`);

  const parse = timed(() => parseJsonLines(text));
  const recording = parse.value;
  log(`  baseline: parse it (parseJsonLines): ${fmt(recording.events.length)} events in ${ms(parse.ms)}`);

  const history = timed(() => buildHistory(recording.header, recording.events));
  log(`  index it (buildHistory, shared by all three): ${ms(history.ms)} (${ratio(history.ms, parse.ms)})`);

  const extract = timed(() => extractScenario(history.value));
  const containers = Object.keys(extract.value.scenario.containers).length;
  log(`  extract (scenario): ${ms(extract.ms)} (${ratio(extract.ms, parse.ms)}); with the index ${ms(history.ms + extract.ms)} (${ratio(history.ms + extract.ms, parse.ms)}) — ${containers} container script(s), ${extract.value.notes.length} note(s)`);

  const explain = timed(() => explainRecording(history.value, history.value.end, timeFormatFor(history.value.startedAtMs)));
  log(`  explain (every container at the end): ${ms(explain.ms)} (${ratio(explain.ms, parse.ms)}); with the index ${ms(history.ms + explain.ms)} (${ratio(history.ms + explain.ms, parse.ms)}) — ${explain.value.length} explanations`);

  const edited = parseManifest(podsManifest(PODS, () => EDITED));
  const replay = timed(() => replayRecording({ header: recording.header, events: recording.events, manifest: edited, history: history.value }));
  const restarts = replay.value.containers.reduce((n, c) => n + c.restarts.before, 0);
  const restartsAfter = replay.value.containers.reduce((n, c) => n + c.restarts.after, 0);
  log(`  replay (extract + ${HOURS} h simulation of the edited manifest + both sides measured): ${ms(replay.ms)} (${ratio(replay.ms, parse.ms)}); with the index ${ms(history.ms + replay.ms)} — ${replay.value.containers.length} containers compared, restarts ${restarts} → ${restartsAfter}, ${fmt(replay.value.events.length)} replayed events`);
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;
}

function ratio(value: number, baseline: number): string {
  return `${(value / baseline).toFixed(2)}× the parse`;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
