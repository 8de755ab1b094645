/**
 * Exec over WebSocket through Probe Lens's kubectl proxy to the test API server (1.32 and 1.29),
 * whose "container" runs the command as a real process: stdout, stderr and the exit code, the
 * 10 KiB cap with a writer far past it, the timeout on time, a command that does not exist, RBAC.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runExec } from '../../../src/core/kubeclient/execStream';
import type { KubeApi } from '../../../src/core/kubeclient/kubeApi';
import { type Cluster, connect, SERVER_VERSIONS, startCluster, until } from './clusterHarness';

/** What the kubelet keeps of an exec probe's output (its 10 KiB LimitWriter). */
const KUBELET_CAP = 10 * 1024;

for (const version of SERVER_VERSIONS) {
  describe(`exec over WebSocket against a ${version} server`, () => {
    let cluster: Cluster;
    let api: KubeApi;
    const exec = (command: string[], options: { timeoutMs?: number; signal?: AbortSignal; container?: string } = {}) =>
      runExec(api, { namespace: 'shop', pod: 'web-1', container: options.container ?? 'web', command, timeoutMs: options.timeoutMs ?? 10_000, maxOutputBytes: KUBELET_CAP, ...(options.signal ? { signal: options.signal } : {}) });
    before(async () => {
      cluster = await startCluster(version);
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web' }] });
      ({ api } = await connect(cluster));
    });
    after(async () => {
      api.dispose();
      await cluster.dispose();
    });

    test('stdout, stderr and the exit code', { timeout: 30_000 }, async () => {
      const result = await exec(['sh', '-c', 'echo out; echo err >&2; exit 3']);
      assert.deepEqual(result.kind === 'exited' ? { ...result, stdout: result.stdout.toString(), stderr: result.stderr.toString() } : result, { kind: 'exited', exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
      assert.equal(cluster.server.execs().at(-1)?.protocol, 'v5.channel.k8s.io');
    });

    test('exit 0 is Success', { timeout: 30_000 }, async () => {
      const result = await exec(['true']);
      assert.equal(result.kind, 'exited');
      if (result.kind === 'exited') assert.equal(result.exitCode, 0);
    });

    test('output past the cap is dropped, per stream, and the command still runs to its exit', { timeout: 30_000 }, async () => {
      const result = await exec(['sh', '-c', 'head -c 5000000 /dev/zero; head -c 20000 /dev/zero >&2; exit 4']);
      assert.equal(result.kind, 'exited');
      if (result.kind !== 'exited') return;
      assert.equal(result.stdout.length, KUBELET_CAP);
      assert.equal(result.stderr.length, KUBELET_CAP);
      assert.equal(result.exitCode, 4);
    });

    test('an endless writer: the cap holds, and the timeout ends it on time', { timeout: 30_000 }, async () => {
      const started = performance.now();
      const result = await exec(['sh', '-c', 'while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done'], { timeoutMs: 700 });
      const took = performance.now() - started;
      assert.deepEqual(result, { kind: 'timedOut' });
      assert.ok(took >= 690 && took < 900, `took ${Math.round(took)} ms`);
    });

    test('a command that sleeps past the timeout: timedOut within timeoutMs + 200 ms', { timeout: 30_000 }, async () => {
      const started = performance.now();
      const result = await exec(['sleep', '10'], { timeoutMs: 500 });
      const took = performance.now() - started;
      assert.deepEqual(result, { kind: 'timedOut' });
      assert.ok(took >= 490 && took < 700, `took ${Math.round(took)} ms`);
      // The connection is closed: the server side sees the client leave.
      await until(() => cluster.server.liveExecs() === 0, 'the command ended on the server');
    });

    test('a command that does not exist: failed, with the runtime\'s words', { timeout: 30_000 }, async () => {
      const result = await exec(['no-such-command', '--flag']);
      assert.equal(result.kind, 'failed');
      if (result.kind !== 'failed') return;
      assert.equal(result.failure.error.sentence, 'the cluster could not run "no-such-command" in container "web" of pod "web-1" (executable file not found in $PATH): check the exec probe\'s command.');
      assert.equal(result.failure.detail, 'exec: "no-such-command": executable file not found in $PATH');
    });

    test('aborted by the caller\'s signal', { timeout: 30_000 }, async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      assert.deepEqual(await exec(['sleep', '10'], { signal: controller.signal }), { kind: 'aborted' });
    });

    test('a container that is not in the pod: failed, the Status message', { timeout: 30_000 }, async () => {
      const result = await exec(['true'], { container: 'sidecar' });
      assert.equal(result.kind, 'failed');
      if (result.kind !== 'failed') return;
      assert.equal(result.failure.status, 400);
      assert.equal(result.failure.error.sentence, 'the cluster answered 400 (BadRequest: container sidecar is not valid for pod web-1).');
    });

    test('RBAC forbids exec: failed, forbidden, who may not do what', { timeout: 30_000 }, async () => {
      const rule = cluster.server.forbid('pods/exec', { namespace: 'shop' });
      try {
        const result = await exec(['true']);
        assert.equal(result.kind, 'failed');
        if (result.kind !== 'failed') return;
        assert.equal(result.failure.error.kind, 'forbidden');
        assert.equal(result.failure.error.sentence, 'user "dev" may not get pods/exec (run commands in pods) in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.');
      } finally {
        rule.dispose();
      }
    });
  });
}

test('exec not allowed for the session: kubectl proxy refuses it before the cluster hears of it', { timeout: 30_000 }, async () => {
  const cluster = await startCluster('1.32');
  try {
    cluster.server.addPod({ name: 'web-1', namespace: 'shop', containers: [{ name: 'web' }] });
    const { api } = await connect(cluster, { allowExec: false });
    const result = await runExec(api, { namespace: 'shop', pod: 'web-1', container: 'web', command: ['true'], timeoutMs: 5000, maxOutputBytes: KUBELET_CAP });
    api.dispose();
    assert.equal(result.kind, 'failed');
    if (result.kind !== 'failed') return;
    assert.equal(result.failure.error.sentence, "exec probes run commands in your container and were not allowed for this session (use --allow-exec, or the extension's consent).");
    assert.equal(cluster.server.execs().length, 0);
  } finally {
    await cluster.dispose();
  }
});
