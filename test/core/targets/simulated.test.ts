import assert from 'node:assert/strict';
import * as net from 'node:net';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import { desiredPods } from '../../../src/core/engine/manager';
import type { AttemptRequest } from '../../../src/core/engine/target';
import { parseManifest, type ProbeType } from '../../../src/core/manifest';
import { probeGrpc } from '../../../src/core/probers/grpc';
import type { ProbeOutcome } from '../../../src/core/probers/types';
import { probeUserAgent } from '../../../src/core/probers/types';
import { simulatedPodIp } from '../../../src/core/targets/podAddresses';
import { SimulatedTarget } from '../../../src/core/targets/simulated';
import { only, scenario, startPod, webPod } from '../../helpers/engine';

const S = 1000;

/** One attempt against a `SimulatedTarget` on a virtual clock: its outcome and how long it took there. */
function attemptOnClock(target: SimulatedTarget, clock: VirtualClock, request: AttemptRequest): { outcome: ProbeOutcome | undefined; tookMs: number } {
  const began = clock.now();
  let outcome: ProbeOutcome | undefined;
  let tookMs = -1;
  target.attempt(request, (o) => {
    outcome = o;
    tookMs = clock.now() - began;
  });
  clock.advanceBy(3600 * S);
  return { outcome, tookMs };
}

/** The attempt request for `type` of the first container of the manifest's first pod, started at t = 0. */
function requestFor(yaml: string, type: ProbeType): AttemptRequest {
  const pod = desiredPods(parseManifest(yaml))[0];
  assert.ok(pod);
  const container = pod.spec.containers[0];
  const probe = container?.probe(type);
  assert.ok(container && probe);
  return { pod: pod.identity, podSpec: pod.spec, container, type, probe: probe.effective, containerId: 'sim://web/web/0', startedAt: 0, instance: 0 };
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// ---------------------------------------------------------------- G2

test('G2: a gRPC probe at a port nobody listens on takes its whole timeout and says what the real prober says', async () => {
  const clock = new VirtualClock();
  const target = new SimulatedTarget(scenario('containers: {web: {readyAfter: 30}}'), clock);
  const request = requestFor(webPod('readinessProbe: {grpc: {port: 9090}, timeoutSeconds: 1}'), 'readiness');
  const simulated = attemptOnClock(target, clock, request);
  assert.equal(simulated.tookMs, 1 * S, 'the blocking dial retries until the deadline');
  assert.deepEqual(simulated.outcome, { result: 'failure', output: 'timeout: failed to connect service "10.244.0.10:9090" within 1s: context deadline exceeded' });

  // The real prober of this repository, at a closed port on this machine, with the same timeout.
  const port = await closedPort();
  const real = await probeGrpc({ host: '127.0.0.1', port }, { timeoutMs: 1000, userAgent: probeUserAgent(33) });
  assert.deepEqual(real, { result: simulated.outcome?.result, output: (simulated.outcome?.output ?? '').replace('10.244.0.10:9090', `127.0.0.1:${port}`) });
  target.dispose();
});

test('G2: the connect timeout and the RPC timeout print the timeout as Go does (90 s is 1m30s)', () => {
  const clock = new VirtualClock();
  const target = new SimulatedTarget(scenario('containers: {web: {readyAfter: 100, failAfter: 200}}'), clock);
  const request = requestFor(webPod('livenessProbe: {grpc: {port: 9090, service: api}, timeoutSeconds: 90}'), 'liveness');
  const refused = attemptOnClock(target, clock, request);
  assert.deepEqual(refused, { outcome: { result: 'failure', output: 'timeout: failed to connect service "10.244.0.10:9090" within 1m30s: context deadline exceeded' }, tookMs: 90 * S });
  // Past 200 s the app hangs: connected, and the Check RPC runs out the same deadline.
  const hung = attemptOnClock(target, clock, { ...request, startedAt: clock.now() - 250 * S });
  assert.deepEqual(hung, { outcome: { result: 'failure', output: 'timeout: health rpc did not complete within 1m30s' }, tookMs: 90 * S });
  target.dispose();
});

test('G2: in a simulation, gRPC attempts before readyAfter end at their timeout, then SERVING answers at once', () => {
  const { clock, events, runtime } = startPod(webPod('readinessProbe: {grpc: {port: 9090}, periodSeconds: 10, timeoutSeconds: 3}'), { scenario: 'containers: {web: {readyAfter: 15}}' });
  clock.advanceTo(40 * S);
  const refused = 'timeout: failed to connect service "10.244.0.10:9090" within 3s: context deadline exceeded';
  // Attempt lines are stamped when they end. The first attempt (0) is triggered at the start
  // (W13), a second trigger buffered meanwhile re-probes when it ends (3); then on the grid.
  assert.deepEqual(
    only(events, 'attempt', 'web').map((e) => `${e.t - e.durationMs / S} ${e.durationMs} ${e.output}`),
    [`0 3000 ${refused}`, `3 3000 ${refused}`, `13 3000 ${refused}`, '23 0 service healthy', '33 0 service healthy'],
  );
  runtime.dispose();
});

test('G2: other handlers at a closed port are refused at once (HTTP, TCP)', () => {
  const clock = new VirtualClock();
  const target = new SimulatedTarget(scenario('containers: {web: {readyAfter: 30}}'), clock);
  const http = attemptOnClock(target, clock, requestFor(webPod('readinessProbe: {httpGet: {path: /ready, port: 8080}, timeoutSeconds: 5}'), 'readiness'));
  assert.deepEqual(http, { outcome: { result: 'failure', output: 'Get "http://10.244.0.10:8080/ready": dial tcp 10.244.0.10:8080: connect: connection refused' }, tookMs: 0 });
  const tcp = attemptOnClock(target, clock, { ...requestFor(webPod('readinessProbe: {tcpSocket: {port: 8080}, timeoutSeconds: 5}'), 'readiness'), startedAt: clock.now() });
  assert.deepEqual(tcp, { outcome: { result: 'failure', output: 'dial tcp 10.244.0.10:8080: connect: connection refused' }, tookMs: 0 });
  target.dispose();
});

// ---------------------------------------------------------------- SIM1: pod addresses

/** A valid host address of a /24 node range: four octets 0–255, the last never the network (.0) or broadcast (.255) one. */
function assertPodAddress(ip: string): void {
  const octets = ip.split('.').map(Number);
  assert.equal(octets.length, 4, ip);
  assert.ok(octets.every((o) => Number.isInteger(o) && o >= 0 && o <= 255), ip);
  assert.equal(octets[0], 10, ip);
  assert.ok((octets[3] as number) >= 10 && (octets[3] as number) <= 254, ip);
}

test('SIM1: simulated pod IPs are valid and distinct: .10–.254 of one /24, then the next /24 of 10.244.0.0/16, then the next /16', () => {
  assert.deepEqual(
    [0, 1, 244, 245, 299, 62_719, 62_720, 69_999].map(simulatedPodIp),
    ['10.244.0.10', '10.244.0.11', '10.244.0.254', '10.244.1.10', '10.244.1.64', '10.244.255.254', '10.245.0.10', '10.245.29.184'],
  );
  for (const pods of [245, 300, 70_000]) {
    const ips = Array.from({ length: pods }, (_, n) => simulatedPodIp(n));
    for (const ip of ips) assertPodAddress(ip);
    assert.equal(new Set(ips).size, pods, `${pods} pods, ${pods} addresses`);
  }
});

test('SIM1: the target gives each pod its own address, in the order it first probes them, the same every run', () => {
  const clock = new VirtualClock();
  const target = new SimulatedTarget(scenario('containers: {web: {readyAfter: 30}}'), clock);
  const base = requestFor(webPod('readinessProbe: {tcpSocket: {port: 8080}}'), 'readiness');
  const addressOf = (n: number) => {
    const { outcome } = attemptOnClock(target, clock, { ...base, pod: { ...base.pod, uid: `uid-${n}` }, startedAt: clock.now() });
    return /dial tcp ([\d.]+):8080/.exec(outcome?.output ?? '')?.[1];
  };
  const ips = Array.from({ length: 300 }, (_, n) => addressOf(n));
  assert.equal(ips[244], '10.244.0.254');
  assert.equal(ips[245], '10.244.1.10');
  assert.equal(ips[299], '10.244.1.64');
  assert.equal(addressOf(0), '10.244.0.10', 'a pod keeps its address');
  target.dispose();
});
