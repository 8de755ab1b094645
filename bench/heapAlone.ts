/**
 * `node --expose-gc out/bench/heapAlone.js`: retained heap per idle probe worker, and per bare
 * pending timer as the baseline, each after a full collection. Prints one JSON line.
 */
import { RealClock } from '../src/core/base/clock';
import { desiredPods, Manager, podRuntimes } from '../src/core/engine/manager';
import { parseManifest } from '../src/core/manifest';
import { LocalTarget, ObservedProcesses } from '../src/core/targets/local';
import { podsManifest } from './pods';

const PODS = 2000;
const PROBES_PER_POD = 3;

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  // Idle: an hour between probes, so none runs while we measure.
  const manifest = parseManifest(
    podsManifest(PODS, () => `      startupProbe: {tcpSocket: {port: http}, periodSeconds: 3600}
      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 3600}
      livenessProbe: {grpc: {port: 9090}, periodSeconds: 3600}`),
  );
  const pods = desiredPods(manifest);
  const clock = new RealClock();

  const beforeTimers = heapAfterGc();
  const timers = Array.from({ length: PODS * PROBES_PER_POD }, () => clock.schedule(3_600_000, () => undefined));
  const perTimer = (heapAfterGc() - beforeTimers) / timers.length;
  for (const timer of timers) timer.dispose();

  const before = heapAfterGc();
  const target = new LocalTarget({ host: '127.0.0.1', portMap: new Map(), allowExec: false, allowedHosts: new Set(), minorVersion: 33, baseEnv: {} });
  const manager = new Manager(podRuntimes({ clock, epoch: clock.now(), kubeletStartedAt: clock.now() - 3_600_000, random: Math.random, target, processes: new ObservedProcesses(), emit: () => undefined, idScheme: 'local' }));
  manager.sync(pods);
  // The first sync pokes each readiness probe once (W13): let those attempts end, so what is
  // measured is idle workers, not sockets in flight.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const perWorker = (heapAfterGc() - before) / (PODS * PROBES_PER_POD);
  manager.dispose();
  target.dispose();
  process.stdout.write(`${JSON.stringify({ workers: PODS * PROBES_PER_POD, perWorker, perTimer })}\n`);
}

if (require.main === module) void main();
