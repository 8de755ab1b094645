/**
 * A recording turned into a scenario (src/core/replay/extractScenario.ts, docs/design.md §3): the
 * round trip over real engine runs (simulate with S → record → extract → simulate again: the same
 * attempts, with the same outcomes, at the same moments), then each rule on its own — steps begin
 * at the attempt that saw them, readyAfter is the first success of any probe, what is not the
 * app's doing is left out, restarts replay from 0 (a local run's do not), exits, deletion — and
 * the YAML writer that `parseScenario` reads back identically.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { extractScenario } from '../../../src/core/replay/extractScenario';
import { buildHistory } from '../../../src/core/history/history';
import { parseManifest } from '../../../src/core/manifest';
import { parseScenario } from '../../../src/core/scenario/parse';
import type { Scenario } from '../../../src/core/scenario/scenario';
import { scenarioYaml } from '../../../src/core/scenario/write';
import { simulate } from '../../../src/core/targets/simulation';
import { parseJsonLines, type RunHeader, runHeader } from '../../../src/core/timeline/jsonl';
import { only, podManifest, simulated, webPod } from '../../helpers/engine';

const SIMULATED = runHeader({ mode: 'simulate' });
const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}';
const READINESS = 'readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5}';
const STARTUP = 'startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 6}';

function extracted(events: readonly EngineEvent[], header: RunHeader = SIMULATED) {
  return extractScenario(buildHistory(header, events));
}

function replayed(yaml: string, scenario: Scenario, seconds: number): EngineEvent[] {
  const events: EngineEvent[] = [];
  simulate(parseManifest(yaml), { scenario, durationSeconds: seconds, seed: 1, emit: (e) => events.push(e) });
  return events;
}

/** Every attempt as `t pod/container probe containerId outcome durationMs`: what the round trip must give again. */
function attempts(events: readonly EngineEvent[]): string[] {
  return only(events, 'attempt').map((e) => `${e.t} ${e.pod}/${e.container} ${e.probe} ${e.containerId} ${e.outcome} ${e.durationMs}`);
}

/** The text written reads back as the same scenario. */
function throughYaml(scenario: Scenario): Scenario {
  const parsed = parseScenario(scenarioYaml(scenario, { top: ['a note'], containers: Object.fromEntries(Object.keys(scenario.containers).map((n) => [n, [`about ${n}`]])) }));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.deepEqual(parsed.scenario, scenario, 'parseScenario reads the written scenario back identically');
  return parsed.scenario;
}

const TWO_CONTAINERS = podManifest(`containers:
  - name: web
    image: web
    ports: [{name: http, containerPort: 8080}]
    ${READINESS}
    ${LIVENESS}
  - name: db
    image: db
    ports: [{name: pg, containerPort: 5432}]
    readinessProbe: {tcpSocket: {port: pg}, periodSeconds: 7}
    livenessProbe: {exec: {command: [pg_isready]}, periodSeconds: 15, timeoutSeconds: 2}`);

const ROUND_TRIPS: readonly { readonly name: string; readonly yaml: string; readonly scenario: string; readonly seconds: number }[] = [
  { name: 'readyAfter: a slow start that liveness kills, with back-off', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'containers: {web: {readyAfter: 45, latency: 0.2}}', seconds: 900 },
  { name: 'readyAfter then failAfter: a hang, timed out and killed', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'containers: {web: {readyAfter: 12, failAfter: 200, latency: 0.3}}', seconds: 900 },
  { name: 'exitAfter: a crash loop (exit code 1) under CrashLoopBackOff', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'containers: {web: {readyAfter: 5, exitAfter: 90}}', seconds: 1200 },
  { name: 'exitAfter with exitCode 0 under restartPolicy OnFailure', yaml: webPod(READINESS, 'restartPolicy: OnFailure'), scenario: 'containers: {web: {readyAfter: 5, exitAfter: 60, exitCode: 0}}', seconds: 300 },
  {
    name: 'per-probe timed outcomes: readiness flaps, liveness warns',
    yaml: webPod(`${READINESS}\n${LIVENESS}`),
    scenario: `containers:
  web:
    readyAfter: 0
    latency: 0.05
    probes:
      readiness: [{from: 0, outcome: failure}, {from: 20, outcome: success}, {from: 100, outcome: failure}, {from: 160, outcome: success}]
      liveness: [{from: 0, outcome: success}, {from: 50, outcome: warning}, {from: 300, outcome: success}]`,
    seconds: 600,
  },
  {
    name: 'per-attempt outcomes: liveness fails three times in a row on every instance',
    yaml: webPod(`${READINESS}\n${LIVENESS}`),
    scenario: 'containers: {web: {readyAfter: 0, probes: {liveness: {attempts: [success, success, failure, failure, failure, success]}}}}',
    seconds: 900,
  },
  { name: 'latency above timeoutSeconds: every attempt times out', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'containers: {web: {readyAfter: 0, latency: 2}}', seconds: 600 },
  { name: 'a startupProbe over a slow start; gRPC and exec handlers', yaml: webPod(`${STARTUP}\n${LIVENESS}\nreadinessProbe: {grpc: {port: 8080}, periodSeconds: 5, timeoutSeconds: 2}`), scenario: 'containers: {web: {readyAfter: 75, latency: 0.1}}', seconds: 600 },
  { name: 'deleteAfter: the pod is deleted, the app stops 3 s after SIGTERM', yaml: webPod(`${READINESS}\n${LIVENESS}`), scenario: 'containers: {web: {readyAfter: 8, stopAfter: 3}}\npod: {deleteAfter: 200}', seconds: 400 },
  { name: 'two containers, each its own behaviour', yaml: TWO_CONTAINERS, scenario: 'containers: {web: {readyAfter: 33, latency: 0.2}, db: {readyAfter: 0, failAfter: 120, latency: 0.5}}', seconds: 900 },
];

for (const trip of ROUND_TRIPS) {
  test(`round trip — ${trip.name}: the extracted scenario gives every attempt again, same outcome, same moment`, () => {
    const recorded = simulated(trip.yaml, trip.scenario, trip.seconds);
    const { scenario } = extracted(recorded);
    const again = replayed(trip.yaml, throughYaml(scenario), trip.seconds);
    assert.ok(attempts(recorded).length > 10, 'enough attempts to mean something');
    assert.deepEqual(attempts(again), attempts(recorded));
  });
}

/** A small seeded generator (a linear congruence): the same cases on every run. */
function seeded(seed: number): { pick<T>(values: readonly T[]): T; chance(p: number): boolean } {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { pick: (values) => values[Math.floor(next() * values.length)] as (typeof values)[number], chance: (p) => next() < p };
}

test('round trip over 150 generated pods and apps: any handler, period, timeout, threshold, grace and restart policy', () => {
  const random = seeded(20261124);
  const handlers = ['{httpGet: {path: /x, port: http}', '{tcpSocket: {port: http}', '{grpc: {port: 8080}', '{exec: {command: [x]}'];
  const probe = (type: string) =>
    `${type}Probe: ${random.pick(handlers)}, periodSeconds: ${random.pick([1, 3, 5, 10, 13])}, timeoutSeconds: ${random.pick([1, 2, 3])}, failureThreshold: ${random.pick([1, 2, 3, 5])}${random.chance(0.3) ? `, initialDelaySeconds: ${random.pick([4, 7])}` : ''}}`;
  for (let n = 0; n < 150; n++) {
    const probes = [...(random.chance(0.4) ? [probe('startup')] : []), ...(random.chance(0.8) ? [probe('readiness')] : []), probe('liveness')];
    const podFields = [random.chance(0.5) ? `terminationGracePeriodSeconds: ${random.pick([1, 5, 30])}` : '', random.chance(0.2) ? `restartPolicy: ${random.pick(['OnFailure', 'Never'])}` : ''].join('\n');
    const app = [`readyAfter: ${random.pick([0, 3, 17, 45, 120])}`, `latency: ${random.pick([0, 0.1, 0.5, 1.5, 2.5])}`];
    if (random.chance(0.3)) app.push(`failAfter: ${random.pick([60, 200, 400])}`);
    if (random.chance(0.25)) app.push(`exitAfter: ${random.pick([20, 90, 250])}`);
    if (random.chance(0.25)) app.push(`stopAfter: ${random.pick([0.5, 3, 12])}`);
    const scenarioText = `containers: {web: {${app.join(', ')}}}\n${random.chance(0.2) ? `pod: {deleteAfter: ${random.pick([100, 300])}}` : ''}`;
    const seconds = random.pick([300, 900]);
    const yaml = webPod(probes.join('\n'), podFields);
    const recorded = simulated(yaml, scenarioText, seconds);
    const again = replayed(yaml, throughYaml(extracted(recorded).scenario), seconds);
    assert.deepEqual(attempts(again), attempts(recorded), `case ${n}: ${probes.join(' ')} ${podFields} ${scenarioText}`);
  }
});

test('a slow start: readyAfter is the first success and probes the app explains need no steps of their own', () => {
  const recorded = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 45, latency: 0.2}}', 600);
  const { scenario, notes } = extracted(recorded);
  assert.deepEqual(scenario.containers['web'], { readyAfter: 45, latency: 0.2, probes: {} });
  assert.equal(scenario.deleteAfter, undefined);
  assert.deepEqual(notes, []);
});

test('a probe the app does not explain keeps its outcomes by time, compressed to changes; each step begins at the attempt that saw it', () => {
  const recorded = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0, probes: {readiness: [{from: 0, outcome: success}, {from: 32, outcome: failure}, {from: 61, outcome: success}]}}}', 200);
  const { scenario } = extracted(recorded);
  // Attempts every 5 s: the first to see the failure started at 35, the first to see success again at 65.
  assert.deepEqual(scenario.containers['web']?.probes.readiness, {
    kind: 'timed',
    steps: [
      { from: 0, outcome: 'success' },
      { from: 35, outcome: 'failure' },
      { from: 65, outcome: 'success' },
    ],
  });
  assert.equal(scenario.containers['web']?.readyAfter, 0, 'before the first attempt, its outcome held');
});

test('readyAfter is the first success of ANY probe: a startupProbe added later answers like the app did', () => {
  // Readiness every 5 s sees the app at 25; liveness (every 10 s) only at 30.
  const recorded = simulated(webPod(`${READINESS}\nlivenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 10}`), 'containers: {web: {readyAfter: 23}}', 120);
  const { scenario } = extracted(recorded);
  assert.equal(scenario.containers['web']?.readyAfter, 25);
});

test('timeouts are failures; a hang at the end of every probe is failAfter, so a probe the recording lacks hangs too', () => {
  const recorded = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 10, failAfter: 100, latency: 0.2}}', 125);
  const { scenario, notes } = extracted(recorded);
  assert.deepEqual(scenario.containers['web'], { readyAfter: 10, failAfter: 100, latency: 0.2, probes: {} });
  assert.deepEqual(notes, []);
});

test('a probe that times out while the other answers keeps failure steps, and the note says they cannot hang', () => {
  const yaml = webPod(`readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5, timeoutSeconds: 3}\nlivenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 100}`);
  const recorded = simulated(yaml, 'containers: {web: {readyAfter: 0, latency: 2}}', 120);
  const { scenario, notes } = extracted(recorded);
  const web = scenario.containers['web'];
  assert.equal(web?.latency, 2, 'the median answer, readiness taking 2 s within its 3 s');
  assert.deepEqual(web?.probes.liveness, { kind: 'timed', steps: [{ from: 0, outcome: 'failure' }] });
  assert.ok(notes.some((n) => /liveness attempts timed out/.test(n.message)), JSON.stringify(notes));
});

test('prober errors and attempts made while a debugger paused the app are not the app\'s behaviour: left out, and said', () => {
  const recorded = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0}}', 60);
  let n = 0;
  const edited = recorded.map((e): EngineEvent => {
    if (e.type !== 'attempt') return e;
    if (e.t > 20 && e.t < 32) return { ...e, outcome: 'failure', paused: true };
    if (n++ % 4 === 0) return { ...e, outcome: 'unknown', error: 'port "metrics" not found' };
    return e;
  });
  const { scenario, notes } = extracted(edited);
  assert.deepEqual(scenario.containers['web'], { readyAfter: 0, latency: 0, probes: {} }, 'only successes reached the app');
  const note = notes.find((n) => n.message.startsWith('left out'));
  assert.match(note?.message ?? '', /^left out, not the app's doing: \d+ prober errors, 2 attempts while a debugger paused the app$/);
});

test('attempts inside a pause span are left out too (a recording without the paused flag)', () => {
  const recorded = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0}}', 60);
  const failing = recorded.map((e): EngineEvent => (e.type === 'attempt' && e.t > 20 && e.t < 32 ? { ...e, outcome: 'failure' } : e));
  const withPause: EngineEvent[] = [...failing.filter((e) => e.t <= 19), { type: 'pause', t: 19, pod: 'web', state: 'paused', debugSession: 'node' }, ...failing.filter((e) => e.t > 19 && e.t <= 33), { type: 'pause', t: 33, pod: 'web', state: 'continued', debugSession: 'node' }, ...failing.filter((e) => e.t > 33)];
  assert.deepEqual(extracted(withPause).scenario.containers['web']?.probes, {});
});

test('several instances: each replays from 0; a later one that saw otherwise where the first had seen is said', () => {
  const recorded = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 45, latency: 0.2}}', 400);
  const second = only(recorded, 'container').find((e) => e.state === 'running' && e.restartCount === 1)?.containerId;
  assert.ok(second);
  let flipped = 0;
  const edited = recorded.map((e): EngineEvent => {
    if (e.type !== 'attempt' || e.containerId !== second || e.probe !== 'readiness' || flipped >= 2) return e;
    flipped++;
    return { ...e, outcome: 'success' };
  });
  const { scenario, notes } = extracted(edited);
  assert.equal(scenario.containers['web']?.readyAfter, 45, 'the first instance to reach a moment decides it');
  const note = notes.find((n) => /restart 1 disagrees/.test(n.message));
  assert.match(note?.message ?? '', /restart 1 disagrees with the first on 2 of \d+ readiness attempts \(first at 0 s: success where the scenario has failure\)/);
});

test('each moment from the first instance that reached it: a later instance that lived longer extends the timeline', () => {
  const yaml = webPod(`${READINESS}\n${LIVENESS}`);
  const recorded = simulated(yaml, 'containers: {web: {readyAfter: 45}}', 200);
  // As if the first instance had ended at 40 s: only the second (from 60 s) saw the app answer, 45 s into its life.
  const first = only(recorded, 'container')[0]?.containerId;
  const shortened = recorded
    .filter((e) => !(e.type === 'attempt' && e.containerId === first && e.t > 40))
    .map((e): EngineEvent => (e.type === 'container' && e.containerId === first && e.state === 'terminated' ? { ...e, t: 40 } : e));
  const { scenario, notes } = extracted(shortened);
  assert.equal(scenario.containers['web']?.readyAfter, 45);
  assert.ok(!notes.some((n) => /disagrees/.test(n.message)), 'a moment only one instance reached is not a disagreement');
});

test('exitAfter and exitCode when an instance ended by itself (no Killing before its terminated line)', () => {
  const crash = extracted(simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0, exitAfter: 40}}', 300)).scenario.containers['web'];
  assert.equal(crash?.exitAfter, 40);
  assert.equal(crash?.exitCode, 1);
  const done = extracted(simulated(webPod(READINESS, 'restartPolicy: Never'), 'containers: {web: {readyAfter: 0, exitAfter: 40, exitCode: 0}}', 100)).scenario.containers['web'];
  assert.equal(done?.exitCode, 0, 'Completed is exit code 0');
  const killed = extracted(simulated(webPod(LIVENESS), 'containers: {web: {readyAfter: 1000}}', 300)).scenario.containers['web'];
  assert.equal(killed?.exitAfter, undefined, 'a kill is the kubelet\'s doing, not an exit');
});

test('pod.deleteAfter when the pod was deleted', () => {
  const { scenario } = extracted(simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0}}\npod: {deleteAfter: 75}', 200));
  assert.equal(scenario.deleteAfter, 75);
});

test('the same container in several pods: the first pod\'s behaviour, and the others that differ are said', () => {
  const yaml = `${webPod(READINESS)}---\n${webPod(READINESS).replace('name: web\nspec', 'name: web-2\nspec')}`;
  const recorded = simulated(yaml, 'containers: {web: {readyAfter: 12}}', 60);
  // The second pod's app came up later than the first's.
  const edited = recorded.map((e): EngineEvent => (e.type === 'attempt' && e.pod === 'web-2' && e.t < 30 ? { ...e, outcome: 'failure' } : e));
  const { scenario, notes } = extracted(edited);
  assert.equal(scenario.containers['web']?.readyAfter, 15);
  assert.deepEqual(notes.map((n) => n.message), ['pod web-2 behaved otherwise (ready after 30 s, not 15 s); the scenario follows pod web']);
});

test('a local recording (kills only reported): times run from the FIRST start — the process ran on through the simulated restarts', () => {
  const { header, events } = parseJsonLines(readFileSync(join('test', 'fixtures', 'insights', 'slow-start.local.jsonl'), 'utf8'));
  const history = buildHistory(header, events);
  assert.equal(history.kills, 'reported');
  const web = history.pods.get('web')?.containers.get('web');
  assert.equal(web?.instances.length, 4, 'three simulated restarts');
  const { scenario } = extractScenario(history);
  const script = scenario.containers['web'];
  // The server listened from 120 s after its start; the first attempt after that came at 125 s,
  // on the fourth simulated instance (started at 125 s: 0 s into its own life).
  assert.ok(script && script.readyAfter > 120 && script.readyAfter < 126, `readyAfter ${script?.readyAfter}`);
  assert.ok(script.latency < 0.05, 'a local answer takes milliseconds');
});

test('a cluster recording: each instance is a real container, timed from its own start; its ends are not told apart, so no exitAfter, and said', () => {
  const recorded = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 12, exitAfter: 40}}', 300);
  const { scenario, notes } = extracted(recorded, runHeader({ mode: 'run', target: 'cluster' }));
  assert.equal(scenario.containers['web']?.readyAfter, 15);
  assert.equal(scenario.containers['web']?.exitAfter, undefined);
  assert.ok(notes.some((n) => /container ends are not told apart/.test(n.message)));
});

test('no probe ever succeeded: readyAfter is the recording\'s length, and said', () => {
  const { scenario, notes } = extracted(simulated(webPod(READINESS), 'containers: {web: {readyAfter: 1000}}', 100));
  assert.equal(scenario.containers['web']?.readyAfter, 100);
  assert.ok(notes.some((n) => n.container === 'web' && /no probe ever succeeded/.test(n.message)));
});

test('scenarioYaml: every field the format has, read back identically, with the notes as comments', () => {
  const scenario: Scenario = {
    containers: {
      web: { readyAfter: 45.4, failAfter: 600, exitAfter: 900, exitCode: 3, stopAfter: 2.5, latency: 0.002, probes: { readiness: { kind: 'timed', steps: [{ from: 0, outcome: 'failure' }, { from: 45.4, outcome: 'success' }] }, liveness: { kind: 'attempts', outcomes: ['success', 'warning', 'failure'] } } },
      'null': { readyAfter: 0, latency: 0, probes: {} },
      '8-worker': { readyAfter: 0.000001, latency: 0, probes: { startup: { kind: 'timed', steps: [] } } },
    },
    deleteAfter: 1200,
    kubeletStartedAgo: 4,
  };
  const text = scenarioYaml(scenario, { top: ['from a recording', 'two lines\nof note'], containers: { web: ['web note'] } });
  assert.match(text, /^# from a recording\n# two lines\n# of note\ncontainers:\n {2}# web note\n {2}web:\n {4}readyAfter: 45\.4\n/);
  const parsed = parseScenario(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.deepEqual(parsed.scenario, scenario);
  assert.equal(scenarioYaml({ containers: {}, kubeletStartedAgo: 3600 }), 'containers: {}\n');
});
