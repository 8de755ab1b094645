import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseManifest } from '../../../src/core/manifest';
import { resolveHandler } from '../../../src/core/targets/resolve';
import { podWith } from '../../helpers/manifests';

function containerWith(fields: string) {
  const container = parseManifest(podWith(fields)).documents[0]?.podSpecs[0]?.containers[0];
  if (!container) throw new Error('no container');
  return container;
}

test('D3: a gRPC probe without service checks the empty service name (overall server health)', () => {
  const container = containerWith('readinessProbe: {grpc: {port: 9090}}');
  const resolution = resolveHandler(container.probe('readiness')?.effective.handler, container, '10.0.0.5');
  assert.deepEqual(resolution, { ok: true, handler: { type: 'grpc', host: '10.0.0.5', port: 9090, service: '' } });
});

test('G1: a gRPC probe always goes to the pod IP', () => {
  const container = containerWith('readinessProbe: {grpc: {port: 9090, service: api}}');
  const resolution = resolveHandler(container.probe('readiness')?.effective.handler, container, '10.0.0.5');
  assert.deepEqual(resolution, { ok: true, handler: { type: 'grpc', host: '10.0.0.5', port: 9090, service: 'api' } });
});

test('H1/T1: httpGet.host and tcpSocket.host replace the pod IP; a named port resolves first (N2)', () => {
  const container = containerWith(`ports: [{name: http, containerPort: 8080}]
livenessProbe: {httpGet: {host: 10.9.9.9, port: http, path: /z}}
readinessProbe: {tcpSocket: {port: http}}`);
  const http = resolveHandler(container.probe('liveness')?.effective.handler, container, '10.0.0.5');
  const tcp = resolveHandler(container.probe('readiness')?.effective.handler, container, '10.0.0.5');
  assert.deepEqual(http, { ok: true, handler: { type: 'httpGet', scheme: 'HTTP', host: '10.9.9.9', port: 8080, path: '/z', headers: [] } });
  assert.deepEqual(tcp, { ok: true, handler: { type: 'tcpSocket', host: '10.0.0.5', port: 8080 } });
});

test('P1: a probe with no handler is an error naming the pod and container', () => {
  const container = containerWith('readinessProbe: {periodSeconds: 5}');
  assert.deepEqual(resolveHandler(container.probe('readiness')?.effective.handler, container, '10.0.0.5'), { ok: false, error: 'missing probe handler for web:web' });
});
