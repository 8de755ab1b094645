/**
 * watchList against a server that breaks the watch protocol (on a Unix socket, as kubectl proxy
 * serves): a line that is not JSON, a line past the bound. Each is a failure, then a relist after
 * the back-off. The API server's own behaviour (410, resume, cuts) is in watch.test.ts.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ApiFailure } from '../../../src/core/kubeclient/apiStatus';
import { KubeApi } from '../../../src/core/kubeclient/kubeApi';
import { watchList } from '../../../src/core/kubeclient/watch';
import { scratchDir } from '../../helpers/scratch';
import { until } from './clusterHarness';

/** A list of one pod; each watch gets `watchBody` (then stays open). */
async function brokenWatchServer(watchBody: string): Promise<{ path: string; lists: () => number; close(): Promise<void> }> {
  const path = join(scratchDir('probe-lens-watch-'), 'api.sock');
  let lists = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    res.sendDate = false;
    res.setHeader('content-type', 'application/json');
    if (!req.url?.includes('watch=1')) {
      lists++;
      res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: String(100 + lists) }, items: [{ metadata: { name: 'web-1', resourceVersion: '100' } }] }));
      return;
    }
    res.write(watchBody);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    lists: () => lists,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('watch: a line that is not JSON is a failure, then a relist after the back-off', { timeout: 30_000 }, async () => {
  const server = await brokenWatchServer('{"type":"ADDED","object":{"metadata":{"name":"web-2","resourceVersion":"102"}}}\nthis is not json\n');
  const api = await KubeApi.open(server.path);
  const syncs: unknown[][] = [];
  const changes: string[] = [];
  const failures: ApiFailure[] = [];
  let recovered = 0;
  const watch = watchList({
    api,
    path: '/api/v1/namespaces/shop/pods',
    backoff: { initialMs: 50, maxMs: 50 },
    onSync: (items) => syncs.push(items),
    onChange: (type, object) => changes.push(`${type} ${(object as { metadata: { name: string } }).metadata.name}`),
    onFailure: (failure) => failures.push(failure),
    onRecovered: () => recovered++,
  });
  try {
    await until(() => syncs.length >= 2, 'the relist');
    assert.deepEqual(changes.slice(0, 1), ['ADDED web-2']);
    assert.equal(failures[0]?.error.sentence, 'the cluster sent a watch line that is not JSON for GET /api/v1/namespaces/shop/pods: Probe Lens tries again; if it keeps happening, see the Probe Lens log.');
    // The relist after the failure is a recovery.
    assert.ok(recovered >= 1);
    assert.equal(server.lists(), syncs.length);
  } finally {
    watch.dispose();
    api.dispose();
    await server.close();
  }
});

test('watch: a line past maxLineBytes is a failure, not held in memory', { timeout: 30_000 }, async () => {
  const server = await brokenWatchServer(`{"type":"ADDED","object":{"metadata":{"name":"${'x'.repeat(4096)}`);
  const api = await KubeApi.open(server.path);
  const failures: ApiFailure[] = [];
  let syncs = 0;
  const watch = watchList({
    api,
    path: '/api/v1/namespaces/shop/pods',
    backoff: { initialMs: 50, maxMs: 50 },
    maxLineBytes: 1024,
    onSync: () => syncs++,
    onChange: () => assert.fail('no event is whole'),
    onFailure: (failure) => failures.push(failure),
  });
  try {
    await until(() => syncs >= 2, 'the relist');
    assert.equal(failures[0]?.error.sentence, 'the cluster sent a watch line longer than 1024 bytes for GET /api/v1/namespaces/shop/pods: Probe Lens tries again; if it keeps happening, see the Probe Lens log.');
  } finally {
    watch.dispose();
    api.dispose();
    await server.close();
  }
});
