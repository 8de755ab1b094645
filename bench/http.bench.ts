/**
 * HTTP probing throughput: 1 000 concurrent loops probing a loopback HTTP server, through the
 * engine's whole probe path (port resolution, the local target, the HTTP prober) against a bare
 * undici loop making the same exchange the kubelet does at minimum: a fresh connection per
 * request and `Connection: close` (keep-alives off, H5), which undici tears down the same way.
 * Goal (issue 3): ≥ 0.8× the bare loop, measured in the same run.
 */
import { Client } from 'undici';
import { parseManifest } from '../src/core/manifest';
import type { ProbeOutcome } from '../src/core/probers/types';
import { LocalTarget } from '../src/core/targets/local';
import type { AttemptRequest } from '../src/core/engine/target';
import { startLoopbackServer } from './loopbackServer';
import { median } from './stats';

const CONCURRENCY = 1000;
const SECONDS = 2;
const ROUNDS = 5;
const GOAL_RATIO = 0.8;

export async function runHttpBenchmark(log: (line: string) => void): Promise<void> {
  const server = await startLoopbackServer('http');
  try {
    log(`http — ${CONCURRENCY} concurrent loops, GET / from a loopback HTTP server on its own thread; ${ROUNDS} rounds of ${SECONDS} s each way, alternating`);
    await bareLoop(server.port, 1); // warm-up: undici loaded and compiled
    await engineLoop(server.port, 1);
    const rounds: { bare: number; engine: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so a drifting machine favours neither.
      const first = round % 2 === 0 ? await bareLoop(server.port, SECONDS) : await engineLoop(server.port, SECONDS);
      const second = round % 2 === 0 ? await engineLoop(server.port, SECONDS) : await bareLoop(server.port, SECONDS);
      rounds.push(round % 2 === 0 ? { bare: first, engine: second } : { bare: second, engine: first });
    }
    log(`  baseline: bare undici, a fresh Client and Connection: close per request: ${median(rounds.map((r) => r.bare)).toFixed(0)} requests/s (median)`);
    log(`  engine:   LocalTarget → HTTP prober: ${median(rounds.map((r) => r.engine)).toFixed(0)} probes/s (median)`);
    const ratio = median(rounds.map((r) => r.engine / r.bare));
    log(`  ${ratio >= GOAL_RATIO ? 'PASS' : 'FAIL'}  engine / bare = ${ratio.toFixed(2)}× (median of the rounds' ratios: ${rounds.map((r) => (r.engine / r.bare).toFixed(2)).join(', ')}; goal ≥ ${GOAL_RATIO}×)`);
  } finally {
    await server.close();
  }
}

async function bareLoop(port: number, seconds: number): Promise<number> {
  const origin = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const client = new Client(origin);
      try {
        const response = await client.request({ path: '/', method: 'GET', reset: true, headers: { 'user-agent': 'kube-probe/1.33', accept: '*/*' } });
        await response.body.text();
        if (response.statusCode === 200) done++;
      } finally {
        await client.close();
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return done / ((performance.now() - start) / 1000);
}

async function engineLoop(port: number, seconds: number): Promise<number> {
  const manifest = parseManifest(
    `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n    - name: web\n      image: web\n      ports: [{name: http, containerPort: 8080}]\n      readinessProbe: {httpGet: {path: /, port: http}, timeoutSeconds: 10}\n`,
  );
  const container = manifest.documents[0]?.podSpecs[0]?.containers[0];
  const probe = container?.probe('readiness');
  if (!container || !probe) throw new Error('benchmark manifest has no probe');
  const target = new LocalTarget({ host: '127.0.0.1', portMap: new Map([[8080, port]]), allowExec: false, allowedHosts: new Set(), minorVersion: 33, baseEnv: {} });
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const loop = async () => {
    // One request per loop, as a worker keeps one per container instance.
    const request: AttemptRequest = { pod: { name: 'web', namespace: 'default', uid: 'web' }, podSpec: container.pod, container, type: 'readiness', probe: probe.effective, containerId: 'local://web', startedAt: 0, instance: 0 };
    while (performance.now() < deadline) {
      const outcome = await new Promise<ProbeOutcome>((resolve) => target.attempt(request, resolve));
      if (outcome.result === 'success') done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  target.dispose();
  return done / ((performance.now() - start) / 1000);
}
