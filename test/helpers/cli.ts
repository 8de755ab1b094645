import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The built CLI (`node esbuild.config.mjs` writes it); the CLI tests run it as a user would. */
export const CLI = 'dist/cli.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface SpawnCliOptions {
  /** The child's environment; by default this process's, with NO_COLOR=1. */
  readonly env?: NodeJS.ProcessEnv;
  /** Polled every 50 ms; once it holds, SIGINT (Ctrl-C) follows a second later. */
  readonly interruptWhen?: () => boolean;
  /** SIGINT (Ctrl-C) this long after the start. */
  readonly interruptAfterMs?: number;
  /** SIGKILL if the CLI is still running this long after the start (default 30 s). */
  readonly killAfterMs?: number;
  /** Options for node itself, before the CLI (`--require hook.js`). */
  readonly nodeArgs?: readonly string[];
  /** Sees stdout as it arrives, with the milliseconds since the start. */
  readonly onStdout?: (chunk: string, atMs: number) => void;
}

/** Runs the CLI asynchronously, so the test's own servers keep answering while it runs. */
export function spawnCli(args: readonly string[], options: SpawnCliOptions = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], { env: options.env ?? { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      options.onStdout?.(chunk.toString(), performance.now() - started);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timers: NodeJS.Timeout[] = [setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 30_000)];
    if (options.interruptAfterMs !== undefined) timers.push(setTimeout(() => child.kill('SIGINT'), options.interruptAfterMs));
    const { interruptWhen } = options;
    const poll = interruptWhen
      ? setInterval(() => {
          if (!interruptWhen()) return;
          clearInterval(poll);
          timers.push(setTimeout(() => child.kill('SIGINT'), 1000));
        }, 50)
      : undefined;
    child.on('close', (code) => {
      clearInterval(poll);
      for (const timer of timers) clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface RunCliOptions {
  /** Standard input (default: empty). */
  readonly input?: string | Uint8Array;
  /** The child's environment; by default this process's, with NO_COLOR=1. */
  readonly env?: NodeJS.ProcessEnv;
  /** The child's working directory (default: this process's). */
  readonly cwd?: string;
}

/** Runs the CLI to its end, synchronously: for commands that need no server of this process. */
export function runCli(args: readonly string[], options: RunCliOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [resolve(CLI), ...args], { input: options.input ?? '', encoding: 'utf8', ...(options.cwd !== undefined ? { cwd: options.cwd } : {}), env: options.env ?? { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
