import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Clock, RealClock, VirtualClock } from '../../../src/core/engine/clock';
import type { EngineEvent } from '../../../src/core/engine/events';
import type { AttemptRequest } from '../../../src/core/engine/target';
import { choosePod, type ClusterPod, findClusterPod, type KubectlConfig, podQueryArgs } from '../../../src/core/k8s/kubectl';
import { parseManifest, type PodSpecModel, type ProbeType } from '../../../src/core/manifest';
import type { ProbeOutcome } from '../../../src/core/probers/types';
import { ClusterTarget, type ClusterTargetOptions, findClusterPods, forwardedPorts } from '../../../src/core/targets/cluster';
import { PortForwardTunnel, type TunnelChange } from '../../../src/core/targets/portForward';
import { SERVING_STATUS, startHealthServer } from '../../helpers/grpcHealthServer';
import { freePort, startHttpServer, startRawServer } from '../../helpers/httpServers';
import { scratchDir } from '../../helpers/scratch';

const FAKE = join(process.cwd(), 'test/fixtures/kubectl/kubectl');

interface Cluster {
  readonly kubectl: KubectlConfig;
  readonly dir: string;
  /** argv of every kubectl run so far. */
  calls(): string[][];
  /** pids of the port-forwards started so far. */
  forwarders(): number[];
}

const RUNNING = (name: string, labels: Record<string, string> = {}, extra: { namespace?: string; phase?: string; ready?: boolean; deleting?: boolean } = {}) => ({
  kind: 'Pod',
  metadata: { name, namespace: extra.namespace ?? 'default', uid: `uid-${name}`, labels, ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { containers: [{ name: 'web' }] },
  status: { phase: extra.phase ?? 'Running', podIP: '10.244.0.7', conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }] },
});

function fakeCluster(pods: unknown[], ports: Record<number, number> = {}, env: Record<string, string> = {}): Cluster {
  const dir = scratchDir('probe-lens-cluster-');
  writeFileSync(join(dir, 'pods.json'), JSON.stringify({ items: pods }));
  writeFileSync(join(dir, 'log'), '');
  const pids = mkdtempSync(join(dir, 'pids-'));
  return {
    dir,
    kubectl: {
      path: FAKE,
      env: { ...process.env, FAKE_KUBECTL_PODS: join(dir, 'pods.json'), FAKE_KUBECTL_LOG: join(dir, 'log'), FAKE_KUBECTL_PIDS: pids, FAKE_KUBECTL_PORTS: JSON.stringify(ports), ...env },
    },
    calls: () =>
      readFileSync(join(dir, 'log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]),
    forwarders: () => readdirSync(pids).map(Number),
  };
}

function specOf(yaml: string): PodSpecModel {
  const spec = parseManifest(yaml).documents[0]?.podSpecs[0];
  assert.ok(spec, 'a pod spec');
  return spec;
}

const POD_YAML = (probes: string, namespace = '') => `apiVersion: v1
kind: Pod
metadata: {name: web-abc${namespace ? `, namespace: ${namespace}` : ''}}
spec:
  containers:
    - name: web
      image: web
      env: [{name: GREETING, value: hello}]
      ports: [{name: http, containerPort: 8080}, {name: raw, containerPort: 7070}]
${probes}`;

const CLUSTER_POD: ClusterPod = { name: 'web-abc', namespace: 'default', uid: 'uid-web-abc', podIP: '10.244.0.7', phase: 'Running', ready: true, containers: ['web'] };

function request(spec: PodSpecModel, type: ProbeType): AttemptRequest {
  const container = spec.containers[0];
  const probe = container?.probe(type);
  assert.ok(container && probe, `a ${type} probe`);
  return { pod: { name: 'web-abc', namespace: 'default', uid: 'uid-web-abc' }, podSpec: spec, container, type, probe: probe.effective, containerId: 'local://web/0', startedAt: 0, instance: 0 };
}

function attempt(target: ClusterTarget, req: AttemptRequest): Promise<ProbeOutcome> {
  return new Promise((resolve) => target.attempt(req, resolve));
}

/** A ClusterTarget on one pod, resolved once every tunnel reported its first change. */
async function connect(cluster: Cluster, spec: PodSpecModel, options: Partial<ClusterTargetOptions> = {}) {
  const events: EngineEvent[] = [];
  const changes: TunnelChange[] = [];
  let notify: (() => void) | undefined;
  const clock = options.clock ?? new RealClock();
  const target = new ClusterTarget({
    kubectl: cluster.kubectl,
    pods: [{ identity: { name: 'web-abc', namespace: 'default', uid: 'uid-web-abc' }, spec, pod: CLUSTER_POD }],
    allowExec: false,
    minorVersion: 33,
    clock,
    epoch: clock.now(),
    emit: (event) => events.push(event),
    onTunnelChange: (_pod, change) => {
      changes.push(change);
      notify?.();
    },
    ...options,
  });
  const nextChange = async (count: number) => {
    const deadline = performance.now() + 10_000;
    while (changes.length < count && performance.now() < deadline) await new Promise<void>((resolve) => ((notify = resolve), setTimeout(resolve, 50)));
    assert.ok(changes.length >= count, `tunnel change #${count} never came`);
    return changes[count - 1] as TunnelChange;
  };
  return { target, events, changes, nextChange };
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

async function allGone(pids: number[], ms = 2000): Promise<boolean> {
  const end = performance.now() + ms;
  while (!pids.every(gone) && performance.now() < end) await sleep(20);
  return pids.every(gone);
}

test('forwarded ports: what the probes resolve to (N1–N3, gRPC\'s port); exec and probes with their own host are left out', () => {
  const spec = specOf(
    POD_YAML(`      readinessProbe: {httpGet: {port: http}}
      livenessProbe: {tcpSocket: {port: raw}}
      startupProbe: {grpc: {port: 9090}}
    - name: side
      image: side
      livenessProbe: {httpGet: {port: 8081, host: example.com}}
      readinessProbe: {exec: {command: [true]}}
`),
  );
  assert.deepEqual(forwardedPorts(spec), [7070, 8080, 9090]);
});

test('finding the pod: a Pod by name, a workload by its labels; namespace from the manifest, else the one given, else kubectl\'s', async () => {
  const cluster = fakeCluster([
    RUNNING('web-old', { app: 'web' }, { deleting: true }),
    RUNNING('web-b', { app: 'web' }, { ready: false }),
    RUNNING('web-a', { app: 'web' }),
    RUNNING('web-x', { app: 'web' }, { namespace: 'shop' }),
    RUNNING('other', { app: 'other' }),
  ]);
  const deployment = (ns: string) =>
    specOf(`kind: Deployment\nmetadata: {name: web${ns}}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: web}]}\n`);
  const found = await findClusterPod(cluster.kubectl, deployment(''), undefined);
  assert.ok(found.ok, !found.ok ? found.error : '');
  assert.equal(found.pod.name, 'web-a', 'Running, not terminating, Ready first');
  assert.deepEqual(cluster.calls().at(-1), ['get', 'pods', '-l', 'app=web', '-o', 'json'], 'no -n: the kubeconfig default');
  const inShop = await findClusterPod(cluster.kubectl, deployment(''), 'shop');
  assert.ok(inShop.ok && inShop.pod.name === 'web-x' && inShop.pod.namespace === 'shop');
  const fromManifest = await findClusterPod(cluster.kubectl, deployment(', namespace: shop'), 'elsewhere');
  assert.ok(fromManifest.ok && fromManifest.pod.name === 'web-x', 'metadata.namespace wins over --namespace');
  assert.deepEqual(cluster.calls().at(-1), ['get', 'pods', '-n', 'shop', '-l', 'app=web', '-o', 'json']);

  const pod = await findClusterPod(cluster.kubectl, specOf(POD_YAML('')), undefined);
  assert.deepEqual(pod, { ok: false, error: 'no Pod "web-abc" in kubectl\'s current namespace' }, 'NotFound for a Pod by name: this pod is missing, kubectl did not fail');
});

test('finding the pod: clear errors when none matches, none runs, or kubectl is missing', async () => {
  const cluster = fakeCluster([RUNNING('web-p', { app: 'web' }, { phase: 'Pending' })]);
  const deployment = (labels: string) => specOf(`kind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {${labels}}}\n  template:\n    spec: {containers: [{name: web, image: web}]}\n`);
  assert.deepEqual(await findClusterPod(cluster.kubectl, deployment('app: nope'), 'shop'), { ok: false, error: 'no pod of Deployment "web" with labels app=nope in namespace "shop"' });
  assert.deepEqual(await findClusterPod(cluster.kubectl, deployment('app: web'), undefined), { ok: false, error: 'no Running pod of Deployment "web" in kubectl\'s current namespace (web-p is Pending)' });
  const missing = await findClusterPod({ path: join(cluster.dir, 'no-kubectl') }, deployment('app: web'), undefined);
  assert.ok(!missing.ok && /^kubectl not found: ".*no-kubectl" \(install kubectl, or name it with --kubectl PATH/.test(missing.error), JSON.stringify(missing));
  const job = specOf('kind: Job\nmetadata: {name: migrate}\nspec:\n  template:\n    spec: {restartPolicy: Never, containers: [{name: web, image: web}]}\n');
  assert.deepEqual(podQueryArgs(job, undefined), { ok: true, args: ['get', 'pods', '-l', 'job-name=migrate', '-o', 'json'] }, 'a Job without labels: the label its controller adds');
  const template = specOf('kind: PodTemplate\nmetadata: {name: t}\ntemplate:\n  spec: {containers: [{name: web, image: web}]}\n');
  assert.match((podQueryArgs(template, undefined) as { error: string }).error, /template only/);
  assert.equal(choosePod({ kind: 'List', items: [] }, deployment('app: web'), undefined).ok, false);
});

/** A kubectl that only fails, writing `stderr` as a real kubectl would (exit code 1). */
function failingKubectl(stderr: string): KubectlConfig {
  const dir = scratchDir('probe-lens-kubectl-');
  writeFileSync(join(dir, 'stderr'), stderr);
  const path = join(dir, 'kubectl');
  writeFileSync(path, `#!/bin/sh\ncat "${join(dir, 'stderr')}" >&2\nexit 1\n`, { mode: 0o755 });
  return { path };
}

const UNREACHABLE = `${Array.from({ length: 5 }, () => 'E1124 10:00:00.123456   1234 memcache.go:265] "Unhandled Error" err="couldn\'t get current server API group list: Get \\"https://127.0.0.1:6443/api?timeout=32s\\": dial tcp 127.0.0.1:6443: connect: connection refused"').join('\n')}
The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
`;

test('finding the pods: kubectl failing is said in one sentence, classified, with its stderr kept; the search stops at once', async () => {
  const kubectl = failingKubectl(UNREACHABLE);
  const deployment = (name: string) => specOf(`kind: Deployment\nmetadata: {name: ${name}}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    spec: {containers: [{name: web, image: web, readinessProbe: {tcpSocket: {port: 80}}}]}\n`);
  const found = await findClusterPod(kubectl, deployment('web'), undefined);
  assert.ok(!found.ok);
  assert.equal(found.error, "kubectl cannot reach the cluster at 127.0.0.1:6443 (connection refused): check that the cluster is running and that kubectl's current context is the right one.");
  assert.equal(found.kubectl?.error.kind, 'unreachable');
  assert.equal(found.kubectl?.command, 'kubectl get pods -l app=web -o json');
  assert.equal(found.kubectl?.stderr, UNREACHABLE, 'the whole stderr, for the log');

  const pods = ['web', 'api'].map((name, index) => ({ identity: { name, namespace: 'default', uid: `uid-${index}` }, spec: deployment(name) }));
  const all = await findClusterPods(kubectl, pods);
  assert.ok(!all.ok);
  assert.equal(all.reason, found.error, 'one sentence, not one per pod');
  assert.equal(all.kubectl?.error.kind, 'unreachable');

  const named = await findClusterPod({ path: '/nonexistent/kubectl', namedBy: 'the probeLens.kubectlPath setting' }, deployment('web'), undefined);
  assert.ok(!named.ok);
  assert.equal(named.error, 'kubectl was not found at /nonexistent/kubectl: install kubectl, or set the probeLens.kubectlPath setting to its full path.', 'no CLI flag where the user has a setting');
  assert.equal(named.kubectl?.error.kind, 'kubectl-missing');
  const onPath = await findClusterPod({ path: 'no-such-kubectl-here', namedBy: 'the probeLens.kubectlPath setting' }, deployment('web'), undefined);
  assert.ok(!onPath.ok && onPath.error === 'kubectl was not found on PATH (as "no-such-kubectl-here"): install kubectl, or set the probeLens.kubectlPath setting to its full path.', JSON.stringify(onPath));
});

test('a port-forward kubectl cannot start reports down with the classified reason and the whole stderr', async () => {
  const kubectl = failingKubectl('error: error upgrading connection: pods "web-abc" is forbidden: User "dev" cannot create resource "pods/portforward" in API group "" in the namespace "shop"\n');
  const changes: TunnelChange[] = [];
  const tunnel = new PortForwardTunnel({ kubectl, namespace: 'shop', pod: 'web-abc', remotePorts: [8080], clock: new RealClock(), backoff: { initialMs: 60_000, maxMs: 60_000, stableMs: 60_000 }, onChange: (c) => changes.push(c) });
  try {
    tunnel.start();
    const end = performance.now() + 10_000;
    while (changes.length === 0 && performance.now() < end) await sleep(20);
    const down = changes[0] as Extract<TunnelChange, { state: 'down' }>;
    assert.equal(down.state, 'down');
    assert.equal(down.error.kind, 'forbidden');
    assert.equal(down.error.sentence, 'user "dev" may not port-forward to pods in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.');
    assert.match(down.reason, /^error: error upgrading connection: pods "web-abc" is forbidden/, 'the prober error keeps kubectl\'s own words');
    assert.match(down.stderr, /cannot create resource "pods\/portforward"/);
  } finally {
    tunnel.dispose();
  }
});

test('HTTP, TCP and gRPC probes cross a real port-forward to real servers; outputs name the pod\'s address', async () => {
  const app = await startHttpServer((req, res) => {
    res.statusCode = req.url === '/healthz' ? 200 : 503;
    res.end('body');
  });
  const raw = await startRawServer(() => undefined);
  const grpc = await startHealthServer({ answer: (service) => (service === 'down' ? SERVING_STATUS.NOT_SERVING : SERVING_STATUS.SERVING) });
  const cluster = fakeCluster([RUNNING('web-abc')], { 8080: app.port, 7070: raw.port, 9090: grpc.port });
  const spec = specOf(
    POD_YAML(`      livenessProbe: {httpGet: {path: /healthz, port: http}}
      readinessProbe: {tcpSocket: {port: raw}}
      startupProbe: {grpc: {port: 9090}}
`),
  );
  const { target, events, nextChange } = await connect(cluster, spec);
  try {
    const up = await nextChange(1);
    assert.equal(up.state, 'up');
    assert.deepEqual([...up.ports.keys()], [7070, 8080, 9090]);
    const forward = cluster.calls().find((c) => c[0] === 'port-forward');
    assert.deepEqual(forward, ['port-forward', '-n', 'default', 'pod/web-abc', '--address', '127.0.0.1', ':7070', ':8080', ':9090']);
    assert.deepEqual(
      events.filter((e) => e.type === 'tunnel').map((e) => (e.type === 'tunnel' ? [e.pod, e.state, e.remote, /^127\.0\.0\.1:\d+$/.test(e.local)] : [])),
      [7070, 8080, 9090].map((port) => ['web-abc', 'up', `web-abc:${port}`, true]),
    );

    assert.deepEqual(await attempt(target, request(spec, 'liveness')), { result: 'success', output: 'body' });
    assert.equal(app.accepted(), 1, 'the HTTP probe reached the real server through the tunnel');
    assert.deepEqual(await attempt(target, request(spec, 'readiness')), { result: 'success', output: '' });
    assert.equal(raw.accepted(), 1);
    assert.deepEqual(await attempt(target, request(spec, 'startup')), { result: 'success', output: 'service healthy' });
    assert.equal(grpc.requests.length, 1);
    assert.match(grpc.requests[0]?.userAgent ?? '', /^kube-probe\/1\.33/);

    const failing = specOf(POD_YAML('      livenessProbe: {httpGet: {path: /broken, port: 8080}}\n'));
    assert.deepEqual(await attempt(target, { ...request(spec, 'liveness'), probe: request(failing, 'liveness').probe }), { result: 'failure', output: 'HTTP probe failed with statuscode: 503' });
  } finally {
    target.dispose();
    await Promise.all([app.close(), raw.close(), grpc.close()]);
  }
});

test('a port nothing listens on in the pod: kubectl accepts, then reports the refusal — the kubelet\'s "connection refused" failure', async () => {
  const closed = await freePort();
  const cluster = fakeCluster([RUNNING('web-abc')], { 8080: closed, 7070: closed });
  const spec = specOf(POD_YAML('      livenessProbe: {httpGet: {path: /healthz, port: http}}\n      readinessProbe: {tcpSocket: {port: raw}}\n'));
  const { target, nextChange } = await connect(cluster, spec);
  try {
    await nextChange(1);
    assert.deepEqual(await attempt(target, request(spec, 'readiness')), { result: 'failure', output: 'dial tcp 10.244.0.7:7070: connect: connection refused' });
    assert.deepEqual(await attempt(target, request(spec, 'liveness')), { result: 'failure', output: 'dial tcp 10.244.0.7:8080: connect: connection refused' });
  } finally {
    target.dispose();
  }
});

test('P5: with the tunnel down, attempts are prober errors saying why; it comes back up after its back-off', async () => {
  const app = await startHttpServer((_req, res) => res.end('ok'));
  const cluster = fakeCluster([RUNNING('web-abc')], { 8080: app.port });
  const spec = specOf(POD_YAML('      livenessProbe: {httpGet: {path: /healthz, port: http}}\n'));
  const { target, events, nextChange } = await connect(cluster, spec, { backoff: { initialMs: 300, maxMs: 1000, stableMs: 60_000 } });
  try {
    await nextChange(1);
    const [first] = cluster.forwarders();
    assert.ok(first);
    process.kill(first, 'SIGKILL');
    const down = await nextChange(2);
    assert.equal(down.state, 'down');
    assert.match((down as { reason: string }).reason, /kubectl port-forward exited \(signal SIGKILL\)/);
    const during = await attempt(target, request(spec, 'liveness'));
    assert.equal(during.result, 'unknown');
    assert.match(during.error ?? '', /^port-forward to pod web-abc is down, reconnecting: kubectl port-forward exited/);
    assert.equal(app.accepted(), 0, 'nothing reached the app');

    const again = await nextChange(3);
    assert.equal(again.state, 'up');
    assert.equal(cluster.forwarders().length, 2, 'a new kubectl');
    assert.equal(target.tunnel('uid-web-abc')?.generation, 2);
    assert.deepEqual(await attempt(target, request(spec, 'liveness')), { result: 'success', output: 'ok' });
    assert.deepEqual(
      events.filter((e) => e.type === 'tunnel').map((e) => (e.type === 'tunnel' ? e.state : '')),
      ['up', 'down', 'up'],
    );
  } finally {
    target.dispose();
    await app.close();
  }
});

test('a kubectl that gives up after a refused connection (≥ 1.23): the attempt counts as refused, the tunnel restarts', async () => {
  const closed = await freePort();
  const cluster = fakeCluster([RUNNING('web-abc')], { 7070: closed }, { FAKE_KUBECTL_EXIT_ON_ERROR: '1' });
  const spec = specOf(POD_YAML('      readinessProbe: {tcpSocket: {port: raw}}\n'));
  const { target, nextChange } = await connect(cluster, spec, { backoff: { initialMs: 200, maxMs: 1000, stableMs: 60_000 } });
  try {
    await nextChange(1);
    assert.deepEqual(await attempt(target, request(spec, 'readiness')), { result: 'failure', output: 'dial tcp 10.244.0.7:7070: connect: connection refused' });
    const down = await nextChange(2);
    assert.match((down as { reason: string }).reason, /error: lost connection to pod/);
    assert.equal((await nextChange(3)).state, 'up');
  } finally {
    target.dispose();
  }
});

test('tunnel back-off on the engine\'s clock: 1×, 2×, 4× the initial delay while kubectl keeps failing, capped', async () => {
  const cluster = fakeCluster([RUNNING('web-abc', {}, { phase: 'Pending' })]);
  const clock = new VirtualClock();
  const changes: TunnelChange[] = [];
  const tunnel = new PortForwardTunnel({ kubectl: cluster.kubectl, namespace: undefined, pod: 'web-abc', remotePorts: [8080], clock, backoff: { initialMs: 1000, maxMs: 3000, stableMs: 10_000 }, onChange: (c) => changes.push(c) });
  const starts = () => cluster.calls().filter((c) => c[0] === 'port-forward').length;
  const waitForTimer = async () => {
    const end = performance.now() + 10_000;
    while (clock.pendingTimers !== 1 && performance.now() < end) await sleep(10);
    // The ready timeout is cancelled by the exit, which leaves exactly the restart timer.
    while (starts() === 0 && performance.now() < end) await sleep(10);
  };
  try {
    tunnel.start();
    const until = async (count: number) => {
      const end = performance.now() + 10_000;
      while ((starts() < count || clock.pendingTimers !== 1 || tunnel.isUp) && performance.now() < end) await sleep(10);
      await sleep(50);
    };
    await waitForTimer();
    await until(1);
    assert.deepEqual(changes.map((c) => c.state), ['down'], 'one down, not one per failed restart');
    assert.match((changes[0] as { reason: string }).reason, /unable to forward port because pod is not running\. Current status=Pending/);
    assert.equal((changes[0] as Extract<TunnelChange, { state: 'down' }>).error.kind, 'pod-not-running', 'what it means, for the notification');
    assert.match((changes[0] as Extract<TunnelChange, { state: 'down' }>).stderr, /Current status=Pending/, 'kubectl\'s stderr, for the log');
    for (const [delay, count] of [
      [1000, 2],
      [2000, 3],
      [3000, 4],
      [3000, 5],
    ] as const) {
      clock.advanceBy(delay - 1);
      await sleep(100);
      assert.equal(starts(), count - 1, `not restarted before ${delay} ms`);
      clock.advanceBy(1);
      await until(count);
      assert.equal(starts(), count, `restarted after ${delay} ms`);
    }
    assert.equal(changes.length, 1);
  } finally {
    tunnel.dispose();
  }
  assert.equal(clock.pendingTimers, 0, 'dispose cancels the restart');
});

test('exec probes run in the container through kubectl exec (E1–E4), only when allowed', async () => {
  const cluster = fakeCluster([RUNNING('web-abc')]);
  const spec = specOf(
    POD_YAML(`      livenessProbe: {exec: {command: [sh, -c, 'echo $(GREETING) out; echo err >&2']}, timeoutSeconds: 10}
      readinessProbe: {exec: {command: [sh, -c, 'echo not yet; exit 3']}, timeoutSeconds: 10}
      startupProbe: {exec: {command: [sleep, '5']}, timeoutSeconds: 1}
`),
  );
  const refused = await connect(cluster, spec);
  try {
    const outcome = await attempt(refused.target, request(spec, 'liveness'));
    assert.equal(outcome.result, 'unknown');
    assert.match(outcome.error ?? '', /exec probes run commands in your container \(kubectl exec\) and were not allowed \(use --allow-exec/);
    assert.equal(cluster.calls().length, 0, 'kubectl was not run');
  } finally {
    refused.target.dispose();
  }
  const { target } = await connect(cluster, spec, { allowExec: true });
  try {
    assert.deepEqual(await attempt(target, request(spec, 'liveness')), { result: 'success', output: 'hello out\nerr\n' }, 'E5 expansion, E2 stdout then stderr');
    assert.deepEqual(cluster.calls().at(-1), ['exec', '-n', 'default', 'web-abc', '-c', 'web', '--', 'sh', '-c', 'echo hello out; echo err >&2']);
    assert.deepEqual(await attempt(target, request(spec, 'readiness')), { result: 'failure', output: 'not yet\n' }, 'E3; kubectl\'s "command terminated" line is not output');
    const started = performance.now();
    assert.deepEqual(await attempt(target, request(spec, 'startup')), { result: 'failure', output: 'command "sleep 5" timed out' }, 'E4');
    assert.ok(performance.now() - started < 2500);
    const elsewhere = { ...request(spec, 'liveness'), container: { ...request(spec, 'liveness').container, name: 'sidecar' } };
    const missing = await attempt(target, elsewhere);
    assert.deepEqual(missing, { result: 'unknown', output: '', error: 'kubectl exec: error: unable to upgrade connection: container not found ("sidecar")' }, 'E3: a runtime error');
  } finally {
    target.dispose();
  }
});

test('httpGet.host / tcpSocket.host other than the pod: refused, since a port-forward reaches only the pod', async () => {
  const cluster = fakeCluster([RUNNING('web-abc')]);
  const spec = specOf(POD_YAML('      livenessProbe: {httpGet: {port: 8080, host: db.internal}}\n      readinessProbe: {tcpSocket: {port: 8080, host: 10.0.0.9}}\n'));
  const { target } = await connect(cluster, spec);
  try {
    const http = await attempt(target, request(spec, 'liveness'));
    assert.deepEqual(http, { result: 'unknown', output: '', error: 'httpGet.host is "db.internal", not the pod: a port-forward reaches only the pod\'s own ports, so this probe cannot be run from here' });
    assert.match((await attempt(target, request(spec, 'readiness'))).error ?? '', /^tcpSocket\.host is "10\.0\.0\.9", not the pod/);
    assert.equal(cluster.calls().length, 0, 'no port to forward: no kubectl at all');
  } finally {
    target.dispose();
  }
});

test('dispose leaves no kubectl behind: the port-forward and an exec in flight are killed', async () => {
  const app = await startHttpServer((_req, res) => res.end('ok'));
  const cluster = fakeCluster([RUNNING('web-abc')], { 8080: app.port });
  const spec = specOf(POD_YAML('      livenessProbe: {httpGet: {port: http}}\n      readinessProbe: {exec: {command: [sleep, "30"]}, timeoutSeconds: 30}\n'));
  const clock: Clock = new RealClock();
  const { target, nextChange } = await connect(cluster, spec, { allowExec: true, clock });
  await nextChange(1);
  const pending = attempt(target, request(spec, 'readiness'));
  await sleep(300);
  const pids = cluster.forwarders();
  assert.equal(pids.length, 1);
  target.dispose();
  const outcome = await pending;
  assert.equal(outcome.result, 'unknown', 'an aborted exec is a prober error');
  assert.ok(await allGone(pids), `port-forward ${pids.join()} still running`);
  await app.close();
  assert.ok(await app.allClosed(), 'no connection left open');
});

test('httpGet.host set to the pod\'s own IP goes through the tunnel like the default', async () => {
  const app = await startHttpServer((_req, res) => res.end('me'));
  const cluster = fakeCluster([RUNNING('web-abc')], { 8080: app.port });
  const spec = specOf(POD_YAML('      livenessProbe: {httpGet: {port: 8080, host: 10.244.0.7}}\n'));
  assert.deepEqual(forwardedPorts(spec, '10.244.0.7'), [8080]);
  const { target, nextChange } = await connect(cluster, spec);
  try {
    await nextChange(1);
    assert.deepEqual(await attempt(target, request(spec, 'liveness')), { result: 'success', output: 'me' });
    assert.equal(app.accepted(), 1);
  } finally {
    target.dispose();
    await app.close();
  }
});
