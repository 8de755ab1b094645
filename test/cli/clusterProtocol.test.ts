import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type App, assertCleanRun, brief, type Cluster, errorLines, type Line, of, shown, startApp, withCluster } from '../helpers/liveCluster';
import { freePort } from '../helpers/httpServers';
import { kubectlProcesses } from '../helpers/kubectlProcesses';

// Cluster mode against the protocol as a real cluster speaks it: the test API server closes every
// stream as the kubelet does (a close frame, then the connection, at once), authorises a
// WebSocket by the verbs of its version, and writes the runtimes' own words. Each run is the
// built CLI through the real kubectl proxy.

const CLOSED_PORT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: db, namespace: shop}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: db
          livenessProbe: {tcpSocket: {port: 5432}, periodSeconds: 1, failureThreshold: 100}
`;

const HTTP_POD = `apiVersion: v1
kind: Pod
metadata: {name: api-0, namespace: shop}
spec:
  containers:
    - name: api
      image: api
      ports: [{containerPort: 8080}]
      readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 1}
`;

/** The same pod, with an exec liveness probe too. */
const EXEC_AND_HTTP = `${HTTP_POD}      livenessProbe: {exec: {command: [sh, -c, 'echo alive']}, periodSeconds: 1}\n`;

/** A cluster of `version` with pod shop/api-0 whose container `api` serves on a real app (port 8080). */
async function withApiPod(version: string, body: (cluster: Cluster, app: App) => Promise<void>): Promise<void> {
  const app = await startApp();
  await withCluster(
    version,
    async (cluster) => {
      cluster.server.addPod({ name: 'api-0', namespace: 'shop', containers: [{ name: 'api', ports: { 8080: app.port } }] });
      await body(cluster, app);
    },
    [app],
  );
}

/** The seconds the run's events span: from the header's start to its last line. */
const lastT = (lines: readonly Line[]) => Math.max(...lines.map((l) => Number(l['t'] ?? 0)));

for (const version of ['1.32', '1.29']) {
  test(`run --target cluster --allow-exec (kubectl ${version}): streams the kubelet closes at once never end the run — exec and HTTP probes to --for`, async () => {
    await withApiPod(version, async (cluster) => {
      const started = Date.now();
      const run = await cluster.run([cluster.manifest(EXEC_AND_HTTP), '--allow-exec', '--for', '6s']);
      assertCleanRun(run);
      assert.ok(Date.now() - started >= 6_000, `ran to --for: ${Date.now() - started} ms`);
      const attempts = of(run.lines, 'attempt');
      const exec = attempts.filter((a) => a['probe'] === 'liveness');
      const http = attempts.filter((a) => a['probe'] === 'readiness');
      assert.ok(exec.length >= 4 && exec.every((a) => a['outcome'] === 'success' && a['output'] === 'alive\n'), brief(exec));
      assert.ok(http.length >= 4 && http.every((a) => a['outcome'] === 'success'), brief(http));
      assert.ok(lastT(run.lines) >= 4, `events to the end, not cut short: the last at ${lastT(run.lines)} s`);
      assert.ok(cluster.server.execs().length >= 4 && cluster.server.execs().every((e) => e.end === 'exited'), 'each exec ran to its exit');
    });
  });

  test(`run --target cluster (kubectl ${version}): a tcpSocket probe of a closed port fails on every period, to --for — the refusal's close ends nothing but the attempt`, async () => {
    await withCluster(version, async (cluster) => {
      cluster.server.addPod({ name: 'db-7f9c-aaaaa', namespace: 'shop', labels: { app: 'db' }, podIP: '10.244.1.30', containers: [{ name: 'db', ports: { 5432: await freePort() } }] });
      const started = Date.now();
      const run = await cluster.run([cluster.manifest(CLOSED_PORT), '--for', '6s']);
      assertCleanRun(run);
      assert.ok(Date.now() - started >= 6_000, `ran to --for: ${Date.now() - started} ms`);
      const attempts = of(run.lines, 'attempt');
      assert.ok(attempts.length >= 4, brief(attempts));
      for (const attempt of attempts) assert.deepEqual([attempt['outcome'], attempt['output']], ['failure', 'dial tcp 10.244.1.30:5432: connect: connection refused']);
      assert.ok(lastT(attempts) >= 4, `attempts to the end: the last at ${lastT(attempts)} s`);
    });
  });
}

for (const version of ['1.32', '1.29']) {
  test(`run --target cluster (kubectl ${version}): a role with "create" but not "get" on pods/portforward — once, which verb, that kubectl works; exit 1, no kubectl left`, async () => {
    await withApiPod(version, async (cluster, app) => {
      cluster.server.forbid('pods/portforward', { verbs: ['get'] });
      const run = await cluster.run([cluster.manifest(HTTP_POD), '--for', '20s']);
      assert.equal(run.code, 1, shown(run));
      assert.deepEqual(run.kubectlLeft, []);
      const said = errorLines(run).filter((line) => !line.includes('→ pod shop/api-0'));
      assert.deepEqual(said, [
        'probe-lens: the cluster refused a port-forward to pod api-0, so probing stopped: user "dev" may create pods/portforward in namespace "shop" but not get it: kubectl port-forward works (it falls back to SPDY, a POST, which needs only "create"), but Probe Lens opens a WebSocket, a GET, which the API server authorises as "get" on pods/portforward: ask your cluster admin to add the "get" verb on pods/portforward to your role.',
      ]);
      const attempts = of(run.lines, 'attempt');
      assert.equal(attempts.length, 1, `the attempt that met the refusal, written, and no more: ${brief(attempts)}`);
      assert.match(String(attempts[0]?.['error']), /^port-forward to pod api-0 refused: user "dev" may not get pods\/portforward \(port-forward to pods\) in namespace "shop"/);
      assert.equal(app.seen.length, 0);
    });
  });
}

test('run --target cluster (kubectl 1.32): neither verb on pods/portforward — neither Probe Lens nor kubectl can; and exec refused by RBAC ends the run the same way', async () => {
  await withCluster('1.32', async (cluster) => {
    cluster.server.addPod({ name: 'api-0', namespace: 'shop', containers: [{ name: 'api', ports: { 8080: await freePort() } }] });
    const rule = cluster.server.forbid('pods/portforward');
    const forward = await cluster.run([cluster.manifest(HTTP_POD), '--for', '20s']);
    rule.dispose();
    assert.equal(forward.code, 1, shown(forward));
    assert.match(errorLines(forward).at(-1) ?? '', /user "dev" may neither get nor create pods\/portforward in namespace "shop", so neither Probe Lens nor kubectl can port-forward: .*ask your cluster admin for both verbs on pods\/portforward/);

    cluster.server.forbid('pods/exec', { verbs: ['get'] });
    const exec = await cluster.run([cluster.manifest(EXEC_AND_HTTP.replace(/\n\s+readinessProbe.*\n/, '\n'), 'exec.yaml'), '--allow-exec', '--for', '20s']);
    assert.equal(exec.code, 1, shown(exec));
    assert.equal(errorLines(exec).at(-1), 'probe-lens: the cluster refused an exec to pod api-0, so probing stopped: user "dev" may create pods/exec in namespace "shop" but not get it: kubectl exec works (it falls back to SPDY, a POST, which needs only "create"), but Probe Lens opens a WebSocket, a GET, which the API server authorises as "get" on pods/exec: ask your cluster admin to add the "get" verb on pods/exec to your role.');
    assert.deepEqual([forward.kubectlLeft, exec.kubectlLeft], [[], []]);
  });
});

test('run --target cluster (server 1.35): "get" but not "create" on pods/portforward — the 1.35 check kubectl always met', async () => {
  await withCluster('1.35', async (cluster) => {
    cluster.server.addPod({ name: 'api-0', namespace: 'shop', containers: [{ name: 'api', ports: { 8080: await freePort() } }] });
    cluster.server.forbid('pods/portforward', { verbs: ['create'] });
    const run = await cluster.run([cluster.manifest(HTTP_POD), '--for', '20s']);
    assert.equal(run.code, 1, shown(run));
    assert.equal(
      errorLines(run).at(-1),
      'probe-lens: the cluster refused a port-forward to pod api-0, so probing stopped: user "dev" may get pods/portforward in namespace "shop" but not create it: from Kubernetes 1.35 the API server also asks for "create" on a WebSocket port-forward (AuthorizePodWebsocketUpgradeCreatePermission), as kubectl port-forward always did: ask your cluster admin to add the "create" verb on pods/portforward to your role.',
    );
  });
});

test('run --target cluster (kubectl 1.32): events the user may not watch are said once, and the run goes on', async () => {
  await withApiPod('1.32', async (cluster) => {
    cluster.server.addEvent('api-0', { reason: 'Unhealthy', type: 'Warning', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503', container: 'api' });
    cluster.server.forbid('events');
    const run = await cluster.run([cluster.manifest(HTTP_POD), '--for', '4s']);
    assertCleanRun(run);
    const about = errorLines(run).filter((line) => line.includes('events'));
    assert.deepEqual(about, [
      `probe-lens: the cluster's events in namespace "shop" cannot be watched, so its kubelet's own events (Unhealthy, Killing, BackOff) will not show beside ours; its verdicts (started, ready, restarts) still do: user "dev" may not list events in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.`,
    ]);
    assert.deepEqual(of(run.lines, 'clusterEvent'), []);
    assert.ok(of(run.lines, 'attempt').length >= 2);
  });
});

test('run --target cluster --format jsonl (kubectl 1.32): each line is written as it happens, not when the run ends', async () => {
  await withApiPod('1.32', async (cluster) => {
    const arrivals: { at: number; text: string }[] = [];
    const run = await cluster.run([cluster.manifest(HTTP_POD), '--for', '5s'], undefined, cluster.env, { onStdout: (text, at) => arrivals.push({ at, text }) });
    assertCleanRun(run);
    const firstAttempt = arrivals.find((a) => a.text.includes('"type":"attempt"'));
    const last = arrivals.at(-1);
    assert.ok(firstAttempt && last, JSON.stringify(arrivals.map((a) => a.at)));
    assert.ok(last.at - firstAttempt.at >= 2_500, `the first attempt reached the reader ${Math.round(last.at - firstAttempt.at)} ms before the run's last line`);
    assert.ok(arrivals.length >= 5, `written in ${arrivals.length} pieces`);
  });
});

test('run --target cluster (kubectl 1.32): a pod deleted and not replaced ends its containers; the text summary says so, beside the cluster kubelet\'s word', async () => {
  const app = await startApp();
  await withCluster(
    '1.32',
    async (cluster) => {
      cluster.server.addPod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web', ports: { 8080: app.port } }] });
      cluster.server.addPod({ name: 'api-0', namespace: 'shop', containers: [{ name: 'api', ports: { 8080: app.port } }] });
      const manifest = cluster.manifest(`${HTTP_POD}---
apiVersion: apps/v1
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
          ports: [{containerPort: 8080}]
          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 1}
`);
      let deleted = false;
      const run = await cluster.run([manifest, '--for', '5s'], () => {
        if (deleted || app.seen.length < 4) return;
        deleted = true;
        void cluster.server.deletePod({ namespace: 'shop', name: 'web-1' });
      });
      assertCleanRun(run);
      const gone = of(run.lines, 'container').filter((c) => c['pod'] === 'web').at(-1);
      assert.deepEqual([gone?.['state'], gone?.['reason']], ['terminated', 'PodDeleted']);
      assert.deepEqual(of(run.lines, 'status').filter((s) => s['pod'] === 'web').at(-1), { ...of(run.lines, 'status').filter((s) => s['pod'] === 'web').at(-1), ready: false, started: false });
    },
    [app],
  );
});

const THREE_PODS = ['unreached', 'loopback', 'nowhere']
  .map(
    (name) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: shop}
spec:
  containers:
    - name: web
      image: web
      ports: [{containerPort: 8080}]
      readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 1}
`,
  )
  .join('---\n');

test('run --target cluster (kubectl 1.32): each disagreement worded for what the evidence holds — ours that never ran, and the node runtime\'s own port-forward', async () => {
  const app = await startApp();
  await withCluster(
    '1.32',
    async (cluster) => {
      const { server } = cluster;
      // A node whose kubelet the API server cannot reach; a CRI-O node; a containerd that falls back to the pod IP.
      server.addPod({ name: 'unreached', namespace: 'shop', nodeName: 'node-a', containers: [{ name: 'web', ports: { 8080: app.port } }] });
      server.addPod({ name: 'loopback', namespace: 'shop', nodeName: 'node-b', podIP: '10.244.2.9', containers: [{ name: 'web', ports: { 8080: app.port }, listens: 'loopback' }] });
      server.addPod({ name: 'nowhere', namespace: 'shop', nodeName: 'node-c', podIP: '10.244.3.9', containers: [{ name: 'web', ports: { 8080: await freePort() } }] });
      server.cutOffNode('node-a');
      let flipped = false;
      const run = await cluster.run([cluster.manifest(THREE_PODS), '--for', '24s'], () => {
        if (flipped || app.seen.length < 1) return;
        flipped = true;
        // The kubelet dials the pod IP, where an app on 127.0.0.1 is refused.
        server.setReady({ namespace: 'shop', name: 'loopback' }, 'web', false);
        server.addEvent({ namespace: 'shop', name: 'loopback' }, { reason: 'Unhealthy', type: 'Warning', message: 'Readiness probe failed: Get "http://10.244.2.9:8080/ready": dial tcp 10.244.2.9:8080: connect: connection refused', container: 'web' });
      });
      assertCleanRun(run);
      const opened = new Map(of(run.lines, 'disagreement').map((d) => [String(d['pod']), d]));
      assert.deepEqual([...opened.keys()].sort(), ['loopback', 'nowhere', 'unreached'], JSON.stringify(of(run.lines, 'disagreement')));
      assert.equal(opened.get('unreached')?.['cause'], 'ours-errored');
      assert.match(String(opened.get('unreached')?.['message']), /^our readiness probe of web could not run \(port-forward to pod unreached refused: the API server could not reach the kubelet of the pod's node \(error dialing backend: .*\): an error is never counted, .*says nothing about the app/);
      assert.equal(opened.get('loopback')?.['cause'], 'loopback-only');
      assert.match(String(opened.get('loopback')?.['message']), /ours pass through port-forward, which CRI-O 1\.31\.1 connects to 127\.0\.0\.1 inside the pod: the app likely listens on 127\.0\.0\.1 only/);
      assert.equal(opened.get('nowhere')?.['cause'], 'unexplained');
      assert.match(String(opened.get('nowhere')?.['message']), /although containerd 2\.4\.0 dialled the pod IP as well as 127\.0\.0\.1 \(.*dial tcp 10\.244\.3\.9:8080: connect: connection refused\)/);
    },
    [app],
    { nodes: { 'node-a': { name: 'containerd', version: '1.7.27' }, 'node-b': { name: 'cri-o', version: '1.31.1' }, 'node-c': { name: 'containerd', version: '2.4.0', portForward: 'loopback-then-pod-ip' } } },
  );
});

test('run --target cluster (kubectl 1.32): kubectl proxy killed mid-run — said once, started again, probing goes on to --for', async () => {
  await withApiPod('1.32', async (cluster, app) => {
    let killedAt = 0;
    const run = await cluster.run([cluster.manifest(HTTP_POD), '--for', '7s'], () => {
      if (killedAt || app.seen.length < 2) return;
      const [pid] = kubectlProcesses(cluster.kubeconfig);
      if (pid === undefined) return;
      killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
    });
    assertCleanRun(run);
    assert.ok(killedAt > 0, 'the proxy was killed');
    const said = errorLines(run).filter((line) => !line.includes('→ pod shop/api-0'));
    assert.equal(said.length, 2, said.join('\n'));
    assert.equal(said[0], 'probe-lens: kubectl proxy exited (signal SIGKILL); Probe Lens starts it again, and until then each attempt is an error, never counted');
    assert.equal(said[1], 'probe-lens: kubectl proxy serves again: probing goes on');
    const attempts = of(run.lines, 'attempt');
    assert.deepEqual(attempts.filter((a) => a['outcome'] === 'failure'), [], 'a proxy down is never a probe failure');
    assert.ok(attempts.at(-1)?.['outcome'] === 'success' && lastT(attempts) >= 5, `probing recovered to the end: ${brief(attempts)}`);
  });
});
