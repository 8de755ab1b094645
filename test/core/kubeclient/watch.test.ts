/**
 * watchList through Probe Lens's kubectl proxy against the test API server (1.32 and 1.29): the
 * list, the events, resuming from the last resourceVersion when the server ends a watch, a relist
 * on 410 Expired, reconnecting after kubectl proxy dies mid-watch, and nothing left on dispose.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiFailure } from '../../../src/core/kubeclient/apiStatus';
import { KubeApi } from '../../../src/core/kubeclient/kubeApi';
import type { KubectlProxy } from '../../../src/core/kubeclient/kubectlProxy';
import { watchList, type WatchListOptions } from '../../../src/core/kubeclient/watch';
import { activeCounts, grew } from '../../helpers/activeResources';
import { type Cluster, connect, SERVER_VERSIONS, startCluster, until } from './clusterHarness';

interface Recorder {
  readonly syncs: string[][];
  readonly changes: string[];
  readonly failures: ApiFailure[];
  recovered: number;
  readonly options: Pick<WatchListOptions, 'onSync' | 'onChange' | 'onFailure' | 'onRecovered'>;
}

function recorder(): Recorder {
  const names = (items: unknown[]) => items.map((item) => (item as { metadata: { name: string } }).metadata.name);
  const record: Recorder = {
    syncs: [],
    changes: [],
    failures: [],
    recovered: 0,
    options: {
      onSync: (items) => record.syncs.push(names(items)),
      onChange: (type, object) => record.changes.push(`${type} ${(object as { metadata: { name: string } }).metadata.name}`),
      onFailure: (failure) => record.failures.push(failure),
      onRecovered: () => record.recovered++,
    },
  };
  return record;
}

const PODS = '/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb';

/** Watch requests the server has had: a new one is recorded as it arrives, subscribed at once. */
function watchRequests(cluster: Cluster): number {
  return cluster.server.requests().filter((r) => r.path.includes('watch=1')).length;
}

/** Starts a watch and waits until its watch request is on the server (so changes after it are seen). */
async function startWatch(cluster: Cluster, options: Omit<WatchListOptions, 'path'>): Promise<{ dispose(): Promise<void> }> {
  const before = watchRequests(cluster);
  const watch = watchList({ path: PODS, ...options });
  await until(() => watchRequests(cluster) > before, 'the watch request');
  return {
    dispose: async () => {
      watch.dispose();
      // kubectl proxy ends its own request upstream when ours ends.
      await until(() => cluster.server.liveWatches() === 0, 'the watch closed on the server');
    },
  };
}

for (const version of SERVER_VERSIONS) {
  describe(`watchList against a ${version} server`, () => {
    let cluster: Cluster;
    let proxy: KubectlProxy;
    let api: KubeApi;
    before(async () => {
      cluster = await startCluster(version);
      ({ proxy, api } = await connect(cluster, { backoff: { initialMs: 100, maxMs: 400, stableMs: 60_000 } }));
    });
    after(async () => {
      api.dispose();
      await cluster.dispose();
    });

    test('the list, then ADDED / MODIFIED / DELETED as they happen (other labels not shown)', { timeout: 30_000 }, async () => {
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
      cluster.server.addPod({ name: 'db-0', namespace: 'shop', labels: { app: 'db' }, containers: [{ name: 'db' }] });
      const record = recorder();
      const watch = await startWatch(cluster, { api, ...record.options });
      try {
        assert.deepEqual(record.syncs, [['web-1']]);
        cluster.server.addPod({ name: 'web-2', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
        cluster.server.restartContainer({ namespace: 'shop', name: 'web-1' }, 'web');
        await cluster.server.deletePod({ namespace: 'shop', name: 'web-2' });
        await until(() => record.changes.length === 3, 'three events');
        assert.deepEqual(record.changes, ['ADDED web-2', 'MODIFIED web-1', 'DELETED web-2']);
        assert.deepEqual(record.failures, []);
      } finally {
        await watch.dispose();
        await cluster.server.deletePod({ namespace: 'shop', name: 'web-1' });
        await cluster.server.deletePod({ namespace: 'shop', name: 'db-0' });
      }
    });

    test('the server ends the watch (its timeout): the next starts from the last resourceVersion, without a relist', { timeout: 30_000 }, async () => {
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
      const record = recorder();
      const watch = await startWatch(cluster, { api, ...record.options });
      try {
        cluster.server.setReady({ namespace: 'shop', name: 'web-1' }, 'web', false);
        await until(() => record.changes.length === 1, 'the first event');
        const last = cluster.server.resourceVersion();
        const watchesBefore = watchRequests(cluster);
        cluster.server.endWatches();
        await until(() => watchRequests(cluster) === watchesBefore + 1, 'the next watch');
        const next = cluster.server.requests().filter((r) => r.path.includes('watch=1')).at(-1);
        assert.match(next?.path ?? '', new RegExp(`[?&]resourceVersion=${last}(&|$)`));
        assert.match(next?.path ?? '', /allowWatchBookmarks=true/);
        assert.match(next?.path ?? '', /timeoutSeconds=300/);
        cluster.server.setReady({ namespace: 'shop', name: 'web-1' }, 'web', true);
        await until(() => record.changes.length === 2, 'the event after the resume');
        assert.deepEqual(record.changes, ['MODIFIED web-1', 'MODIFIED web-1']);
        assert.equal(record.syncs.length, 1, 'no relist');
        assert.deepEqual(record.failures, []);
      } finally {
        await watch.dispose();
        await cluster.server.deletePod({ namespace: 'shop', name: 'web-1' });
      }
    });

    test('410 Expired (the resourceVersion is too old): a relist, then watching on', { timeout: 30_000 }, async () => {
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
      const record = recorder();
      const watch = await startWatch(cluster, { api, backoff: { initialMs: 100, maxMs: 400 }, ...record.options });
      try {
        // The server's history no longer reaches back to the watcher's resourceVersion (a change
        // elsewhere moves the cluster's version past it, as compaction does).
        cluster.server.expireWatchesBefore(cluster.server.resourceVersion() + 1);
        cluster.server.addPod({ name: 'db-0', namespace: 'shop', labels: { app: 'db' }, containers: [{ name: 'db' }] });
        cluster.server.endWatches();
        const watchesBefore = watchRequests(cluster);
        await until(() => record.syncs.length === 2, 'the relist');
        // The watch that got the 410, then the one after the relist.
        await until(() => watchRequests(cluster) === watchesBefore + 2, 'the watch after the relist');
        assert.deepEqual(record.failures, [], 'a 410 is routine, not a failure');
        cluster.server.addPod({ name: 'web-3', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
        await until(() => record.changes.includes('ADDED web-3'), 'events after the relist');
      } finally {
        await watch.dispose();
        await cluster.server.deletePod({ namespace: 'shop', name: 'web-1' });
        await cluster.server.deletePod({ namespace: 'shop', name: 'web-3' });
        await cluster.server.deletePod({ namespace: 'shop', name: 'db-0' });
      }
    });

    test('kubectl proxy dies mid-watch: failures while it is down, then the watch resumes from its resourceVersion', { timeout: 30_000 }, async () => {
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
      const record = recorder();
      const watch = await startWatch(cluster, { api, backoff: { initialMs: 50, maxMs: 200 }, ...record.options });
      try {
        process.kill(-(proxy.pid as number), 'SIGKILL');
        await until(() => record.failures.length > 0, 'a failure while the proxy is down');
        assert.equal(record.failures[0]?.error.kind, 'unreachable');
        await until(() => proxy.state === 'up' && record.recovered > 0, 'the proxy back, and the watch with it', 10_000);
        cluster.server.setReady({ namespace: 'shop', name: 'web-1' }, 'web', false);
        await until(() => record.changes.includes('MODIFIED web-1'), 'events after the cut');
        assert.equal(record.syncs.length, 1, 'resumed from the resourceVersion, no relist');
      } finally {
        await watch.dispose();
        await cluster.server.deletePod({ namespace: 'shop', name: 'web-1' });
      }
    });

    test('410 for the very version a list just gave: the relist waits for the back-off (no busy loop)', { timeout: 30_000 }, async () => {
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
      // Every version up to the next is expired, and nothing changes: each list gives one a watch refuses.
      cluster.server.expireWatchesBefore(cluster.server.resourceVersion() + 1);
      const record = recorder();
      const lists = () => cluster.server.requests().filter((r) => r.path === PODS).length;
      const before = lists();
      const watch = watchList({ api, path: PODS, backoff: { initialMs: 200, maxMs: 200 }, ...record.options });
      try {
        await sleep(700);
        const made = lists() - before;
        assert.ok(made >= 2 && made <= 5, `${made} lists in 700 ms`);
        assert.deepEqual(record.failures, []);
        // Once the cluster moves on, the watch holds.
        cluster.server.setReady({ namespace: 'shop', name: 'web-1' }, 'web', false);
        const settled = lists();
        await sleep(600);
        assert.ok(lists() - settled <= 1, 'no more relists once the version is watchable');
      } finally {
        watch.dispose();
        await cluster.server.deletePod({ namespace: 'shop', name: 'web-1' });
      }
    });

    test('a forbidden list: kind forbidden, retried with back-off until allowed', { timeout: 30_000 }, async () => {
      const rule = cluster.server.forbid('pods', { namespace: 'shop' });
      const record = recorder();
      const watch = watchList({ api, path: PODS, backoff: { initialMs: 50, maxMs: 100 }, ...record.options });
      try {
        await until(() => record.failures.length >= 2, 'two failed lists');
        assert.equal(record.failures[0]?.status, 403);
        assert.equal(record.failures[0]?.error.sentence, 'user "dev" may not list pods in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.');
        rule.dispose();
        await until(() => record.syncs.length === 1 && record.recovered === 1, 'the list once allowed');
      } finally {
        watch.dispose();
      }
    });
  });
}

test('dispose stops the list or watch in flight, and leaves no socket or timer', { timeout: 30_000 }, async () => {
  const cluster = await startCluster('1.32');
  const { proxy, api: first } = await connect(cluster);
  first.dispose();
  try {
    cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
    await sleep(50);
    const before = activeCounts();
    const api = await KubeApi.open(proxy.socketPath);
    const record = recorder();
    const watch = watchList({ api, path: PODS, ...record.options });
    await until(() => cluster.server.liveWatches() === 1, 'the watch');
    watch.dispose();
    api.dispose();
    await until(() => cluster.server.liveWatches() === 0, 'the watch closed on the server');
    await sleep(100);
    assert.ok(!grew(before, activeCounts()), `left behind: ${JSON.stringify(activeCounts())} (before ${JSON.stringify(before)})`);
    // Nothing more is reported after dispose.
    cluster.server.setReady({ namespace: 'shop', name: 'web-1' }, 'web', false);
    await sleep(100);
    assert.deepEqual(record.changes, []);
  } finally {
    proxy.dispose();
    await cluster.dispose();
  }
});
