/**
 * Cluster probing latency: one HTTP probe attempt through the whole cluster path — the engine's
 * cluster target, the real `kubectl proxy`, the test API server's port-forward (WebSocket), an
 * HTTP server on 127.0.0.1 playing the pod — answered 200, answered 503, and on a port nothing
 * listens on. The baseline, measured in the same run: the cheapest request the same path carries,
 * `GET /version` through the same proxy. Issue 11: a failing attempt used to take ~305 ms (a
 * 300 ms wait for kubectl's word on a refusal); a 503 must now cost what a 200 costs, and a
 * refused port be known from the error stream at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readClusterPod } from '../src/core/cluster/clusterPod';
import { connectToCluster } from '../src/core/cluster/connect';
import { RealClock } from '../src/core/base/clock';
import type { AttemptRequest } from '../src/core/engine/target';
import { parseManifest } from '../src/core/manifest';
import type { ProbeOutcome } from '../src/core/probers/types';
import { ClusterTarget } from '../src/core/cluster/clusterTarget';
import { requireKubectl, startApiServer } from '../test/fixtures/apiserver';
import { percentiles } from './stats';

const ATTEMPTS = 200;
/** Goal: a failing attempt costs no more than 1.5× a successful one (it was ~50× before: 305 ms against ~6 ms). */
const GOAL_FAILING_OVER_OK = 1.5;
const POD = { name: 'web-5d4f8b7c9-x2k4q', namespace: 'shop' };

export async function runClusterBenchmark(log: (line: string) => void): Promise<void> {
  requireKubectl();
  const app = await listen(createServer((request, response) => {
    response.statusCode = request.url === '/fail' ? 503 : 200;
    response.end(request.url === '/fail' ? 'not ready' : 'ok');
  }));
  const server = await startApiServer({ version: '1.32' });
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-bench-cluster-'));
  const clock = new RealClock();
  try {
    server.addPod({ ...POD, labels: { app: 'web' }, podIP: '10.244.1.5', containers: [{ name: 'web', ports: { 8080: (app.address() as AddressInfo).port } }] });
    const kubeconfig = server.writeKubeconfig(dir, { contexts: [{ name: 'bench', namespace: 'shop' }] });
    const connected = await connectToCluster({ kubectl: { path: 'kubectl', env: { ...process.env, KUBECONFIG: kubeconfig }, namedBy: 'PATH' }, allowExec: false, clock });
    if (!connected.ok) throw new Error(`cannot reach the test API server: ${connected.failure.error.sentence}`);
    const connection = connected.value;
    try {
      const listed = await connection.api.getJson<unknown>(`/api/v1/namespaces/${POD.namespace}/pods/${POD.name}`, { timeoutMs: 10_000 });
      const pod = listed.ok ? readClusterPod(listed.value) : undefined;
      if (!pod) throw new Error('the test pod cannot be read');
      const target = new ClusterTarget({ api: connection.api, podOf: () => pod, allowExec: false, minorVersion: 32, clock });
      log(`cluster — ${ATTEMPTS} sequential HTTP attempts each, through kubectl ${connection.version.gitVersion.replace(/^v/, '')} proxy → test API server port-forward → 127.0.0.1`);
      const version = await timed(() => connection.api.getJson('/version', { timeoutMs: 10_000 }).then(() => undefined));
      const ok = await timed(attemptOf(target, '/ok', 8080, 'success'));
      const failing = await timed(attemptOf(target, '/fail', 8080, 'failure'));
      const refused = await timed(attemptOf(target, '/ok', 9090, 'failure'));
      const line = (what: string, ms: number[]) => {
        const p = percentiles(ms);
        log(`  ${what.padEnd(44)} p50 ${p.p50.toFixed(1).padStart(6)} ms   p99 ${p.p99.toFixed(1).padStart(6)} ms`);
      };
      line('baseline: GET /version through the proxy', version);
      line('attempt answered 200', ok);
      line('attempt answered 503 (a failure)', failing);
      line('attempt on a closed port (refused)', refused);
      const ratio = percentiles(failing).p50 / percentiles(ok).p50;
      log(`  attempt (200) / baseline = ${(percentiles(ok).p50 / percentiles(version).p50).toFixed(2)}× (p50)`);
      log(`  ${ratio <= GOAL_FAILING_OVER_OK ? 'PASS' : 'FAIL'}  failing / successful attempt = ${ratio.toFixed(2)}× (p50; goal ≤ ${GOAL_FAILING_OVER_OK}×)`);
      target.dispose();
    } finally {
      connection.dispose();
    }
  } finally {
    await server.dispose();
    await new Promise((resolve) => app.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One attempt of a readiness probe on `path` and `port`, checked to end as expected. */
function attemptOf(target: ClusterTarget, path: string, port: number, expected: ProbeOutcome['result']): () => Promise<void> {
  const manifest = parseManifest(`apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n    - name: web\n      image: web\n      readinessProbe: {httpGet: {path: ${path}, port: ${port}}, timeoutSeconds: 5}\n`);
  const container = manifest.documents[0]?.podSpecs[0]?.containers[0];
  const probe = container?.probe('readiness');
  if (!container || !probe) throw new Error('benchmark manifest has no probe');
  const request: AttemptRequest = { pod: { name: 'web', namespace: 'shop', uid: 'web' }, podSpec: container.pod, container, type: 'readiness', probe: probe.effective, containerId: 'containerd://web', startedAt: 0, instance: 0 };
  return async () => {
    const outcome = await new Promise<ProbeOutcome>((resolve) => target.attempt(request, resolve));
    if (outcome.result !== expected || outcome.error !== undefined) throw new Error(`${path} on ${port}: expected ${expected}, got ${outcome.result}${outcome.error ? ` (${outcome.error})` : ''}: ${outcome.output}`);
  };
}

/** Milliseconds per run, after 10 runs to warm up. */
async function timed(run: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const start = performance.now();
    await run();
    ms.push(performance.now() - start);
  }
  return ms;
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
