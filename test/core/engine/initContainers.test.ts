import assert from 'node:assert/strict';
import { test } from 'node:test';
import { desiredPods } from '../../../src/core/engine/manager';
import { type InitContainerView, initializationStep } from '../../../src/core/engine/initialization';
import { parseManifest } from '../../../src/core/manifest';
import { attemptStartTimes, containerLines, kubeletEventLines, lifecycle, only, podManifest, simulated, startPod } from '../../helpers/engine';

const S = 1000;

function uidOf(yaml: string): string {
  const pod = desiredPods(parseManifest(yaml))[0];
  assert.ok(pod);
  return pod.identity.uid;
}

const TWO_INITS = podManifest(`
initContainers:
  - {name: migrate, image: app}
  - {name: seed, image: app}
containers:
  - {name: web, image: nginx, readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}}`);

test('I1: plain init containers run one at a time, in spec order; the app containers start when the last has exited 0', () => {
  const { clock, events, runtime } = startPod(TWO_INITS, { scenario: 'containers: {migrate: {exitAfter: 20}, seed: {exitAfter: 5}}' });
  clock.advanceTo(10 * S);
  assert.equal(runtime.phase, 'Pending', 'initializing');
  clock.advanceTo(40 * S);
  assert.deepEqual(lifecycle(events), [
    '0 migrate running 0',
    '0 seed waiting 0 PodInitializing',
    '0 web waiting 0 PodInitializing',
    '20 migrate terminated 0 Completed',
    '20 seed running 0',
    '25 seed terminated 0 Completed',
    '25 web running 0',
  ]);
  assert.equal(runtime.phase, 'Running');
  // The app container's probes begin with it: its readiness worker, on its grid since 0, found no
  // container until 25, when the status update triggers it (W13).
  assert.deepEqual(attemptStartTimes(events, 'web', 'readiness'), [25, 35]);
  // S3: an init container is ready once it exited 0; it counts for no pod condition.
  assert.deepEqual(
    only(events, 'status', 'migrate').map((e) => `${e.t} ${e.started} ${e.ready}`),
    ['0 true false', '20 false true'],
  );
  assert.deepEqual(
    only(events, 'pod').map((e) => `${e.t} ${e.ready}`),
    ['0 false', '25 true'],
  );
  runtime.dispose();
});

test('SIM2: an init container the scenario does not mention exits 0 at once: the app containers start at t = 0 and d + f × p holds', () => {
  const liveness = 'livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}';
  const withInit = podManifest(`
initContainers:
  - {name: setup, image: busybox}
containers:
  - {name: web, image: nginx, ${liveness}}`);
  const events = simulated(withInit, 'containers: {web: {readyAfter: 1000}}', 40);
  assert.deepEqual(lifecycle(events), ['0 setup running 0', '0 web waiting 0 PodInitializing', '0 setup terminated 0 Completed', '0 web running 0']);
  assert.deepEqual(kubeletEventLines(events, 'Killing'), ['30 Container web failed liveness probe, will be restarted']);
});

test('I2: a sidecar with a startup probe lets the next init container start only once it has started', () => {
  const yaml = podManifest(`
initContainers:
  - {name: proxy, image: envoy, restartPolicy: Always, startupProbe: {tcpSocket: {port: 15000}, periodSeconds: 10, failureThreshold: 30}}
  - {name: setup, image: busybox}
containers:
  - {name: web, image: nginx}`);
  const events = simulated(yaml, 'containers: {proxy: {readyAfter: 25}, setup: {exitAfter: 3}}', 60);
  // Startup attempts at 10 and 20 are refused; the one at 30 succeeds.
  assert.deepEqual(lifecycle(events), [
    '0 proxy running 0',
    '0 setup waiting 0 PodInitializing',
    '0 web waiting 0 PodInitializing',
    '30 setup running 0',
    '33 setup terminated 0 Completed',
    '33 web running 0',
  ]);
});

test('I2: a sidecar without a startup probe is started once running; its liveness holds nothing back, and a liveness kill restarts only it', () => {
  const yaml = podManifest(`
restartPolicy: Never
initContainers:
  - {name: proxy, image: envoy, restartPolicy: Always, livenessProbe: {tcpSocket: {port: 15000}, periodSeconds: 10, failureThreshold: 3}}
containers:
  - {name: web, image: nginx}`);
  const events = simulated(yaml, 'containers: {proxy: {readyAfter: 1000, stopAfter: 1}}', 45);
  assert.deepEqual(lifecycle(events), [
    '0 proxy running 0',
    '0 web waiting 0 PodInitializing',
    '0 web running 0',
    '31 proxy terminated 0 Error',
    '31 proxy running 1',
  ]);
  assert.deepEqual(kubeletEventLines(events, 'Killing'), ['30 Init container proxy failed liveness probe']);
});

test('I2/K2: a sidecar that fails its startup probe is killed ("Init container … failed startup probe") and restarted; the init containers after it wait', () => {
  const yaml = podManifest(`
terminationGracePeriodSeconds: 5
initContainers:
  - {name: proxy, image: envoy, restartPolicy: Always, startupProbe: {tcpSocket: {port: 15000}, periodSeconds: 10, failureThreshold: 2}}
  - {name: setup, image: busybox}
containers:
  - {name: web, image: nginx}`);
  const events = simulated(yaml, 'containers: {proxy: {readyAfter: 1000}}', 60);
  // Startup failures at 10, 20 (kill, 5 s grace), then on the new container at 30, 40 (kill again).
  assert.deepEqual(kubeletEventLines(events, 'Killing'), ['20 Init container proxy failed startup probe', '40 Init container proxy failed startup probe']);
  assert.deepEqual(containerLines(events, 'proxy'), [
    '0 running sim://web/proxy/0 0',
    '25 terminated sim://web/proxy/0 0 Error',
    '25 running sim://web/proxy/1 1',
    '45 terminated sim://web/proxy/1 1 Error',
    '45 waiting sim://web/proxy/1 1 CrashLoopBackOff',
    '55 running sim://web/proxy/2 2',
  ]);
  assert.deepEqual(containerLines(events, 'setup'), ['0 waiting  0 PodInitializing']);
  assert.deepEqual(containerLines(events, 'web'), ['0 waiting  0 PodInitializing']);
});

test('I3: a failing plain init container is restarted under CrashLoopBackOff (restartPolicy Always and OnFailure); the app containers never start', () => {
  for (const policy of ['Always', 'OnFailure']) {
    const yaml = podManifest(`
restartPolicy: ${policy}
initContainers:
  - {name: migrate, image: app}
containers:
  - {name: web, image: nginx, readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}}`);
    const { clock, events, runtime } = startPod(yaml, { scenario: 'containers: {migrate: {exitAfter: 5, exitCode: 1}}' });
    clock.advanceTo(60 * S);
    const formatted = `web_default(${uidOf(yaml)})`;
    assert.deepEqual(
      only(events, 'container', 'migrate').map((e) => `${e.t} ${e.state} ${e.restartCount}${e.reason ? ` ${e.reason}` : ''}${e.message ? ` | ${e.message}` : ''}`),
      [
        '0 running 0',
        '5 terminated 0 Error',
        '5 running 1',
        '10 terminated 1 Error',
        `10 waiting 1 CrashLoopBackOff | back-off 10s restarting failed container=migrate pod=${formatted}`,
        '20 running 2',
        '25 terminated 2 Error',
        `25 waiting 2 CrashLoopBackOff | back-off 20s restarting failed container=migrate pod=${formatted}`,
        '45 running 3',
        '50 terminated 3 Error',
        `50 waiting 3 CrashLoopBackOff | back-off 40s restarting failed container=migrate pod=${formatted}`,
      ],
      policy,
    );
    assert.deepEqual(kubeletEventLines(events, 'BackOff'), [10, 25, 50].map((t) => `${t} Back-off restarting failed container migrate in pod ${formatted}`), policy);
    assert.deepEqual(containerLines(events, 'web'), ['0 waiting  0 PodInitializing'], policy);
    assert.deepEqual(only(events, 'attempt'), [], `${policy}: no app container, no probe`);
    assert.equal(runtime.phase, 'Pending', policy);
    runtime.dispose();
  }
});

test('I3: with restartPolicy Never a failing plain init container fails the pod: its sidecars stop, the app containers never start, every worker exits', () => {
  const yaml = podManifest(`
restartPolicy: Never
initContainers:
  - {name: proxy, image: envoy, restartPolicy: Always, readinessProbe: {tcpSocket: {port: 15000}, periodSeconds: 10}}
  - {name: migrate, image: app}
containers:
  - {name: web, image: nginx, readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}}`);
  const { clock, events, runtime } = startPod(yaml, { scenario: 'containers: {migrate: {exitAfter: 5, exitCode: 2}}' });
  clock.advanceTo(100 * S);
  assert.deepEqual(lifecycle(events), [
    '0 proxy running 0',
    '0 migrate waiting 0 PodInitializing',
    '0 web waiting 0 PodInitializing',
    '0 migrate running 0',
    '5 migrate terminated 0 Error',
    '5 proxy terminated 0 Completed',
  ]);
  assert.equal(runtime.phase, 'Failed');
  assert.deepEqual(kubeletEventLines(events, 'BackOff'), []);
  assert.ok(only(events, 'attempt').every((e) => e.t <= 5 && e.container === 'proxy'));
  assert.equal(clock.pendingTimers, 0, 'W5.2: the workers of a failed pod exit');
  runtime.dispose();
});

test('I4: only the last started init container decides: a sidecar backing off does not hold back the app once the init after it is done', () => {
  const yaml = podManifest(`
initContainers:
  - {name: proxy, image: envoy, restartPolicy: Always}
  - {name: setup, image: busybox}
containers:
  - {name: web, image: nginx}`);
  // proxy crashes at 5 (restarted at once) and at 10 (backs off until 20); setup exits 0 at 15.
  const events = simulated(yaml, 'containers: {proxy: {exitAfter: 5}, setup: {exitAfter: 15}}', 22);
  assert.deepEqual(lifecycle(events), [
    '0 proxy running 0',
    '0 setup waiting 0 PodInitializing',
    '0 web waiting 0 PodInitializing',
    '0 setup running 0',
    '5 proxy terminated 0 Error',
    '5 proxy running 1',
    '10 proxy terminated 1 Error',
    '10 proxy waiting 1 CrashLoopBackOff',
    '15 setup terminated 0 Completed',
    '15 web running 0',
    '20 proxy running 2',
  ]);
});

test('I1/A5/K3: deleting a pod during initialization stops the running init container (stopAfter honoured); the app containers never start', () => {
  const yaml = podManifest(`
terminationGracePeriodSeconds: 10
initContainers:
  - {name: migrate, image: app}
containers:
  - {name: web, image: nginx, readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}}`);
  const { clock, events, runtime } = startPod(yaml, { scenario: 'containers: {migrate: {exitAfter: 100, stopAfter: 3}}' });
  runtime.deleteAfter(20 * S);
  clock.advanceTo(60 * S);
  assert.deepEqual(kubeletEventLines(events, 'Killing').slice(1), ['20 Stopping container migrate']);
  assert.deepEqual(lifecycle(events), ['0 migrate running 0', '0 web waiting 0 PodInitializing', '23 migrate terminated 0 Error']);
  assert.equal(runtime.phase, 'Failed');
  assert.equal(clock.pendingTimers, 0);
  runtime.dispose();
});

// ---------------------------------------------------------------- the decision alone

const plain = (state: InitContainerView['state'], exitCode = 0): InitContainerView => ({ sidecar: false, created: true, state, exitCode, started: state === 'running' });
const sidecar = (state: InitContainerView['state'], started: boolean): InitContainerView => ({ sidecar: true, created: true, state, exitCode: 0, started });
const notYet: InitContainerView = { sidecar: false, created: false, state: 'waiting', exitCode: 0, started: false };

test('I1–I4: initializationStep, case by case', () => {
  const cases: [string, InitContainerView[], string, boolean, object][] = [
    ['no init containers', [], 'Always', false, { kind: 'initialized' }],
    ['nothing started yet', [notYet, notYet], 'Always', false, { kind: 'start', index: 0 }],
    ['first still running', [plain('running'), notYet], 'Always', false, { kind: 'wait' }],
    ['first done', [plain('terminated'), notYet], 'Always', false, { kind: 'start', index: 1 }],
    ['all done', [plain('terminated'), plain('terminated')], 'Always', false, { kind: 'initialized' }],
    ['first failed', [plain('terminated', 1), notYet], 'OnFailure', false, { kind: 'restart', index: 0 }],
    ['first failed, backing off', [plain('waiting', 1), notYet], 'Always', false, { kind: 'restart', index: 0 }],
    ['first failed, Never', [plain('terminated', 1), notYet], 'Never', false, { kind: 'failed' }],
    ['sidecar running, not started', [sidecar('running', false), notYet], 'Always', false, { kind: 'wait' }],
    ['sidecar started', [sidecar('running', true), notYet], 'Always', false, { kind: 'start', index: 1 }],
    ['last is a started sidecar', [plain('terminated'), sidecar('running', true)], 'Never', false, { kind: 'initialized' }],
    ['sidecar died before the next started', [sidecar('terminated', false), notYet], 'Always', false, { kind: 'wait' }],
    ['an earlier sidecar died: the last decides', [sidecar('waiting', false), plain('terminated')], 'Always', false, { kind: 'initialized' }],
    ['an app container runs', [plain('terminated', 1)], 'Never', true, { kind: 'initialized' }],
  ];
  for (const [label, inits, policy, appRunning, expected] of cases) assert.deepEqual(initializationStep(inits, policy, appRunning), expected, label);
});
