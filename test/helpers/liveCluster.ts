import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiServer, type ApiServerOptions, requireKubectl, startApiServer } from '../fixtures/apiserver';
import { type CliResult, spawnCli, type SpawnCliOptions } from './cli';
import { startHttpServer, type TestServer } from './httpServers';
import { kubectlProcesses } from './kubectlProcesses';
import { scratchDir } from './scratch';

// For end-to-end CLI tests of cluster mode: a test API server, a kubeconfig for it, the CLI run
// through the real kubectl, its jsonl lines parsed, and the kubectl processes it left checked.

export type Line = Record<string, unknown> & { type: string };

export interface Run extends CliResult {
  readonly lines: Line[];
  /** kubectl processes of this run's kubeconfig seen while it ran (polled), and after it ended. */
  readonly kubectlSeen: number;
  readonly kubectlLeft: number[];
}

export interface Cluster {
  readonly server: ApiServer;
  readonly dir: string;
  readonly kubeconfig: string;
  readonly env: NodeJS.ProcessEnv;
  /** Writes the manifest; returns its path. */
  manifest(yaml: string, name?: string): string;
  /** The CLI: `run ARGS --target cluster --format jsonl`; `during` is called every 50 ms while it runs. */
  run(args: readonly string[], during?: () => void, env?: NodeJS.ProcessEnv, options?: Omit<SpawnCliOptions, 'env'>): Promise<Run>;
}

/** A test API server of `version`, a kubeconfig for it; `servers` (the pods' apps) are closed at the end too. */
export async function withCluster(version: string, body: (cluster: Cluster) => Promise<void>, servers: readonly TestServer[] = [], options: Omit<ApiServerOptions, 'version'> = {}): Promise<void> {
  try {
    requireKubectl();
    const server = await startApiServer({ ...options, version });
    try {
      await body(clusterOf(server));
    } finally {
      await server.dispose();
    }
  } finally {
    for (const app of servers) await app.close();
  }
}

function clusterOf(server: ApiServer): Cluster {
  const dir = scratchDir('probe-lens-cli-live-');
  const kubeconfig = server.writeKubeconfig(dir);
  const env = { ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1' };
  return {
    server,
    dir,
    kubeconfig,
    env,
    manifest(yaml, name = 'manifest.yaml') {
      const file = join(dir, name);
      writeFileSync(file, yaml);
      return file;
    },
    async run(args, during, runEnv = env, options = {}) {
      let kubectlSeen = 0;
      const poll = setInterval(() => {
        kubectlSeen = Math.max(kubectlSeen, kubectlProcesses(kubeconfig).length);
        during?.();
      }, 50);
      const result = await spawnCli(['run', ...args, '--target', 'cluster', '--format', 'jsonl'], { ...options, env: runEnv });
      clearInterval(poll);
      const kubectlLeft = kubectlProcesses(kubeconfig);
      const lines = result.stdout.trim() ? result.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line) : [];
      return { ...result, lines, kubectlSeen, kubectlLeft };
    },
  };
}

export type App = TestServer & { readonly seen: readonly { readonly host?: string; readonly path?: string; readonly at: number }[] };

/** An HTTP app that answers 200 to every path (after `delayMs`) and remembers what reached it. */
export async function startApp(delayMs = 0): Promise<App> {
  const seen: { host?: string; path?: string; at: number }[] = [];
  const app = await startHttpServer((req, res) => {
    seen.push({ host: req.headers.host, path: req.url, at: Date.now() });
    const answer = () => res.end('ok');
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
  return Object.assign(app, { seen });
}

export const of = (lines: readonly Line[], type: string) => lines.filter((l) => l.type === type);
export const brief = (attempts: readonly Line[]) => JSON.stringify(attempts.map((a) => `${a['t']}:${a['pod']}:${a['outcome']}:${a['error'] ?? a['output']}`));
/** stdout and stderr, for the assertion messages. */
export const shown = (run: Run) => `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;

/** stderr without the line saying where the run connected (`probe-lens: context …, Kubernetes …`). */
export function errorLines(run: Run): string[] {
  return run.stderr.split('\n').filter((line) => line !== '' && !/^probe-lens: context \S+, Kubernetes v/.test(line));
}

/**
 * After the first probe and the one the kubelet triggers while not Ready, one attempt per period
 * (`periodSeconds: 1`), on the worker's fixed-rate ticks (W3): each later attempt starts a whole
 * number of periods after the second, one period after the one before. An attempt's line is
 * written when it ends, so its start is its `t` less its `durationMs`; a slow port-forward delays
 * one attempt's end, not the tick the next one starts on (a gap between two line times can be
 * shorter than a period without any attempt being early).
 */
export function assertOnePerPeriod(attempts: readonly Line[], periodSeconds = 1): void {
  const starts = attempts.map((a) => Number(a['t']) - Number(a['durationMs'] ?? 0) / 1000);
  const shown = () => attempts.map((a) => `${Number(a['t']).toFixed(3)} (${Number(a['durationMs'] ?? 0).toFixed(0)} ms)`).join(', ');
  const first = starts[1] as number;
  starts.slice(1).forEach((start, k) => {
    const ticks = (start - first) / periodSeconds;
    assert.ok(Math.abs(ticks - k) < 0.35, `one attempt per period: attempt ${k + 2} starts ${ticks.toFixed(2)} periods after the second, not ${k}: ${shown()}`);
  });
}

export function assertCleanRun(run: Run): void {
  assert.equal(run.code, 0, shown(run));
  assert.ok(run.kubectlSeen > 0, 'the kubectl proxy was seen while the run went on (the check below can fail)');
  assert.deepEqual(run.kubectlLeft, [], 'no kubectl left once the CLI has exited');
}
