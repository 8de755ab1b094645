import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { test } from 'node:test';
import { type App, type Line, of, startApp, withCluster } from '../helpers/liveCluster';

// The long run: `run --target cluster` for SOAK_SECONDS (10 minutes by default) against the test
// API server through the real kubectl proxy — exec, HTTP and TCP probes, the port-forwards cut
// three times, a rollout in the middle — which must end at --for with every attempt accounted
// for. Its figures go to out/soak/cluster.json and stdout. `npm run soak`; `npm test` runs it
// beside the other suites.

const SECONDS = Number(process.env['PROBE_LENS_SOAK_SECONDS'] ?? 600);
/** Each cut: for this long, every port-forward is cut as soon as it is live. */
const OUTAGE_MS = 3_000;

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata: {name: shop, namespace: shop}
spec:
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers:
        - name: web
          image: web
          ports: [{containerPort: 8080}]
          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 1}
          livenessProbe: {exec: {command: [sh, -c, 'echo alive']}, periodSeconds: 2}
        - name: db
          image: db
          livenessProbe: {tcpSocket: {port: 5432}, periodSeconds: 2}
`;

const PROBES = [
  { container: 'web', probe: 'readiness', period: 1 },
  { container: 'web', probe: 'liveness', period: 2 },
  { container: 'db', probe: 'liveness', period: 2 },
] as const;

interface TcpApp {
  readonly port: number;
  connections: number;
  close(): Promise<void>;
}

async function startTcpApp(): Promise<TcpApp> {
  const server = net.createServer((socket) => {
    app.connections++;
    socket.on('error', () => undefined);
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const app: TcpApp = { port: (server.address() as net.AddressInfo).port, connections: 0, close: () => new Promise((resolve) => server.close(() => resolve())) };
  return app;
}

/** The resident memory of a process, in MiB (Linux /proc). */
function rssMiB(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 102.4) / 10;
  } catch {
    return undefined;
  }
}

/** The CLI's own process: node running dist/cli.js with this run's manifest (the newest such). */
function cliPid(manifest: string): number | undefined {
  let found: number | undefined;
  for (const entry of readdirSafe('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.endsWith('dist/cli.js')) && argv.includes(manifest)) found = Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

function readdirSafe(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

test(`the long run: ${SECONDS} s of exec, HTTP and TCP probes through kubectl proxy, the port-forwards cut three times and a rollout — to --for, every attempt accounted for`, { timeout: (SECONDS + 120) * 1000 }, async () => {
  // A slow answer holds each HTTP attempt's port-forward open, for the outages to cut in flight.
  const before: App = await startApp(300);
  const after: App = await startApp(300);
  const dbBefore = await startTcpApp();
  const dbAfter = await startTcpApp();
  try {
    await withCluster(
      '1.32',
      async (cluster) => {
        const file = cluster.manifest(MANIFEST);
        const first = { name: 'shop-6d8f7b9c5-aaaaa', namespace: 'shop' };
        cluster.server.addPod({ ...first, labels: { app: 'shop' }, podIP: '10.244.1.20', containers: [{ name: 'web', ports: { 8080: before.port } }, { name: 'db', ports: { 5432: dbBefore.port } }] });
        const cutsAt = [0.2, 0.45, 0.7].map((f) => f * SECONDS * 1000);
        const rolloutAt = 0.5 * SECONDS * 1000;
        const outages = cutsAt.map(() => ({ cut: 0 }));
        const memory: { at: number; mib: number }[] = [];
        let rollout: Promise<unknown> | undefined;
        let rolledAt = 0;
        let pid: number | undefined;
        let lastSample = 0;
        const started = Date.now();
        const run = await cluster.run(
          [file, '--allow-exec', '--for', `${SECONDS}s`],
          () => {
            const now = Date.now() - started;
            pid ??= cliPid(file);
            if (pid !== undefined && now - lastSample >= 5_000) {
              lastSample = now;
              const mib = rssMiB(pid);
              if (mib !== undefined) memory.push({ at: now / 1000, mib });
            }
            cutsAt.forEach((at, i) => {
              if (now >= at && now < at + OUTAGE_MS && cluster.server.livePortForwards() > 0) (outages[i] as { cut: number }).cut += cluster.server.cutPortForwards();
            });
            if (!rollout && now >= rolloutAt) {
              rolledAt = now / 1000;
              rollout = cluster.server.replacePod(first, 'shop-7a9c8d6e4-bbbbb', { podIP: '10.244.1.21', containers: [{ name: 'web', ports: { 8080: after.port } }, { name: 'db', ports: { 5432: dbAfter.port } }] });
            }
          },
          cluster.env,
          { killAfterMs: (SECONDS + 60) * 1000 },
        );
        await rollout;
        const wallSeconds = (Date.now() - started) / 1000;
        const attempts = of(run.lines, 'attempt');
        const figures = {
          seconds: SECONDS,
          wallSeconds: Math.round(wallSeconds * 10) / 10,
          exitCode: run.code,
          lastEventSeconds: Math.max(...run.lines.map((l) => Number(l['t'] ?? 0))),
          cuts: outages.map((o) => o.cut),
          rolloutAtSeconds: rolledAt,
          targets: of(run.lines, 'target').map((l) => `${String(l['clusterPod'])} at ${Number(l['t']).toFixed(1)} s`),
          probes: PROBES.map(({ container, probe, period }) => {
            const mine = attempts.filter((a) => a['container'] === container && a['probe'] === probe);
            const outcomes: Record<string, number> = {};
            for (const a of mine) outcomes[String(a['outcome'])] = (outcomes[String(a['outcome'])] ?? 0) + 1;
            // Per container instance (the rollout's new pod is a new one, W6): one attempt a period from its first to its last.
            const instances = [...new Set(mine.map((a) => String(a['containerId'])))].map((id) => mine.filter((a) => a['containerId'] === id).map((a) => Number(a['t'])));
            const gaps = instances.flatMap((times) => times.slice(1).map((t, i) => t - (times[i] as number)));
            const expected = instances.reduce((n, times) => n + Math.floor(((times.at(-1) ?? 0) - (times[0] ?? 0)) / period) + 1, 0);
            return { container, probe, period, attempts: mine.length, instances: instances.length, expected, outcomes, maxGapSeconds: Math.round(Math.max(0, ...gaps) * 1000) / 1000, gapsOverTwoPeriods: gaps.filter((g) => g > 2 * period).length };
          }),
          appRequests: { webBefore: before.seen.length, webAfter: after.seen.length, dbBefore: dbBefore.connections, dbAfter: dbAfter.connections },
          execs: cluster.server.execs().length,
          // The CLI's resident memory, its first sample after the start-up, then at each quarter of the run.
          memoryMiB: {
            start: memory[1]?.mib ?? memory[0]?.mib,
            quarters: [0.25, 0.5, 0.75].map((q) => memory[Math.floor(q * (memory.length - 1))]?.mib),
            end: memory.at(-1)?.mib,
            max: Math.max(...memory.map((m) => m.mib)),
            samples: memory.length,
          },
          kubectlSeen: run.kubectlSeen,
          kubectlLeft: run.kubectlLeft.length,
        };
        mkdirSync('out/soak', { recursive: true });
        writeFileSync('out/soak/cluster.json', `${JSON.stringify({ ...figures, memorySamples: memory }, null, 2)}\n`);
        console.log(`soak figures: ${JSON.stringify(figures)}`);

        assert.equal(run.code, 0, run.stderr);
        assert.ok(wallSeconds >= SECONDS && wallSeconds < SECONDS + 30, `ended at --for: ${wallSeconds} s`);
        assert.ok(figures.lastEventSeconds >= SECONDS - 3, `events to the end: the last at ${figures.lastEventSeconds} s`);
        assert.equal(figures.kubectlLeft, 0, 'no kubectl left');
        assert.ok(figures.cuts.every((n) => n >= 1), `each outage cut port-forwards in flight: ${figures.cuts.join(', ')}`);
        assert.deepEqual(figures.targets.length, 2, `the rollout followed: ${figures.targets.join('; ')}`);
        for (const probe of figures.probes) {
          const name = `${probe.container}/${probe.probe}`;
          // The attempts themselves, with the outages' times: what a failure was is the only way to tell
          // a cut the client mistook for an answer from a probe that really timed out on a starved machine.
          const own = attempts.filter((a) => a['container'] === probe.container && a['probe'] === probe.probe);
          const failed = own.filter((a) => a['outcome'] === 'failure');
          // The one failure a rollout may bring is real: the old pod terminates, its app goes away
          // under a readiness attempt in flight, and the kubelet's readiness worker keeps probing
          // during termination (W5 step 7) — so the old container's last readiness attempt may fail
          // (issue 20, run 21: `EOF` 251 ms into the attempt as the old pod was deleted). Any other is not.
          const terminating = (a: (typeof own)[number]) => probe.probe === 'readiness' && !own.some((later) => later['containerId'] === a['containerId'] && (later['t'] as number) > (a['t'] as number));
          const unexplained = failed.filter((a) => !terminating(a));
          assert.equal(unexplained.length, 0, `${name}: a cut or a rollout is never a probe failure: ${JSON.stringify(probe.outcomes)}; failed: ${JSON.stringify(unexplained)}; outages at ${JSON.stringify(cutsAt.map((ms) => ms / 1000))} s; rollout at ${rolledAt} s`);
          // One attempt a period, all along, in each instance: none lost; readiness may add one per instance (the kubelet probes a not-ready container again at once, W13).
          assert.equal(probe.instances, 2, `${name}: the old pod's container and the new one's`);
          assert.ok(probe.attempts >= probe.expected && probe.attempts <= probe.expected + probe.instances, `${name}: ${probe.attempts} attempts for ${probe.expected} periods`);
          assert.equal(probe.gapsOverTwoPeriods, 0, `${name}: no two periods without an attempt: max gap ${probe.maxGapSeconds} s`);
          // An attempt is an error only when every try of it is cut: those begun in an outage, or just before (at most 5 for 3 s at a period of 1 s).
          assert.ok((probe.outcomes['unknown'] ?? 0) <= 3 * 5, `${name}: prober errors only in the outages: ${JSON.stringify(probe.outcomes)}`);
        }
        assert.ok(figures.appRequests.webAfter > 0 && figures.appRequests.dbAfter > 0, 'the new pod was probed');
        const start = figures.memoryMiB.start ?? 0;
        assert.ok((figures.memoryMiB.end ?? 0) - start < 40, `memory holds: ${JSON.stringify(figures.memoryMiB)}`);
        const probedLines = run.lines.filter((l: Line) => l.type === 'attempt').length;
        assert.equal(probedLines, figures.probes.reduce((n, p) => n + p.attempts, 0), 'every attempt line is one of the three probes');
      },
      [before, after],
    );
  } finally {
    await dbBefore.close();
    await dbAfter.close();
  }
});
