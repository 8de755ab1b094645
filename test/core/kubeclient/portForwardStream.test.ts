/**
 * Port-forward over WebSocket through Probe Lens's kubectl proxy to the test API server (1.32 and
 * 1.29), to a real HTTP server on 127.0.0.1 playing the pod's app: data both ways, a refused port
 * (the kubelet's message on the error channel, then the close), a cut, RBAC's 403, a missing pod,
 * and the bridge to a local socket that the HTTP and gRPC probers connect to.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { KubeApi } from '../../../src/core/kubeclient/kubeApi';
import { bridge, openPortForward, type PortForwardEnd, type PortForwardStream } from '../../../src/core/kubeclient/portForwardStream';
import { activeCounts, grew } from '../../helpers/activeResources';
import { freePort, startHttpServer, type TestServer } from '../../helpers/httpServers';
import { type Cluster, connect, SERVER_VERSIONS, startCluster, until } from './clusterHarness';

/** What a stream did, in order: `open`, `data`, `close`. */
function follow(api: KubeApi, port: number, pod = 'web-1'): { stream: PortForwardStream; events: string[]; data: () => string; closed: Promise<PortForwardEnd> } {
  const events: string[] = [];
  const chunks: Buffer[] = [];
  let closed: (end: PortForwardEnd) => void = () => undefined;
  const whenClosed = new Promise<PortForwardEnd>((resolve) => (closed = resolve));
  const stream = openPortForward(api, { namespace: 'shop', pod, port }, {
    onOpen: () => events.push('open'),
    onData: (chunk) => {
      if (events.at(-1) !== 'data') events.push('data');
      chunks.push(chunk);
    },
    onClose: (end) => {
      events.push('close');
      closed(end);
    },
  });
  return { stream, events, data: () => Buffer.concat(chunks).toString('utf8'), closed: whenClosed };
}

const REQUEST = 'GET /healthz HTTP/1.1\r\nHost: 10.244.1.5:8080\r\nConnection: close\r\n\r\n';

for (const version of SERVER_VERSIONS) {
  describe(`port-forward over WebSocket against a ${version} server`, () => {
    let cluster: Cluster;
    let api: KubeApi;
    let app: TestServer;
    before(async () => {
      app = await startHttpServer((req, res) => {
        const body: Buffer[] = [];
        req.on('data', (chunk: Buffer) => body.push(chunk));
        req.on('end', () => res.end(req.method === 'POST' ? `echo:${Buffer.concat(body).length}` : `ok ${req.url}`));
      });
      cluster = await startCluster(version);
      // 9090: a port of the pod nothing listens on (dialling it is refused).
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web', ports: { 8080: app.port, 9090: await freePort() } }] });
      ({ api } = await connect(cluster));
    });
    after(async () => {
      api.dispose();
      await cluster.dispose();
      await app.close();
    });

    test('data both ways: an HTTP exchange with the app in the pod, then a clean close', { timeout: 30_000 }, async () => {
      const forward = follow(api, 8080);
      // Written before the open: queued, sent on the open.
      forward.stream.write(Buffer.from(REQUEST));
      const end = await forward.closed;
      assert.deepEqual(end, { cut: false });
      assert.match(forward.data(), /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(forward.data(), /ok \/healthz$/);
      assert.deepEqual(forward.events, ['open', 'data', 'close']);
      assert.equal(forward.stream.state, 'closed');
      const record = cluster.server.portForwards().at(-1);
      assert.deepEqual(record?.ports, [8080]);
      assert.equal(record?.protocol, 'v4.channel.k8s.io');
    });

    test('a large upload is not lost (1 MiB, echoed as its length)', { timeout: 30_000 }, async () => {
      const forward = follow(api, 8080);
      const body = Buffer.alloc(1024 * 1024, 7);
      forward.stream.write(Buffer.from(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`));
      for (let i = 0; i < body.length; i += 16 * 1024) forward.stream.write(body.subarray(i, i + 16 * 1024));
      await forward.closed;
      assert.match(forward.data(), /echo:1048576$/);
    });

    test('nothing listens on the port: the kubelet\'s `connection refused` arrives before the close, and is in onClose', { timeout: 30_000 }, async () => {
      const forward = follow(api, 9090);
      const end = await forward.closed;
      assert.equal(end.cut, false);
      assert.equal(end.failure, undefined);
      assert.match(end.remoteError ?? '', /^error forwarding port 9090 to pod [0-9a-f]+, uid : failed to execute portforward in network namespace .*dial tcp4 127\.0\.0\.1:9090: connect: connection refused/);
      assert.deepEqual(forward.events, ['open', 'close']);
    });

    test('a cut (the connection drops without a close frame): cut: true', { timeout: 30_000 }, async () => {
      const forward = follow(api, 8080);
      // A request the app does not finish: the connection stays up until the cut.
      forward.stream.write(Buffer.from('POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n'));
      await until(() => cluster.server.livePortForwards() === 1, 'the port-forward on the server');
      assert.equal(cluster.server.cutPortForwards('web-1'), 1);
      const end = await forward.closed;
      assert.equal(end.cut, true);
      assert.equal(end.failure, undefined);
    });

    test('RBAC forbids port-forward: failure forbidden, the Status message read whole', { timeout: 30_000 }, async () => {
      const rule = cluster.server.forbid('pods/portforward', { namespace: 'shop' });
      try {
        const forward = follow(api, 8080);
        const end = await forward.closed;
        assert.equal(end.failure?.status, 403);
        assert.equal(end.failure?.error.kind, 'forbidden');
        assert.equal(end.failure?.error.sentence, 'user "dev" may not get pods/portforward (port-forward to pods) in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.');
        assert.equal(end.cut, false);
        assert.deepEqual(forward.events, ['close']);
      } finally {
        rule.dispose();
      }
    });

    test('a pod that is not there: failure not-found', { timeout: 30_000 }, async () => {
      const forward = follow(api, 8080, 'web-9');
      const end = await forward.closed;
      assert.equal(end.failure?.status, 404);
      assert.equal(end.failure?.error.sentence, 'the cluster has no pod "web-9": apply the manifest, or check the namespace it is looked for in.');
    });

    test('end() closes it cleanly; writes after it are dropped', { timeout: 30_000 }, async () => {
      const forward = follow(api, 8080);
      await until(() => forward.stream.state === 'open', 'the open');
      forward.stream.end();
      forward.stream.write(Buffer.from('late'));
      const end = await forward.closed;
      assert.deepEqual(end, { cut: false });
    });

    test('bridge: an HTTP client on a local listener talks to the app in the pod; both sides end', { timeout: 30_000 }, async () => {
      const bridges = new Set<{ dispose(): void }>();
      const listener = net.createServer((socket) => bridges.add(bridge(socket, openPortForward(api, { namespace: 'shop', pod: 'web-1', port: 8080 }))));
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      try {
        const port = (listener.address() as net.AddressInfo).port;
        for (const path of ['/a', '/b']) {
          const body = await new Promise<string>((resolve, reject) => {
            http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve(`${res.statusCode} ${text}`));
            }).on('error', reject);
          });
          assert.equal(body, `200 ok ${path}`);
        }
        await until(() => cluster.server.livePortForwards() === 0, 'the port-forwards closed');
      } finally {
        for (const b of bridges) b.dispose();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      }
    });

    test('bridge: an 8 MiB upload goes through whole', { timeout: 30_000 }, async () => {
      const listener = net.createServer((socket) => bridge(socket, openPortForward(api, { namespace: 'shop', pod: 'web-1', port: 8080 }), { highWaterMark: 256 * 1024 }));
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      try {
        const port = (listener.address() as net.AddressInfo).port;
        const size = 8 * 1024 * 1024;
        const answer = await new Promise<string>((resolve, reject) => {
          const request = http.request({ host: '127.0.0.1', port, path: '/upload', method: 'POST', agent: false, headers: { 'content-length': size } }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve(text));
          });
          request.on('error', reject);
          const chunk = Buffer.alloc(64 * 1024, 1);
          let sent = 0;
          const pump = (): void => {
            while (sent < size) {
              sent += chunk.length;
              if (!request.write(chunk)) return void request.once('drain', pump);
            }
            request.end();
          };
          pump();
        });
        assert.equal(answer, `echo:${size}`);
      } finally {
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      }
    });

    test('bridge: a refused port resets the local connection', { timeout: 30_000 }, async () => {
      const listener = net.createServer((socket) => bridge(socket, openPortForward(api, { namespace: 'shop', pod: 'web-1', port: 9090 })));
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      try {
        const port = (listener.address() as net.AddressInfo).port;
        const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
          http.get({ host: '127.0.0.1', port, path: '/', agent: false }, () => assert.fail('no response')).on('error', resolve);
        });
        assert.equal(error.code, 'ECONNRESET');
      } finally {
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      }
    });
  });
}

test('a port-forward leaves no socket or timer once closed', { timeout: 30_000 }, async () => {
  const app = await startHttpServer((_req, res) => res.end('ok'));
  const cluster = await startCluster('1.32');
  try {
    cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web', ports: { 8080: app.port } }] });
    const { api } = await connect(cluster);
    const warm = follow(api, 8080);
    warm.stream.write(Buffer.from(REQUEST));
    await warm.closed;
    api.dispose();
    const { api: second } = await connect(cluster);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = activeCounts();
    const forward = follow(second, 8080);
    forward.stream.write(Buffer.from(REQUEST));
    await forward.closed;
    second.dispose();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!grew(before, activeCounts()), `left behind: ${JSON.stringify(activeCounts())} (before ${JSON.stringify(before)})`);
  } finally {
    await cluster.dispose();
    await app.close();
  }
});
