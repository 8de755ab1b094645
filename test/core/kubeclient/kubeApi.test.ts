/**
 * KubeApi over a Unix socket, against real HTTP and WebSocket servers on a socket of their own
 * (what kubectl proxy looks like to Probe Lens): bounded answers, deadlines, the proxy gone, and
 * a refused WebSocket upgrade read whole although undici's WebSocket would drop its body.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer } from 'ws';
import { RealClock } from '../../../src/core/base/clock';
import { KubeApi } from '../../../src/core/kubeclient/kubeApi';
import { activeCounts, grew } from '../../helpers/activeResources';
import { scratchDir } from '../../helpers/scratch';

interface SocketServer {
  readonly path: string;
  close(): Promise<void>;
}

/** An HTTP server on a Unix socket; `onUpgrade` takes WebSocket upgrade requests. */
async function socketServer(handler: http.RequestListener, onUpgrade?: (req: http.IncomingMessage, socket: Socket, head: Buffer) => void): Promise<SocketServer> {
  const path = join(scratchDir('probe-lens-kubeapi-'), 'api.sock');
  const server = http.createServer((req, res) => {
    res.sendDate = false;
    handler(req, res);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  if (onUpgrade) server.on('upgrade', (req, socket, head) => onUpgrade(req, socket as Socket, head));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('getJson: the JSON body', { timeout: 30_000 }, async () => {
  const server = await socketServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, host: req.headers.host }));
  });
  const api = await KubeApi.open(server.path);
  try {
    const result = await api.getJson<{ path: string; host: string }>('/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb', { timeoutMs: 5000 });
    // Host `localhost`: kubectl proxy's --accept-hosts lets only loopback names in.
    assert.deepEqual(result, { ok: true, value: { path: '/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb', host: 'localhost' } });
  } finally {
    api.dispose();
    await server.close();
  }
});

test('getJson: an answer past maxBytes is cut and is a failure', { timeout: 30_000 }, async () => {
  const server = await socketServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ items: 'x'.repeat(4096) }));
  });
  const api = await KubeApi.open(server.path);
  try {
    const result = await api.getJson('/api/v1/pods', { timeoutMs: 5000, maxBytes: 1024 });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.match(result.failure.error.sentence, /was larger than 1024 bytes/);
  } finally {
    api.dispose();
    await server.close();
  }
});

test('getJson: no answer within timeoutMs is kind timeout, on time', { timeout: 30_000 }, async () => {
  const server = await socketServer(() => undefined);
  const api = await KubeApi.open(server.path, new RealClock());
  try {
    const started = performance.now();
    const result = await api.getJson('/version', { timeoutMs: 300 });
    const took = performance.now() - started;
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.failure.error.kind, 'timeout');
    assert.ok(took >= 290 && took < 800, `took ${Math.round(took)} ms`);
  } finally {
    api.dispose();
    await server.close();
  }
});

test('getJson: a Status answer is the failure it says', { timeout: 30_000 }, async () => {
  const server = await socketServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'namespaces "shop" not found', reason: 'NotFound', code: 404 }));
  });
  const api = await KubeApi.open(server.path);
  try {
    const result = await api.getJson('/api/v1/namespaces/shop/pods', { timeoutMs: 5000 });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.failure.status, 404);
    assert.equal(result.failure.error.kind, 'namespace-not-found');
  } finally {
    api.dispose();
    await server.close();
  }
});

test('getJson: not JSON is a failure, not a throw', { timeout: 30_000 }, async () => {
  const server = await socketServer((_req, res) => res.end('<html>hello</html>'));
  const api = await KubeApi.open(server.path);
  try {
    const result = await api.getJson('/version', { timeoutMs: 5000 });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.match(result.failure.error.sentence, /not JSON/);
  } finally {
    api.dispose();
    await server.close();
  }
});

test('getJson: nobody on the socket (kubectl proxy gone) is kind unreachable', { timeout: 30_000 }, async () => {
  const api = await KubeApi.open(join(scratchDir('probe-lens-kubeapi-'), 'api.sock'));
  try {
    const result = await api.getJson('/version', { timeoutMs: 5000 });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.failure.error.kind, 'unreachable');
    assert.match(result.failure.error.sentence, /^Probe Lens's kubectl proxy did not answer \(.*ENOENT.*\)/);
  } finally {
    api.dispose();
  }
});

test('getJson: the caller\'s signal stops it', { timeout: 30_000 }, async () => {
  const server = await socketServer(() => undefined);
  const api = await KubeApi.open(server.path);
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await api.getJson('/version', { timeoutMs: 5000, signal: controller.signal });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.match(result.failure.detail, /stopped/);
  } finally {
    api.dispose();
    await server.close();
  }
});

test('openWebSocket: a refused upgrade is read whole (status and Status body, sent apart) before the close event', { timeout: 30_000 }, async () => {
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "web-1" is forbidden: User "jane" cannot create resource "pods/portforward" in API group "" in the namespace "shop"', reason: 'Forbidden', code: 403 };
  const body = JSON.stringify(status);
  const server = await socketServer(
    () => undefined,
    (_req, socket) => {
      // As kubectl proxy relays an API server's refusal: headers first, the body a moment later.
      socket.write(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      setTimeout(() => socket.end(body), 100);
    },
  );
  const api = await KubeApi.open(server.path);
  try {
    const order: string[] = [];
    let sentence = '';
    const ws = api.openWebSocket('/api/v1/namespaces/shop/pods/web-1/portforward?ports=8080', ['v4.channel.k8s.io'], (failure) => {
      order.push(`refused ${failure.status}`);
      sentence = failure.error.sentence;
    });
    await new Promise<void>((resolve) => ws.addEventListener('close', () => (order.push('close'), resolve())));
    assert.deepEqual(order, ['refused 403', 'close']);
    assert.equal(sentence, 'user "jane" may not create pods/portforward (port-forward to pods) in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.');
  } finally {
    api.dispose();
    await server.close();
  }
});

test('openWebSocket: the socket gone is a refusal of kind unreachable', { timeout: 30_000 }, async () => {
  const api = await KubeApi.open(join(scratchDir('probe-lens-kubeapi-'), 'api.sock'));
  try {
    let kind = '';
    const ws = api.openWebSocket('/api/v1/namespaces/shop/pods/web-1/exec?command=true', ['v4.channel.k8s.io'], (failure) => (kind = failure.error.kind));
    await new Promise((resolve) => ws.addEventListener('close', resolve));
    assert.equal(kind, 'unreachable');
  } finally {
    api.dispose();
  }
});

test('openWebSocket: an accepted upgrade is undici\'s WebSocket, binary as ArrayBuffer; dispose closes it and leaves nothing', { timeout: 30_000 }, async () => {
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => [...offered][0] ?? false });
  wss.on('connection', (ws) => ws.send(Buffer.from([1, 104, 105])));
  const server = await socketServer(
    () => undefined,
    (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
  );
  const before = activeCounts();
  const api = await KubeApi.open(server.path);
  const ws = api.openWebSocket('/x', ['v4.channel.k8s.io']);
  const message = await new Promise<unknown>((resolve) => ws.addEventListener('message', (event) => resolve(event.data)));
  assert.ok(message instanceof ArrayBuffer);
  assert.deepEqual([...new Uint8Array(message)], [1, 104, 105]);
  assert.equal(ws.protocol, 'v4.channel.k8s.io');
  const closed = new Promise((resolve) => ws.addEventListener('close', resolve));
  api.dispose();
  await closed;
  await server.close();
  wss.close();
  await sleep(50);
  assert.ok(!grew(before, activeCounts()), `left behind: ${JSON.stringify(activeCounts())} (before ${JSON.stringify(before)})`);
});
