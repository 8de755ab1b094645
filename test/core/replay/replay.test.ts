/**
 * Replaying a recording against another configuration (src/core/replay/replay.ts): the same
 * measure on both sides (containerOutcomes), the README's example from a real local recording (a
 * slow start the kubelet restarts 3 times; with a startupProbe, 0), the same manifest giving the
 * same figures, and containers on one side only said, not dropped.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { containerOutcomes } from '../../../src/core/replay/containerOutcomes';
import { replayRecording } from '../../../src/core/replay/replay';
import { replayJson, replayTable } from '../../../src/core/replay/replayReport';
import { parseManifest } from '../../../src/core/manifest';
import { parseJsonLines, type RunHeader, runHeader } from '../../../src/core/timeline/jsonl';
import { podManifest, simulated, webPod } from '../../helpers/engine';

const FIXTURES = join('test', 'fixtures', 'insights');
const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}';
const READINESS = 'readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5}';
const STARTUP = 'startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 30}';
const SIMULATED = runHeader({ mode: 'simulate' });

function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

function replay(header: RunHeader | undefined, events: readonly EngineEvent[], yaml: string) {
  return replayRecording({ header, events, manifest: parseManifest(yaml) });
}

test('README: a local recording with 3 liveness restarts during a slow start, replayed with a startupProbe added: 0 restarts', () => {
  const { header, events } = parseJsonLines(fixture('slow-start.local.jsonl'));
  const result = replay(header, events, fixture('slow-start.startup.yaml'));
  assert.equal(result.containers.length, 1);
  const web = result.containers[0];
  assert.ok(web);
  assert.deepEqual([web.pod, web.container], ['web', 'web']);
  assert.deepEqual(web.restarts, { before: 3, after: 0 });
  assert.deepEqual(web.kills, { before: { liveness: 3, startup: 0 }, after: { liveness: 0, startup: 0 } });
  // Ready once the app listened (120 s into its life) and a probe saw it: 125 s on the recording's
  // clock; the startupProbe (every 10 s) sees it at 130 s.
  assert.ok(web.timeToReady.before !== null && web.timeToReady.before > 120 && web.timeToReady.before < 126, String(web.timeToReady.before));
  assert.ok(web.timeToReady.after !== null && web.timeToReady.after >= 130 && web.timeToReady.after < 130.1, String(web.timeToReady.after));
  assert.ok(result.durationSeconds > 190);
  assert.deepEqual(result.notes, []);
});

test('a local recording replayed against its own manifest: in a cluster every restart starts the app over, so it never gets Ready', () => {
  const { header, events } = parseJsonLines(fixture('slow-start.local.jsonl'));
  const web = replay(header, events, fixture('slow-start.yaml')).containers[0];
  assert.equal(web?.timeToReady.before !== null, true, 'locally the process ran on and got Ready');
  assert.equal(web?.timeToReady.after, null);
  assert.ok((web?.restarts.after ?? 0) >= 3);
});

for (const [name, yaml, scenario] of [
  ['a slow start killed by liveness', webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 45, latency: 0.2}}'],
  ['a crash loop', webPod(READINESS), 'containers: {web: {readyAfter: 5, exitAfter: 90}}'],
  ['a hang, then deletion', webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 10, failAfter: 300}}\npod: {deleteAfter: 500}'],
] as const) {
  test(`the recording's own manifest replays to the same figures — ${name}`, () => {
    const recorded = simulated(yaml, scenario, 900);
    const result = replay(SIMULATED, recorded, yaml);
    for (const c of result.containers) {
      assert.equal(c.restarts.after, c.restarts.before, 'restarts');
      assert.equal(c.timeToReady.after, c.timeToReady.before, 'time to Ready');
      assert.equal(c.timeNotReady.after, c.timeNotReady.before, 'time not Ready');
      assert.deepEqual(c.kills.after, c.kills.before, 'kills');
    }
    assert.equal(result.containers.length, 1);
  });
}

test('the replay lasts as long as the recording, its declared length included', () => {
  const recorded = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0}}', 100);
  assert.equal(replay(runHeader({ mode: 'simulate', durationSeconds: 300 }), recorded, webPod(READINESS)).durationSeconds, 300);
  assert.equal(replay(SIMULATED, recorded, webPod(READINESS)).durationSeconds, recorded.at(-1)?.t);
});

test('containerOutcomes: restarts, first Ready since the run began, seconds not Ready after the first start, kills by probe', () => {
  const events = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 45, latency: 0.2}}', 200);
  const web = containerOutcomes(events, { until: 200, kills: 'carried-out' }).get('web/web');
  // Killed at 30.2 (3 liveness failures), SIGKILLed at 60.2 and started again at once; ready at
  // 45.6 in between (readiness kept seeing the app through the grace period). Killed again at
  // 90.2, down at 120.2, back after 10 s of back-off; killed at 160.2, down at 190.2, backing off.
  assert.equal(web?.timeToReady, 45.6);
  assert.equal(web?.restarts, 2);
  assert.deepEqual(web?.kills, { liveness: 3, startup: 0 });
  const ready = events.filter((e): e is Extract<EngineEvent, { type: 'status' }> => e.type === 'status');
  let notReady = 0;
  for (const [i, s] of ready.entries()) if (!s.ready) notReady += (ready[i + 1]?.t ?? 200) - s.t;
  assert.equal(web?.timeNotReady, Math.round(notReady * 1000) / 1000);
});

test('containerOutcomes: a cluster recording counts the kills the cluster confirmed, not our predictions', () => {
  const events: EngineEvent[] = [
    { type: 'container', t: 0, pod: 'p', container: 'c', containerId: 'containerd://a', state: 'running', restartCount: 0 },
    { type: 'prediction', t: 30, pod: 'p', container: 'c', probe: 'liveness', containerId: 'containerd://a', state: 'pending', message: 'liveness would restart c now' },
    { type: 'prediction', t: 41, pod: 'p', container: 'c', probe: 'liveness', containerId: 'containerd://a', state: 'confirmed', message: 'the cluster restarted c' },
    { type: 'container', t: 41, pod: 'p', container: 'c', containerId: 'containerd://b', state: 'running', restartCount: 1 },
    { type: 'event', t: 50, pod: 'p', container: 'c', reason: 'Killing', message: 'Container c failed liveness probe, will be restarted', eventType: 'Normal', probe: 'liveness' },
  ];
  const c = containerOutcomes(events, { until: 60, kills: 'cluster' }).get('p/c');
  assert.deepEqual(c?.kills, { liveness: 1, startup: 0 });
  assert.equal(c?.restarts, 1);
  assert.equal(c?.timeToReady, null);
  assert.equal(c?.timeNotReady, 60);
});

test('a probe the edited manifest removed is no trouble; a startupProbe it adds answers like the app did', () => {
  const recorded = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 0, probes: {readiness: [{from: 0, outcome: success}, {from: 100, outcome: failure}]}}}', 300);
  const withoutReadiness = replay(SIMULATED, recorded, webPod(LIVENESS)).containers[0];
  assert.equal(withoutReadiness?.timeNotReady.after, 0, 'without readiness the container is Ready once started');
  // Readiness goes on through each kill's grace period: it sees the app answer 50 s into its life.
  const slow = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 50}}', 400);
  const withStartup = replay(SIMULATED, slow, webPod(`${STARTUP}\n${READINESS}\n${LIVENESS}`)).containers[0];
  assert.ok((withStartup?.restarts.before ?? 0) > 0);
  assert.equal(withStartup?.restarts.after, 0);
});

test('containers and pods on one side only are said, not dropped; a lone pod renamed is the same pod', () => {
  const recorded = simulated(
    podManifest(`containers:
  - {name: web, image: web, ports: [{name: http, containerPort: 8080}], ${READINESS}}
  - {name: cache, image: cache, ports: [{name: http, containerPort: 8080}], ${READINESS}}`),
    'containers: {web: {readyAfter: 10}, cache: {readyAfter: 0}}',
    120,
  );
  const edited = podManifest(
    `containers:
  - {name: web, image: web, ports: [{name: http, containerPort: 8080}], ${READINESS}}
  - {name: worker, image: worker, ports: [{name: http, containerPort: 8080}], ${READINESS}}`,
    'web-v2',
  );
  const result = replay(SIMULATED, recorded, edited);
  assert.deepEqual(
    result.containers.map((c) => `${c.pod}/${c.container} as ${c.replayedAs}`),
    ['web/web as web-v2'],
  );
  assert.deepEqual(result.notes, [
    'pod web of the recording is compared with pod web-v2 of the manifest',
    'web/cache is in the recording but not in the manifest: not replayed',
    'web-v2/worker is in the manifest but not in the recording: replayed as an app that is always healthy',
  ]);
  const two = `${webPod(READINESS)}---\n${webPod(READINESS).replace('name: web\nspec', 'name: api\nspec')}`;
  const apart = replay(SIMULATED, simulated(two, '', 60), podManifest('containers: [{name: web, image: web, ports: [{name: http, containerPort: 8080}], readinessProbe: {httpGet: {path: /, port: http}}}]', 'other'));
  assert.deepEqual(apart.containers, []);
  assert.deepEqual(apart.notes, ['pod web is in the recording but not in the manifest: not replayed', 'pod api is in the recording but not in the manifest: not replayed', 'pod other is in the manifest but not in the recording: replayed, with nothing to compare']);
});

test('the table and the JSON say the same: before → after per container, then the notes', () => {
  const { header, events } = parseJsonLines(fixture('slow-start.local.jsonl'));
  const result = replay(header, events, fixture('slow-start.startup.yaml'));
  const text = replayTable(result, 'slow-start.local.jsonl replayed against slow-start.startup.yaml');
  assert.match(text, /^slow-start\.local\.jsonl replayed against slow-start\.startup\.yaml\n\nweb\/web\n {2}restarts {8}3 {10}→ 0\n {2}time to Ready {3}2m 05s {5}→ 2m 10s\n {2}time not Ready {2}2m 05s {5}→ 2m 10s\n {2}kills {11}liveness 3 → none\n$/);
  const json = replayJson(result);
  assert.equal(json.schemaVersion, 1);
  assert.deepEqual(Object.keys(json.containers[0] ?? {}), ['pod', 'container', 'restarts', 'timeToReady', 'timeNotReady', 'kills']);
});
