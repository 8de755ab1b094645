/**
 * Probe Lens's kubectl proxy, through the real kubectl against the test API server (1.32 and
 * 1.29: the dispatcher runs a different kubectl for each): it serves on a private socket, its
 * failures are classified, it restarts when kubectl dies, and dispose leaves no process.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RealClock } from '../../../src/core/base/clock';
import { KubectlProxy, type ProxyState } from '../../../src/core/kubeclient/kubectlProxy';
import { clusterVersion } from '../../../src/core/kubeclient/kubeContexts';
import { scratchDir } from '../../helpers/scratch';
import { alive, type Cluster, connect, SERVER_VERSIONS, startCluster, until } from './clusterHarness';

test('kubectl missing: whenReady is kind kubectl-missing, and nothing is left', { timeout: 30_000 }, async () => {
  const proxy = KubectlProxy.start({ kubectl: { path: '/nonexistent/kubectl', namedBy: 'the probeLens.kubectlPath setting' }, allowExec: false, clock: new RealClock() });
  const ready = await proxy.whenReady();
  assert.equal(ready.ok, false);
  if (ready.ok) return;
  assert.equal(ready.error.kind, 'kubectl-missing');
  assert.equal(ready.error.sentence, 'kubectl was not found at /nonexistent/kubectl: install kubectl, or set the probeLens.kubectlPath setting to its full path.');
  assert.equal(proxy.state, 'down');
  proxy.dispose();
  assert.equal(existsSync(proxy.dir), false);
});

test('a kubectl that never says it serves: kind timeout at readyTimeoutMs, and its process group is killed', { timeout: 30_000 }, async () => {
  // A stand-in for a kubectl stuck before serving (a credential plugin waiting for a browser login, say).
  const dir = scratchDir('probe-lens-proxy-');
  const stuck = join(dir, 'kubectl');
  writeFileSync(stuck, '#!/bin/sh\nsleep 30 &\nwait\n', { mode: 0o755 });
  const started = performance.now();
  const proxy = KubectlProxy.start({ kubectl: { path: stuck }, allowExec: false, clock: new RealClock(), readyTimeoutMs: 300 });
  const pid = proxy.pid as number;
  const ready = await proxy.whenReady();
  assert.ok(performance.now() - started < 1000);
  assert.equal(ready.ok, false);
  if (ready.ok) return;
  assert.equal(ready.error.kind, 'timeout');
  assert.equal(ready.error.sentence, 'kubectl proxy did not start serving within 0.3 s: check that kubectl runs (kubectl version --client), then try again.');
  await until(() => !alive(-pid), 'the group (sh and its sleep) gone', 3000);
  proxy.dispose();
});

for (const version of SERVER_VERSIONS) {
  describe(`kubectl proxy against a ${version} server`, () => {
    let cluster: Cluster;
    before(async () => {
      cluster = await startCluster(version, { kubeconfig: { contexts: [{ name: 'test', namespace: 'default' }, { name: 'wrong-token', token: 'not-a-token' }] } });
    });
    after(async () => cluster.dispose());

    test('serves on a socket in a private directory; /version through it is the server\'s, asked by the matching kubectl', { timeout: 30_000 }, async () => {
      const states: ProxyState[] = [];
      const { proxy, api } = await connect(cluster, { onChange: (state) => states.push(state) });
      try {
        assert.equal(proxy.state, 'up');
        assert.deepEqual(states, ['up']);
        assert.equal(statSync(proxy.dir).mode & 0o777, 0o700);
        assert.ok(statSync(proxy.socketPath).isSocket());
        assert.deepEqual(proxy.args().slice(0, 1), ['proxy']);
        const result = await clusterVersion(api);
        assert.equal(result.ok, true, result.ok ? '' : result.failure.error.sentence);
        if (result.ok) assert.equal(`${result.value.major}.${result.value.minor}`, version);
        const last = cluster.server.requests().at(-1);
        assert.equal(last?.path, '/version');
        // kubectl names itself in its User-Agent: the dispatcher ran the kubectl of the server's version.
        assert.match(last?.userAgent ?? '', new RegExp(`v${version.replace('.', '\\.')}\\.`));
      } finally {
        api.dispose();
        proxy.dispose();
      }
    });

    test('--context nope: kind context-not-found, from kubectl\'s stderr', { timeout: 30_000 }, async () => {
      const proxy = cluster.proxy({ context: 'nope' });
      const ready = await proxy.whenReady();
      assert.equal(ready.ok, false);
      if (ready.ok) return;
      assert.equal(ready.error.kind, 'context-not-found');
      assert.equal(ready.error.sentence, 'kubectl\'s context "nope" is not in its kubeconfig: choose another with kubectl config use-context NAME.');
      assert.match(ready.stderr, /nope/);
      assert.equal(proxy.state, 'down');
      proxy.dispose();
    });

    test('a token the server rejects: the proxy serves, and requests are kind unauthorised', { timeout: 30_000 }, async () => {
      const { proxy, api } = await connect(cluster, { context: 'wrong-token' });
      try {
        const result = await api.getJson('/api/v1/namespaces/default/pods', { timeoutMs: 5000 });
        assert.equal(result.ok, false);
        if (result.ok) return;
        assert.equal(result.failure.status, 401);
        assert.equal(result.failure.error.kind, 'unauthorised');
        assert.equal(result.failure.error.sentence, "the cluster did not accept kubectl's credentials (Unauthorized): log in again, or refresh the credentials in your kubeconfig.");
      } finally {
        api.dispose();
        proxy.dispose();
      }
    });

    test('kubectl killed: the proxy reports down, starts again after the back-off, and serves on the same socket', { timeout: 30_000 }, async () => {
      const states: ProxyState[] = [];
      const { proxy, api } = await connect(cluster, { onChange: (state) => states.push(state), backoff: { initialMs: 100, maxMs: 400, stableMs: 60_000 } });
      try {
        const first = proxy.pid as number;
        process.kill(-first, 'SIGKILL');
        await until(() => states.includes('down'), 'down');
        const down = await api.getJson('/version', { timeoutMs: 2000 });
        assert.equal(down.ok, false);
        await until(() => states.at(-1) === 'up', 'up again');
        assert.notEqual(proxy.pid, first);
        assert.deepEqual(states, ['up', 'down', 'up']);
        const result = await clusterVersion(api);
        assert.equal(result.ok, true);
      } finally {
        api.dispose();
        proxy.dispose();
      }
    });

    test('dispose: kubectl (the dispatcher and the kubectl it runs) is gone, and so is the directory', { timeout: 30_000 }, async () => {
      const { proxy, api } = await connect(cluster);
      api.dispose();
      const pid = proxy.pid as number;
      assert.ok(alive(pid));
      proxy.dispose();
      await until(() => !alive(pid), `kubectl ${pid} to exit`, 3000);
      // Nothing else of its group either (kill(-pgid, 0) fails with ESRCH once it is empty).
      await until(() => !alive(-pid), `process group ${pid} to be empty`, 3000);
      assert.equal(existsSync(proxy.dir), false);
    });

    test('without allowExec, kubectl proxy itself rejects exec: a sentence saying exec probes were not allowed', { timeout: 30_000 }, async () => {
      const { proxy, api } = await connect(cluster, { allowExec: false });
      try {
        let sentence = '';
        const ws = api.openWebSocket('/api/v1/namespaces/default/pods/web-1/exec?command=true&stdout=true', ['v4.channel.k8s.io'], (failure) => (sentence = failure.error.sentence));
        await new Promise((resolve) => ws.addEventListener('close', resolve));
        assert.equal(sentence, "exec probes run commands in your container and were not allowed for this session (use --allow-exec, or the extension's consent).");
        // The request never reached the API server.
        assert.equal(cluster.server.requests().some((r) => r.path.includes('/exec')), false);
      } finally {
        api.dispose();
        proxy.dispose();
      }
    });
  });
}

test('a host that exits without disposing its proxy takes kubectl along', { timeout: 30_000 }, async () => {
  const cluster = await startCluster('1.32');
  try {
    // A host process of its own: starts a proxy, waits for it to serve, and exits.
    const script = `
      const { KubectlProxy } = require(${JSON.stringify(join(__dirname, '../../../src/core/kubeclient/kubectlProxy.js'))});
      const { RealClock } = require(${JSON.stringify(join(__dirname, '../../../src/core/base/clock.js'))});
      const proxy = KubectlProxy.start({ kubectl: ${JSON.stringify(cluster.kubectl)}, allowExec: false, clock: new RealClock() });
      proxy.whenReady().then((ready) => { console.log(JSON.stringify({ ok: ready.ok, pid: proxy.pid })); process.exit(0); });
    `;
    // Not execFileSync: the test API server runs in this process, and kubectl asks it for /version first.
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000 });
    const { ok, pid } = JSON.parse(stdout) as { ok: boolean; pid: number };
    assert.equal(ok, true);
    await until(() => !alive(pid), `kubectl ${pid} to go with its host`, 3000);
  } finally {
    await cluster.dispose();
  }
});

test('a KubeApi outliving its proxy: kind unreachable, not a throw', { timeout: 30_000 }, async () => {
  const cluster = await startCluster('1.32');
  try {
    const { proxy, api } = await connect(cluster);
    proxy.dispose();
    const result = await api.getJson('/version', { timeoutMs: 2000 });
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.failure.error.kind, 'unreachable');
    api.dispose();
  } finally {
    await cluster.dispose();
  }
});
