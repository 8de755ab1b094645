/**
 * The local target telling "nothing listens there" apart from other failures, with real
 * servers and real closed ports on 127.0.0.1: what the extension's *Map Port…* hint is built on.
 */
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AttemptRequest } from '../../../src/core/engine/target';
import { parseManifest, type PodSpecModel, type ProbeType } from '../../../src/core/manifest';
import type { ProbeOutcome } from '../../../src/core/probers/types';
import { LocalTarget, type LocalTargetOptions, type PortRefusal } from '../../../src/core/targets/local';
import { freePort, startHttpServer } from '../../helpers/httpServers';

function specOf(probes: string, port: number): PodSpecModel {
  const yaml = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: web
      image: web
      ports: [{name: http, containerPort: ${port}}]
${probes}`;
  const spec = parseManifest(yaml).documents[0]?.podSpecs[0];
  assert.ok(spec, 'a pod spec');
  return spec;
}

function request(spec: PodSpecModel, type: ProbeType): AttemptRequest {
  const container = spec.containers[0];
  const probe = container?.probe(type);
  assert.ok(container && probe, `a ${type} probe`);
  return { pod: { name: 'web', namespace: 'default', uid: 'uid-web' }, podSpec: spec, container, type, probe: probe.effective, containerId: 'local://web/0', startedAt: 0, instance: 0 };
}

function target(refusals: PortRefusal[], options: Partial<LocalTargetOptions> = {}): LocalTarget {
  return new LocalTarget({ host: '127.0.0.1', portMap: new Map(), allowExec: false, allowedHosts: new Set(), minorVersion: 33, baseEnv: {}, onNothingListening: (r) => refusals.push(r), ...options });
}

function attempt(local: LocalTarget, req: AttemptRequest): Promise<ProbeOutcome> {
  return new Promise((resolve) => local.attempt(req, resolve));
}

test('an HTTP or TCP probe refused on the loopback says which container port found nothing listening', async () => {
  const closed = await freePort();
  const refusals: PortRefusal[] = [];
  const local = target(refusals);
  try {
    const http = await attempt(local, request(specOf('      livenessProbe: {httpGet: {path: /healthz, port: http}}\n', closed), 'liveness'));
    assert.equal(http.result, 'failure');
    assert.match(http.output, /connect: connection refused$/);
    const tcp = await attempt(local, request(specOf('      readinessProbe: {tcpSocket: {port: http}}\n', closed), 'readiness'));
    assert.equal(tcp.result, 'failure');
    assert.deepEqual(refusals, [
      { host: '127.0.0.1', containerPort: closed, localPort: closed },
      { host: '127.0.0.1', containerPort: closed, localPort: closed },
    ], 'told every time: the listener decides how often to say so');
  } finally {
    local.dispose();
  }
});

test('a mapped port that is refused names both the container port and the local one; a listening app is not a refusal', async () => {
  const app = await startHttpServer((_req, res) => {
    res.statusCode = 503;
    res.end('down');
  });
  const closed = await freePort();
  const refusals: PortRefusal[] = [];
  const portMap = new Map([[8080, closed]]);
  const local = target(refusals, { portMap });
  try {
    const spec = specOf('      livenessProbe: {httpGet: {path: /healthz, port: http}}\n', 8080);
    await attempt(local, request(spec, 'liveness'));
    assert.deepEqual(refusals, [{ host: '127.0.0.1', containerPort: 8080, localPort: closed }]);
    // The map is read per attempt: mapping the port to the app ends the refusals.
    portMap.set(8080, app.port);
    const failing = await attempt(local, request(spec, 'liveness'));
    assert.equal(failing.result, 'failure', 'a 503 is a failure');
    assert.equal(refusals.length, 1, 'but the app listens: no refusal');
  } finally {
    local.dispose();
    await app.close();
  }
});

test('a gRPC connect timeout is checked once per port with a TCP dial: refused → told', async () => {
  const closed = await freePort();
  const refusals: PortRefusal[] = [];
  const local = target(refusals);
  try {
    const spec = specOf(`      startupProbe: {grpc: {port: ${closed}}, timeoutSeconds: 1}\n`, closed);
    const first = await attempt(local, request(spec, 'startup'));
    assert.match(first.output, /^timeout: failed to connect service/);
    const end = performance.now() + 3000;
    while (refusals.length === 0 && performance.now() < end) await sleep(20);
    assert.deepEqual(refusals, [{ host: '127.0.0.1', containerPort: closed, localPort: closed }]);
    await attempt(local, request(spec, 'startup'));
    await sleep(300);
    assert.equal(refusals.length, 1, 'the check ran once for the port');
  } finally {
    local.dispose();
  }
});

test('a refusal on a host that is not the loopback is not a port-mapping matter', async (t) => {
  // This machine's own non-loopback address: refuses like the loopback, without leaving the machine.
  const own = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (!own) return t.skip('no non-loopback IPv4 address on this machine');
  const closed = await freePort(own);
  const refusals: PortRefusal[] = [];
  const local = target(refusals, { allowedHosts: 'any' });
  try {
    const viaLocalhost = await attempt(local, request(specOf(`      livenessProbe: {tcpSocket: {host: localhost, port: ${closed}}}\n`, closed), 'liveness'));
    assert.equal(viaLocalhost.result, 'failure');
    assert.equal(refusals.length, 1, 'localhost is the loopback: told');
    const elsewhere = await attempt(local, request(specOf(`      livenessProbe: {tcpSocket: {host: ${own}, port: ${closed}}}\n`, closed), 'liveness'));
    assert.match(elsewhere.output, /connect: connection refused$/);
    assert.equal(refusals.length, 1, `${own} is not the loopback: not told`);
  } finally {
    local.dispose();
  }
});
