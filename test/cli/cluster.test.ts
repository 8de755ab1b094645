import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnCli } from '../helpers/cli';
import { startHttpServer } from '../helpers/httpServers';
import { assertCleanRun, of, withCluster } from '../helpers/liveCluster';

// Through the real kubectl (a `kubectl proxy` per run) against the test API server; the probes
// land on real servers on 127.0.0.1 that play the pod's ports.

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1}
          livenessProbe: {tcpSocket: {port: 9090}, periodSeconds: 1, failureThreshold: 2}
`;

for (const version of ['1.32', '1.29']) {
  test(`run --target cluster (kubectl ${version}): one refused port blinds no other probe; Host and User-Agent as the kubelet's; a restart predicted, then confirmed`, async () => {
    const seen: { host?: string; agent?: string }[] = [];
    const app = await startHttpServer((req, res) => {
      seen.push({ host: req.headers.host, agent: req.headers['user-agent'] });
      res.statusCode = req.url === '/ready' ? 200 : 404;
      res.end();
    });
    await withCluster(
      version,
      async (cluster) => {
        const file = cluster.manifest(DEPLOYMENT, 'web.yaml');
        cluster.server.addPod({ name: 'web-5d4f8b7c9-x2k4q', namespace: 'shop', labels: { app: 'web' }, podIP: '10.244.1.5', containers: [{ name: 'web', ports: { 8080: app.port } }] });
        const restart = setTimeout(() => cluster.server.restartContainer({ namespace: 'shop', name: 'web-5d4f8b7c9-x2k4q' }, 'web'), 4_500);
        const run = await cluster.run([file, '--for', '8s']);
        clearTimeout(restart);
        // Exit 0, and the kubectl proxy seen while it ran, gone once it exited.
        assertCleanRun(run);
        const { lines } = run;
        const attempts = of(lines, 'attempt');
        const readiness = attempts.filter((l) => l['probe'] === 'readiness');
        assert.ok(readiness.length >= 5 && readiness.every((a) => a['outcome'] === 'success'), `readiness: ${JSON.stringify(readiness.map((a) => a['outcome'] === 'success' ? 'ok' : a['error'] ?? a['output']))}`);
        const liveness = attempts.filter((l) => l['probe'] === 'liveness');
        assert.ok(liveness.length > 0);
        for (const attempt of liveness) assert.equal(attempt['output'], 'dial tcp 10.244.1.5:9090: connect: connection refused');
        // An attempt that waited for something after its answer (a stream close that never comes)
        // would last its whole timeout, 1 s, every time. The median against half of that: one slow
        // attempt on a busy machine (the first took 282 ms in a clean run, against a bound of 200 ms)
        // is not that bug.
        const durations = readiness.map((a) => Number(a['durationMs'])).sort((a, b) => a - b);
        const median = durations[durations.length >> 1] ?? Number.NaN;
        assert.ok(median < 500, `an HTTP attempt waits for nothing after its answer: ${JSON.stringify(durations)} ms`);
        assert.ok(seen.every((s) => s.host === '10.244.1.5:8080' && s.agent === `kube-probe/${version}`), JSON.stringify(seen[0]));
        const predictions = lines.filter((l) => l.type === 'prediction');
        assert.equal(predictions[0]?.['message'], 'liveness would restart web now');
        assert.ok(predictions.some((p) => p['state'] === 'confirmed'), JSON.stringify(predictions));
        assert.ok(lines.some((l) => l.type === 'container' && l['restartCount'] === 1), 'the restart seen through the watch');
        assert.ok(lines.some((l) => l.type === 'target' && l['clusterPod'] === 'web-5d4f8b7c9-x2k4q'));
        const minor = version.replace('.', '\\.');
        assert.match(run.stderr, new RegExp(`^probe-lens: context test, Kubernetes v${minor}\\.\\d+, User-Agent kube-probe/${minor}; pods looked for in namespace shop \\(the manifest's\\)$`, 'm'));
      },
      [app],
    );
  });
}

test('run --target cluster: a context not in the kubeconfig, and a token the server refuses, each end in one sentence, exit 2', async () => {
  await withCluster('1.32', async (cluster) => {
    const file = cluster.manifest(DEPLOYMENT, 'web.yaml');
    const env = { ...process.env, KUBECONFIG: cluster.server.writeKubeconfig(cluster.dir, { contexts: [{ name: 'test', namespace: 'shop' }, { name: 'expired', token: 'expired-token' }] }), NO_COLOR: '1' };
    const missing = await spawnCli(['run', file, '--target', 'cluster', '--context', 'nope', '--for', '1s'], { env });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'probe-lens: context "nope" is not in your kubeconfig (it has "expired", "test"): pick one of those.\n');
    const expired = await spawnCli(['run', file, '--target', 'cluster', '--context', 'expired', '--for', '1s'], { env });
    assert.equal(expired.code, 2);
    assert.match(expired.stderr, /probe-lens: .*(credentials|log in|Unauthorized)/i);
    assert.equal(expired.stdout, '');
  });
});

test('run --target cluster: no pod of the Deployment in the namespace says where it looked, exit 2', async () => {
  await withCluster('1.32', async (cluster) => {
    const run = await spawnCli(['run', cluster.manifest(DEPLOYMENT, 'web.yaml'), '--target', 'cluster', '--for', '1s'], { env: cluster.env });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no pod of Deployment "web" with labels app=web in namespace "shop"/);
  });
});
