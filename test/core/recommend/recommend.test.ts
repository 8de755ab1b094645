/**
 * Recommendations from measurements (src/core/recommend/recommend.ts, issue 12 §2;
 * docs/spec/validation-rules.md §C): timeoutSeconds over the p99, a startup budget over the observed
 * start-up (raised, or a startupProbe added from liveness), liveness f × p against the longest
 * failure burst — over real engine runs and hand-made local recordings. Every recommendation is
 * applied and checked: the rules find nothing new, the probe has the recommended value and no
 * other probe changed; and, replayed against the same scenario, the edited manifest does what
 * the recommendation says it changes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { livenessKillSeconds, startupBudgetSeconds, toleranceSeconds } from '../../../src/core/rules/timing/formulas';
import type { EngineEvent } from '../../../src/core/engine/events';
import { applyTextEdits } from '../../../src/core/text/edits';
import { buildHistory } from '../../../src/core/history/history';
import { manifestPodNames, measureRecording } from '../../../src/core/history/measure';
import { type AddedStartupProbe, type Recommendation, type RecommendationReport, recommend } from '../../../src/core/recommend/recommend';
import { type ContainerModel, parseManifest, type ProbeType } from '../../../src/core/manifest';
import { type RunHeader, runHeader } from '../../../src/core/timeline/jsonl';
import { simulated, webPod } from '../../helpers/engine';
import { check } from '../../helpers/manifests';
import { every, localRecording } from '../../helpers/localRecording';

const SIMULATED = runHeader({ mode: 'simulate' });

function recommendFrom(text: string, events: readonly EngineEvent[], header: RunHeader = SIMULATED): RecommendationReport {
  const history = buildHistory(header, events);
  return recommend({ text, file: 'pod.yaml', measurements: measureRecording(history), kills: history.kills, manifestPods: manifestPodNames(events) });
}

/** Record `recorded` against a scenario, recommend for `manifest` (the same text by default). */
function fromSimulation(manifest: string, scenario: string, seconds: number, recorded = manifest): RecommendationReport {
  return recommendFrom(manifest, simulated(recorded, scenario, seconds));
}

function containerOf(text: string): ContainerModel {
  const container = parseManifest(text).documents[0]?.podSpecs[0]?.containers[0];
  assert.ok(container);
  return container;
}

function only(report: RecommendationReport, probe: ProbeType, field: string): Recommendation {
  const found = report.recommendations.filter((r) => r.probe === probe && r.field === field);
  assert.equal(found.length, 1, `one ${probe} ${field} in ${JSON.stringify(report.recommendations.map((r) => [r.probe, r.field, r.to]))} (dropped: ${JSON.stringify(report.dropped)}; thin: ${JSON.stringify(report.notEnoughData)})`);
  return found[0] as Recommendation;
}

/**
 * What must hold of every report: its edits applied, the rules find nothing the text did not
 * have; every recommended value is the edited probe's; and no probe it does not name changed.
 */
function assertSound(text: string, report: RecommendationReport): string {
  const after = applyTextEdits(text, report.edits);
  const key = (f: { rule: string; path: string }) => `${f.rule} ${f.path}`;
  const before = new Set(check(text).map(key));
  const added = check(after).filter((f) => !before.has(key(f)));
  assert.deepEqual(added.map((f) => `${key(f)}: ${f.message}`), [], `no new finding in\n${after}`);
  const probesBefore = new Map(parseManifest(text).documents.flatMap((d) => d.podSpecs.flatMap((p) => p.containers.flatMap((c) => c.probes.map((pr) => [`${p.path}/${c.name}/${pr.type}`, JSON.stringify(pr.effective)] as const)))));
  const named = new Set(report.recommendations.map((r) => `${r.container}/${r.probe}`));
  for (const document of parseManifest(after).documents) {
    for (const pod of document.podSpecs) {
      for (const container of pod.containers) {
        for (const probe of container.probes) {
          const mine = report.recommendations.filter((r) => r.container === container.name && r.probe === probe.type);
          for (const r of mine) {
            if (typeof r.to === 'number') assert.equal(probe.effective[r.field as 'timeoutSeconds' | 'failureThreshold'], r.to, `${probe.type}.${r.field}`);
            else {
              const to = r.to as AddedStartupProbe;
              assert.deepEqual([probe.effective.failureThreshold, probe.effective.periodSeconds, probe.effective.timeoutSeconds], [to.failureThreshold, to.periodSeconds, to.timeoutSeconds ?? 1]);
            }
          }
          if (!named.has(`${container.name}/${probe.type}`)) assert.equal(JSON.stringify(probe.effective), probesBefore.get(`${pod.path}/${container.name}/${probe.type}`), `${probe.type} of ${container.name} is untouched`);
        }
      }
    }
  }
  return after;
}

/** Restarts in a simulation of `text` against `scenario`. */
function restarts(text: string, scenario: string, seconds: number): number {
  return simulated(text, scenario, seconds).filter((e) => e.type === 'event' && e.reason === 'Killing').length;
}

const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}';
const READINESS = 'readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}';

describe('timeoutSeconds: headroom over the observed p99', () => {
  // Recorded with a generous timeout (9 s, period 10), so every answer is an answer; recommended for timeoutSeconds 1.
  const RECORDED = webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, timeoutSeconds: 9}');
  const MANIFEST = webPod(LIVENESS);
  const TABLE: readonly [latency: number, expected: number | undefined, note: string][] = [
    [0.3, undefined, 'p99 300 ms × 1.5 fits in 1 s'],
    [0.7, 2, '1.05 s rounds up to 2'],
    [1.4, 3, '2.1 s → 3'],
    [3, 5, '4.5 s → 5'],
    [8, 10, '12 s capped at periodSeconds (L12)'],
  ];
  for (const [latency, expected, note] of TABLE) {
    test(`latency ${latency} s → ${expected ?? 'no change'} (${note})`, () => {
      const report = fromSimulation(MANIFEST, `containers: {web: {readyAfter: 0, latency: ${latency}}}`, 3600, RECORDED);
      const found = report.recommendations.filter((r) => r.field === 'timeoutSeconds');
      if (expected === undefined) return assert.deepEqual(found, []);
      const r = only(report, 'liveness', 'timeoutSeconds');
      assert.deepEqual([r.from, r.to], [1, expected]);
      assert.match(r.reason, new RegExp(`^p99 ${latency < 1 ? `${latency * 1000} ms` : `${latency} s`} over \\d+ answered attempts`));
      if (expected === 10) assert.match(r.reason, /capped at periodSeconds \(10\)/);
      assert.match(r.changes, new RegExp(`answers taking up to ${expected} s count instead of failing after 1 s`));
      assertSound(MANIFEST, report);
    });
  }

  test('every probe gets its own: liveness and readiness over an hour of 0.8 s answers', () => {
    const text = webPod(`${LIVENESS}\n${READINESS}`);
    const report = fromSimulation(text, 'containers: {web: {readyAfter: 0, latency: 0.8}}', 3600);
    assert.equal(only(report, 'liveness', 'timeoutSeconds').to, 2);
    assert.equal(only(report, 'readiness', 'timeoutSeconds').to, 2);
    // f × p + t (§C deadlock detection): readiness 3 × 5 + 2.
    assert.match(only(report, 'readiness', 'timeoutSeconds').changes, /f × p \+ t = 17 s instead of 16 s/);
    assertSound(text, report);
  });

  test('fewer than 20 answered attempts: not enough data for a p99, and no recommendation', () => {
    const report = fromSimulation(webPod(LIVENESS), 'containers: {web: {readyAfter: 0, latency: 0.8}}', 100);
    assert.deepEqual(report.recommendations, []);
    assert.deepEqual(report.notEnoughData.map((n) => [n.probe, n.figure, n.reason]), [['liveness', 'latency', '9 answered attempts: a p99 needs at least 20']]);
  });

  test('p99 needs more than periodSeconds and timeoutSeconds already equals it: dropped (raise periodSeconds first)', () => {
    const text = webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5, timeoutSeconds: 5}');
    const report = fromSimulation(text, 'containers: {web: {readyAfter: 0, latency: 4}}', 3600);
    assert.deepEqual(report.recommendations, []);
    assert.equal(report.dropped.length, 1);
    assert.match(report.dropped[0]?.reason ?? '', /needs 6 s, more than periodSeconds \(5\); a timeout longer than the period trips L12: raise periodSeconds first/);
  });

  test('attempts that timed out are said: their latency is unknown', () => {
    const report = fromSimulation(webPod(READINESS), 'containers: {web: {readyAfter: 0, latency: 0.2, failAfter: 300}}', 400);
    assert.ok(report.notEnoughData.some((n) => n.figure === 'latency' && /^\d+ attempts after start-up timed out \(timeoutSeconds 1\): how long they would have taken is unknown/.test(n.reason)), JSON.stringify(report.notEnoughData));
  });
});

describe('startup budget: covers the slowest observed start-up with a 1.5× margin', () => {
  test('an existing startupProbe of 6 × 10 s for an app that answers at ~50 s: raised to 8 (80 s), and then no restart', () => {
    const text = webPod(`startupProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 6}\n${LIVENESS}`);
    const scenario = 'containers: {web: {readyAfter: 45}}';
    const report = fromSimulation(text, scenario, 1800);
    const r = only(report, 'startup', 'failureThreshold');
    assert.deepEqual([r.from, r.to], [6, 8]);
    assert.match(r.reason, /^the slowest start-up seen took 50(\.\d+)? s to the first success \(startupProbe, 1 instance\); with a 1.5× margin the budget must reach 75(\.\d+)? s$/);
    assert.equal(r.changes, 'the app gets 80 s to start (B_start = d + f × p, 8 × 10 s) instead of 60 s before the startupProbe kills it');
    const after = assertSound(text, report);
    assert.equal(startupBudgetSeconds(containerOf(after).probe('startup')!.effective), 80);
    assert.equal(restarts(after, 'containers: {web: {readyAfter: 70}}', 600), 0, 'a start 40 % slower still fits');
  });

  test('no startupProbe: one is added from liveness when liveness alone (30 s) is shorter than the start-up needs; replayed, no restart', () => {
    const text = webPod(`${READINESS}\n${LIVENESS}`);
    const scenario = 'containers: {web: {readyAfter: 45}}';
    assert.ok(restarts(text, scenario, 600) > 0, 'as written, liveness kills the slow start');
    const report = fromSimulation(text, scenario, 1800);
    const r = only(report, 'startup', 'startupProbe');
    assert.equal(r.from, null);
    // Readiness (every 5 s) first succeeds at 45 s, in the grace period of the kill: 45 × 1.5 = 67.5 → 7 periods.
    assert.deepEqual(r.to, { failureThreshold: 7, periodSeconds: 10 });
    assert.match(r.reason, /^the slowest start-up seen took 45 s to the first success \(readinessProbe, \d+ instances\); liveness alone kills a container that has not answered 30 s after it starts \(K_live = d \+ f × p\), less than the 67.5 s the start-up needs with a 1.5× margin$/);
    assert.equal(r.changes, "adds a startupProbe with the livenessProbe's handler (7 × 10 s): the app gets 70 s to start instead of the 30 s liveness allows; liveness and readiness wait until it succeeds");
    const after = assertSound(text, report);
    assert.equal(restarts(after, scenario, 1800), 0, 'the same app, no restart');
  });

  test('a local recording (kills only reported): start-up from the first instance, a startupProbe added with the measured timeout', () => {
    const steps = [...every(10, 10, ['failure', 'failure', 'failure']), { at: 30.01, kill: 'liveness' as const }, ...every(10, 70, Array(40).fill('success'), () => 1200)];
    const { header, events } = localRecording({ steps, timeoutSeconds: 2 });
    const text = webPod(LIVENESS);
    const report = recommendFrom(text, events, header);
    assert.equal(only(report, 'liveness', 'timeoutSeconds').to, 2);
    const r = only(report, 'startup', 'startupProbe');
    // 71.2 s × 1.5 = 106.8 → 11 periods.
    assert.deepEqual(r.to, { failureThreshold: 11, periodSeconds: 10, timeoutSeconds: 2 });
    assert.match(r.reason, /^the slowest start-up seen took 71.2 s to the first success \(livenessProbe, 1 instance\)/);
    assertSound(text, report);
  });

  test('every instance killed before it answered: the start-up is unknown, and nothing is recommended for it', () => {
    const text = webPod(LIVENESS);
    const report = fromSimulation(text, 'containers: {web: {readyAfter: 1000, stopAfter: 1}}', 600);
    assert.deepEqual(report.recommendations.filter((r) => r.probe === 'startup'), []);
    const thin = report.notEnoughData.find((n) => n.figure === 'startup');
    assert.match(thin?.reason ?? '', /^every instance \(\d+\) was killed before it ever answered \(after up to 31 s\): the start-up takes longer than that, by how much this recording cannot tell$/);
  });

  test('a local app that answered the first attempt: its start-up was not observed', () => {
    const { header, events } = localRecording({ steps: every(10, 10, Array(30).fill('success')) });
    const report = recommendFrom(webPod(LIVENESS), events, header);
    assert.ok(report.notEnoughData.some((n) => n.figure === 'startup' && /already answered the first attempt/.test(n.reason)));
  });
});

describe('liveness failureThreshold × periodSeconds: rides out the longest burst, no slower than needed', () => {
  test('recorded with f = 6, a burst of 4 failures: the manifest’s f = 3 is raised to 5', () => {
    const recorded = webPod(LIVENESS.replace('failureThreshold: 3', 'failureThreshold: 6'));
    const script = 'containers: {web: {readyAfter: 0, probes: {liveness: {attempts: [success, success, failure, failure, failure, failure, success]}}}}';
    const text = webPod(LIVENESS);
    const report = fromSimulation(text, script, 600, recorded);
    const r = only(report, 'liveness', 'failureThreshold');
    assert.deepEqual([r.from, r.to], [3, 5]);
    assert.match(r.reason, /^the longest failure burst after start-up was 4 failures in a row over 40 s from t = 30 s; riding it out with one failure to spare takes 5 × 10 s$/);
    assert.equal(r.changes, 'liveness would then kill after 50 s of failures (5 × 10 s) instead of 30 s (3 × 10 s); a container that never answers is first killed 50 s after it starts instead of 30 s (K_live = d + f × p)');
    const after = assertSound(text, report);
    assert.equal(restarts(after, script, 600), 0, 'the burst is ridden out');
    assert.ok(restarts(text, script, 600) > 0, 'as written, it is not');
  });

  test('L11: raising liveness past an existing startup budget raises the startup budget with it', () => {
    const recorded = webPod(LIVENESS.replace('failureThreshold: 3', 'failureThreshold: 6'));
    const script = 'containers: {web: {readyAfter: 0, probes: {liveness: {attempts: [success, success, failure, failure, failure, failure, success]}}}}';
    const text = webPod(`startupProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 4}\n${LIVENESS}`);
    const report = fromSimulation(text, script, 600, recorded);
    assert.equal(only(report, 'liveness', 'failureThreshold').to, 5);
    const startup = only(report, 'startup', 'failureThreshold');
    assert.deepEqual([startup.from, startup.to], [4, 6]);
    assert.match(startup.reason, /the budget must stay above liveness's own 50 s, or the startupProbe gives a slow start no more time \(L11\)/);
    const after = assertSound(text, report);
    const container = containerOf(after);
    assert.ok(startupBudgetSeconds(container.probe('startup')!.effective) > livenessKillSeconds(container.probe('liveness')!.effective));
  });

  test('two hours without a failure at f = 10: lowered to the default 3 (kills after 30 s instead of 100 s)', () => {
    const text = webPod(LIVENESS.replace('failureThreshold: 3', 'failureThreshold: 10'));
    const report = fromSimulation(text, 'containers: {web: {readyAfter: 0}}', 7200);
    const r = only(report, 'liveness', 'failureThreshold');
    assert.deepEqual([r.from, r.to], [10, 3]);
    assert.match(r.reason, /^liveness never failed after start-up, over 71\d counted attempts; 3 × 10 s still rides that out/);
    assert.match(r.changes, /^liveness would then kill after 30 s of failures \(3 × 10 s\) instead of 100 s \(10 × 10 s\)/);
    assert.equal(toleranceSeconds(containerOf(assertSound(text, report)).probe('liveness')!.effective), 30);
  });

  test('without a startupProbe, lowering stops where liveness still covers the observed start-up (K_live ≥ 1.5 × 50 s → 8)', () => {
    const text = webPod(LIVENESS.replace('failureThreshold: 3', 'failureThreshold: 10'));
    const scenario = 'containers: {web: {readyAfter: 45}}';
    const report = fromSimulation(text, scenario, 7200);
    const r = only(report, 'liveness', 'failureThreshold');
    assert.equal(r.to, 8);
    assert.match(r.reason, /; without a startupProbe it must also cover the start-up: the slowest start-up seen took 50 s to the first success \(livenessProbe, 1 instance\)$/);
    assert.equal(restarts(assertSound(text, report), scenario, 1800), 0, 'the slow start still fits');
  });

  test('L13: lowering stops above readiness on the same endpoint — adjusted to 4, and the reason says why', () => {
    const text = webPod(`${LIVENESS.replace('failureThreshold: 3', 'failureThreshold: 10')}\nreadinessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5, failureThreshold: 6}`);
    const report = fromSimulation(text, 'containers: {web: {readyAfter: 0}}', 7200);
    const r = only(report, 'liveness', 'failureThreshold');
    assert.equal(r.to, 4);
    assert.match(r.reason, /; adjusted: 3 would trip L13 \(liveness and readiness probe the same endpoint and both give up after 30 s of failures/);
    assertSound(text, report);
  });

  test('too few attempts to lower, and a burst a kill cut short: said, not guessed', () => {
    const text = webPod(LIVENESS.replace('failureThreshold: 3', 'failureThreshold: 10'));
    const short = fromSimulation(text, 'containers: {web: {readyAfter: 0}}', 600);
    assert.deepEqual(short.recommendations.filter((r) => r.field === 'failureThreshold'), []);
    assert.ok(short.notEnoughData.some((n) => n.figure === 'failures' && /counted attempts after start-up \(100 needed\) is too little to make it give up sooner/.test(n.reason)));
    const killed = fromSimulation(webPod(LIVENESS), 'containers: {web: {readyAfter: 0, failAfter: 100, stopAfter: 1}}', 600);
    assert.ok(killed.notEnoughData.some((n) => n.figure === 'failures' && /^\d+ failure bursts were cut short by a kill, the longest seen 3 failures in a row over 21 s from t = 100 s: how long they would have lasted is unknown$/.test(n.reason)), JSON.stringify(killed.notEnoughData));
  });
});

describe('edits respect the text as written', () => {
  test('a value written through an alias is not edited: dropped with the reason', () => {
    const text = webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, timeoutSeconds: &t 1}\nreadinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5, timeoutSeconds: *t}');
    const report = fromSimulation(text, 'containers: {web: {readyAfter: 0, latency: 0.8}}', 3600);
    assert.deepEqual(report.recommendations, []);
    assert.deepEqual(
      report.dropped.map((d) => [d.probe, d.field, d.reason]),
      [
        ['liveness', 'timeoutSeconds', 'the value is written through an anchor other probes share (spec.containers[0].readinessProbe): changing it would change them too'],
        ['readiness', 'timeoutSeconds', 'timeoutSeconds of the readinessProbe of container "web" comes from an alias or merge key: changing it there would change every object that shares it'],
      ],
    );
  });

  test('block style: fields appended at the probe’s indentation, the startupProbe after liveness; recording pods matched by name, others noted', () => {
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: api}',
      'spec:',
      '  selector: {matchLabels: {app: api}}',
      '  template:',
      '    metadata: {labels: {app: api}}',
      '    spec:',
      '      containers:',
      '        - name: api',
      '          image: api',
      '          livenessProbe:',
      '            httpGet:',
      '              path: /healthz',
      '              port: 8080',
      '          readinessProbe:',
      '            httpGet: {path: /ready, port: 8080}',
      '',
    ].join('\n');
    const events = simulated(text, 'containers: {api: {readyAfter: 45, latency: 0.8}}', 1800);
    const stray: EngineEvent = { type: 'attempt', t: 1, pod: 'other', container: 'x', probe: 'readiness', containerId: 'sim://other/x/0', outcome: 'success', output: '', durationMs: 1 };
    const report = recommendFrom(text, [stray, ...events]);
    assert.deepEqual(report.unmatched, ['pod "other" is not in the manifest (its pods: api)']);
    const after = assertSound(text, report);
    assert.equal(
      after.split('\n').slice(11).join('\n'),
      [
        '          livenessProbe:',
        '            httpGet:',
        '              path: /healthz',
        '              port: 8080',
        '            timeoutSeconds: 2',
        '          startupProbe:',
        '            httpGet:',
        '              path: /healthz',
        '              port: 8080',
        '            failureThreshold: 8',
        '            periodSeconds: 10',
        '            timeoutSeconds: 2',
        '          readinessProbe:',
        '            httpGet: {path: /ready, port: 8080}',
        '            timeoutSeconds: 2',
        '',
      ].join('\n'),
    );
  });
});

describe('property: any recommendation, applied, passes check with nothing new', () => {
  const probeText = (type: ProbeType, path: string, period: number, timeout: number, f: number) => `${type}Probe: {httpGet: {path: ${path}, port: 8080}, periodSeconds: ${period}, timeoutSeconds: ${timeout}, failureThreshold: ${f}}`;
  const config = fc.record({
    livenessPeriod: fc.integer({ min: 1, max: 20 }),
    livenessTimeout: fc.integer({ min: 1, max: 5 }),
    livenessF: fc.integer({ min: 1, max: 12 }),
    readiness: fc.option(fc.record({ period: fc.integer({ min: 1, max: 15 }), timeout: fc.integer({ min: 1, max: 4 }), f: fc.integer({ min: 1, max: 6 }), sameEndpoint: fc.boolean() })),
    startup: fc.option(fc.record({ period: fc.integer({ min: 1, max: 10 }), f: fc.integer({ min: 1, max: 40 }) })),
  });
  const app = fc.record({
    readyAfter: fc.integer({ min: 0, max: 120 }),
    latency: fc.constantFrom(0, 0.05, 0.4, 0.9, 1.6, 3.2),
    burst: fc.integer({ min: 0, max: 6 }),
  });
  test('over random configs and apps (60 runs, each 40 simulated minutes)', () => {
    fc.assert(
      fc.property(config, app, (c, a) => {
        const probes = [
          probeText('liveness', '/healthz', c.livenessPeriod, c.livenessTimeout, c.livenessF),
          ...(c.readiness ? [probeText('readiness', c.readiness.sameEndpoint ? '/healthz' : '/ready', c.readiness.period, c.readiness.timeout, c.readiness.f)] : []),
          ...(c.startup ? [probeText('startup', '/healthz', c.startup.period, 1, c.startup.f)] : []),
        ];
        const text = webPod(probes.join('\n'));
        const burst = a.burst > 0 ? `, probes: {liveness: {attempts: [success, ${Array(a.burst).fill('failure').join(', ')}, success]}}` : '';
        const report = fromSimulation(text, `containers: {web: {readyAfter: ${a.readyAfter}, latency: ${a.latency}${burst}}}`, 2400);
        assertSound(text, report);
        for (const r of report.recommendations) assert.ok(typeof r.to !== 'number' || (Number.isInteger(r.to) && r.to >= 1), `${r.field} ${String(r.to)}`);
      }),
      { seed: 20_250_112, numRuns: 60 },
    );
  });
});
