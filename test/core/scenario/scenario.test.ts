import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import { desiredPods } from '../../../src/core/engine/manager';
import { parseManifest, type PodSpecModel } from '../../../src/core/manifest';
import { closestName } from '../../../src/core/text/closestName';
import { matchScenario } from '../../../src/core/scenario/match';
import { scriptedExit, scriptFor } from '../../../src/core/scenario/scenario';
import { SimulatedProcesses } from '../../../src/core/targets/simulated';
import { podManifest, scenario } from '../../helpers/engine';

const S = 1000;

const MANIFEST = podManifest(`
initContainers:
  - {name: migrate, image: app}
  - {name: proxy, image: envoy, restartPolicy: Always, startupProbe: {tcpSocket: {port: 15000}}}
containers:
  - {name: web, image: nginx, readinessProbe: {tcpSocket: {port: 8080}}, livenessProbe: {tcpSocket: {port: 8080}}}
  - {name: log-shipper, image: fluent}
ephemeralContainers:
  - {name: debugger, image: busybox}`);

function specs(yaml: string): PodSpecModel[] {
  return desiredPods(parseManifest(yaml)).map((p) => p.spec);
}

function match(text: string, yaml = MANIFEST) {
  return matchScenario(scenario(text), specs(yaml));
}

test('SIM3: a scenario naming a container the manifest does not run is an error, with a did-you-mean when one is close', () => {
  const cases: [string, string][] = [
    ['containers: {wbe: {readyAfter: 5}}', 'containers.wbe: unknown container (did you mean "web"?)'],
    ['containers: {Web: {readyAfter: 5}}', 'containers.Web: unknown container (did you mean "web"?)'],
    ['containers: {log-shiper: {exitAfter: 5}}', 'containers.log-shiper: unknown container (did you mean "log-shipper"?)'],
    ['containers: {database: {readyAfter: 5}}', 'containers.database: unknown container (expected one of migrate, proxy, web, log-shipper)'],
    ['containers: {debugger: {readyAfter: 5}}', 'containers.debugger: unknown container (expected one of migrate, proxy, web, log-shipper)'],
  ];
  for (const [text, error] of cases) assert.deepEqual(match(text), { ok: false, error }, text);
  assert.deepEqual(matchScenario(scenario('containers: {web: {}}'), []), { ok: false, error: 'containers.web: unknown container (the manifest has none)' });
});

test('SIM3: a per-probe override for a probe the container does not have is an error naming the probes it has', () => {
  const cases: [string, string][] = [
    ['containers: {web: {probes: {startup: {attempts: [success]}}}}', 'containers.web.probes.startup: web has no startupProbe (it has livenessProbe, readinessProbe)'],
    ['containers: {proxy: {probes: {readiness: [{from: 0, outcome: failure}]}}}', 'containers.proxy.probes.readiness: proxy has no readinessProbe (it has startupProbe)'],
    ['containers: {migrate: {probes: {liveness: {attempts: [failure]}}}}', 'containers.migrate.probes.liveness: migrate has no livenessProbe (it has no probes)'],
  ];
  for (const [text, error] of cases) assert.deepEqual(match(text), { ok: false, error }, text);
});

test('SIM3: a scenario that fits is returned as it is; a container present in any pod of the file fits', () => {
  const fits = 'containers: {web: {readyAfter: 5, probes: {liveness: {attempts: [success, failure]}}}, migrate: {exitAfter: 3}, proxy: {stopAfter: 1}}';
  assert.deepEqual(match(fits), { ok: true, scenario: scenario(fits) });
  const twoPods = `${MANIFEST}---\n${podManifest('containers: [{name: worker, image: app, startupProbe: {exec: {command: [true]}}}]', 'jobs')}`;
  assert.equal(match('containers: {worker: {probes: {startup: {attempts: [success]}}}, web: {readyAfter: 1}}', twoPods).ok, true);
});

test('SIM3: closestName: same letters in another case first, then the nearest within a budget that grows with the name', () => {
  assert.equal(closestName('WEB', ['web', 'wb']), 'web');
  assert.equal(closestName('wbe', ['web', 'api']), 'web');
  assert.equal(closestName('ap', ['api', 'web']), 'api');
  assert.equal(closestName('xyz', ['web', 'api']), undefined);
  assert.equal(closestName('readyafter', ['readyAfter', 'failAfter']), 'readyAfter');
});

test('SIM2: scripted exits: app containers and sidecars run until exitAfter, then exit 1 (or exitCode); plain init containers exit 0 at once unless told', () => {
  const script = scenario('containers: {a: {exitAfter: 9}, b: {exitAfter: 9, exitCode: 3}, c: {exitCode: 4}, d: {readyAfter: 2}}');
  assert.deepEqual(scriptedExit(scriptFor(script, 'a'), 'regular'), { afterSeconds: 9, exitCode: 1 });
  assert.deepEqual(scriptedExit(scriptFor(script, 'a'), 'sidecar'), { afterSeconds: 9, exitCode: 1 });
  assert.deepEqual(scriptedExit(scriptFor(script, 'a'), 'init'), { afterSeconds: 9, exitCode: 0 });
  assert.deepEqual(scriptedExit(scriptFor(script, 'b'), 'init'), { afterSeconds: 9, exitCode: 3 });
  assert.deepEqual(scriptedExit(scriptFor(script, 'c'), 'init'), { afterSeconds: 0, exitCode: 4 });
  assert.equal(scriptedExit(scriptFor(script, 'c'), 'regular'), undefined, 'an exit code alone does not make an app container exit');
  assert.deepEqual(scriptedExit(scriptFor(script, 'not-mentioned'), 'init'), { afterSeconds: 0, exitCode: 0 });
  assert.equal(scriptedExit(scriptFor(script, 'not-mentioned'), 'regular'), undefined);
  assert.equal(scriptedExit(scriptFor(script, 'd'), 'regular'), undefined);
});

test('SIM2/K5: simulated processes exit on the scenario\'s clock and say how long SIGTERM takes (stopAfter)', () => {
  const clock = new VirtualClock();
  const processes = new SimulatedProcesses(scenario('containers: {migrate: {exitAfter: 4, exitCode: 2}, web: {stopAfter: 1.5}}'), clock);
  assert.equal(processes.runsPlainInitContainers, true);
  const [pod] = desiredPods(parseManifest(MANIFEST));
  assert.ok(pod);
  const container = (name: string) => pod.spec.containers.find((c) => c.name === name) as PodSpecModel['containers'][number];
  const exits: string[] = [];
  const start = (name: string) => processes.start({ pod: pod.identity, container: container(name), instance: 0, startedAt: clock.now() }, (code) => exits.push(`${clock.now() / S} ${name} ${code}`));
  const migrate = start('migrate');
  const web = start('web');
  const shipper = start('log-shipper');
  clock.advanceTo(60 * S);
  assert.deepEqual(exits, ['4 migrate 2']);
  assert.equal(migrate.stopAfterMs, undefined, 'no stopAfter: SIGTERM is ignored');
  assert.equal(web.stopAfterMs, 1500);
  const killed = start('migrate');
  killed.dispose();
  clock.advanceTo(120 * S);
  assert.deepEqual(exits, ['4 migrate 2'], 'a killed process does not exit by itself');
  shipper.dispose();
  web.dispose();
});
