import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, spawnCli } from '../helpers/cli';
import { startHttpServer } from '../helpers/httpServers';
import { scratchDir } from '../helpers/scratch';

const FAKE = join(process.cwd(), 'test/fixtures/kubectl/kubectl');

const DEPLOYMENT = (probes: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web
          ports: [{name: http, containerPort: 8080}]
${probes}`;

const POD = { kind: 'Pod', metadata: { name: 'web-7d9c-x2x', namespace: 'default', uid: 'uid-1', labels: { app: 'web' } }, spec: { containers: [{ name: 'web' }] }, status: { phase: 'Running', podIP: '10.244.1.5' } };

function setup(manifest: string, ports: Record<number, number> = {}) {
  const dir = scratchDir('probe-lens-cli-cluster-');
  writeFileSync(join(dir, 'web.yaml'), manifest);
  writeFileSync(join(dir, 'pods.json'), JSON.stringify({ items: [POD] }));
  const pids = mkdtempSync(join(dir, 'pids-'));
  const env = { ...process.env, NO_COLOR: '1', FAKE_KUBECTL_PODS: join(dir, 'pods.json'), FAKE_KUBECTL_PORTS: JSON.stringify(ports), FAKE_KUBECTL_PIDS: pids };
  return { file: join(dir, 'web.yaml'), env, forwarders: () => readdirSync(pids).map(Number) };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function noneAlive(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 50 && pids.some(alive); i++) await sleep(20);
  return !pids.some(alive);
}

test('run --target cluster: a Deployment\'s pod found by its labels, probed through a real port-forward; jsonl with tunnel events', async () => {
  const app = await startHttpServer((req, res) => {
    res.statusCode = req.url === '/ready' ? 200 : 404;
    res.end();
  });
  try {
    const { file, env, forwarders } = setup(DEPLOYMENT('          readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1}\n'), { 8080: app.port });
    const { code, stdout, stderr } = await spawnCli(['run', file, '--target', 'cluster', '--kubectl', FAKE, '--for', '60s', '--format', 'jsonl'], { env, interruptWhen: () => app.accepted() >= 2 });
    assert.equal(code, 0, stderr);
    const [header, ...events] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const { startedAt, ...fixed } = header ?? {};
    assert.deepEqual(fixed, { type: 'run', schemaVersion: 1, t: 0, mode: 'run', target: 'cluster', file, pods: [{ name: 'web-7d9c-x2x', namespace: 'default' }] });
    assert.match(String(startedAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'startedAt: the wall-clock time of t = 0');
    const tunnel = events.find((e) => e.type === 'tunnel');
    assert.equal(tunnel?.state, 'up');
    assert.equal(tunnel?.pod, 'web-7d9c-x2x');
    assert.equal(tunnel?.remote, 'web-7d9c-x2x:8080');
    assert.match(String(tunnel?.local), /^127\.0\.0\.1:\d+$/);
    assert.ok(events.some((e) => e.type === 'attempt' && e.probe === 'readiness' && e.outcome === 'success'), stdout);
    assert.ok(events.some((e) => e.type === 'pod' && e.ready === true), 'the pod became Ready');
    assert.ok(app.accepted() >= 1);
    assert.match(stderr, /Deployment web → pod default\/web-7d9c-x2x \(10\.244\.1\.5\); kills and restarts below are what the kubelet would decide, the pod is not touched/);
    assert.match(stderr, /port-forward to pod web-7d9c-x2x up: 127\.0\.0\.1:\d+ → 8080/);
    assert.ok(await noneAlive(forwarders()), 'no kubectl port-forward left after exit');
  } finally {
    await app.close();
  }
});

test('run --target cluster: exec probes via kubectl exec only with --allow-exec; Ctrl-C stops and kills the port-forward', async () => {
  const app = await startHttpServer((_req, res) => res.end());
  try {
    const marker = join(scratchDir('probe-lens-exec-'), 'ran');
    const { file, env, forwarders } = setup(
      DEPLOYMENT(`          livenessProbe: {exec: {command: [sh, -c, "echo alive; touch ${marker}"]}, periodSeconds: 1, timeoutSeconds: 10}\n          readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 1}\n`),
      { 8080: app.port },
    );
    const refused = await spawnCli(['run', file, '--target', 'cluster', '--kubectl', FAKE, '--for', '60s', '--format', 'jsonl'], { env, interruptWhen: () => app.accepted() >= 1 });
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stdout, /"probe":"liveness",.*"outcome":"unknown",.*"error":"exec probes run commands in your container \(kubectl exec\) and were not allowed/);
    const allowed = await spawnCli(['run', file, '--target', 'cluster', '--kubectl', FAKE, '--allow-exec', '--for', '60s', '--format', 'jsonl'], { env, interruptWhen: () => existsSync(marker) && app.accepted() >= 2 });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /"probe":"liveness","containerId":"cluster:\/\/web-7d9c-x2x\/web\/0","outcome":"success","output":"alive\\n"/);
    assert.match(allowed.stdout, /"probe":"readiness","containerId":"cluster:\/\/web-7d9c-x2x\/web\/0","outcome":"success"/);
    assert.equal(forwarders().length, 2);
    assert.ok(await noneAlive(forwarders()), 'Ctrl-C killed the port-forwards');
  } finally {
    await app.close();
  }
});

test('run --target cluster: no matching pod, a missing kubectl, local-only options are exit 2 with a clear message', () => {
  const { file, env } = setup(DEPLOYMENT('          readinessProbe: {tcpSocket: {port: 8080}}\n'));
  const cli = (args: string[]) => spawnSync(process.execPath, [CLI, 'run', file, '--target', 'cluster', ...args], { env, encoding: 'utf8', timeout: 30_000 });
  const none = cli(['--kubectl', FAKE, '--namespace', 'shop']);
  assert.equal(none.status, 2);
  assert.equal(none.stdout, '');
  assert.equal(none.stderr, 'probe-lens: no pod of Deployment "web" with labels app=web in namespace "shop"\n');
  const missing = cli(['--kubectl', '/nonexistent/kubectl']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^probe-lens: kubectl not found: "\/nonexistent\/kubectl" \(install kubectl, or name it with --kubectl PATH/);
  const port = cli(['--kubectl', FAKE, '--port', '8080:18080']);
  assert.equal(port.status, 2);
  assert.match(port.stderr, /--port is for --target local/);
  const local = spawnSync(process.execPath, [CLI, 'run', file, '--namespace', 'shop'], { env, encoding: 'utf8' });
  assert.equal(local.status, 2);
  assert.match(local.stderr, /--namespace and --kubectl are for --target cluster/);
});
