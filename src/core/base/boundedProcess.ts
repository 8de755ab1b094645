import { type ChildProcess, spawn } from 'node:child_process';

/**
 * A child process that cannot outlive its bounds: the exec prober's attempts (E1–E4), kubectl's
 * runs and helm's renders share it. The child leads its own process group, which gets SIGKILL when the run ends for
 * any reason (a SIGTERM could be ignored), so nothing it started outlives it.
 */

export interface SpawnOptions {
  /** The child's whole environment; when absent it inherits this process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}

export interface BoundedRunOptions extends SpawnOptions {
  readonly timeoutMs: number;
  /** Per stream: what is beyond it is drained and dropped (the child never blocks on a full pipe). */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

/** How one run ended; every way it can end is a value. */
export type BoundedRunResult =
  | {
      readonly kind: 'exited';
      /** `null` when a signal ended it. */
      readonly exitCode: number | null;
      readonly stdout: Buffer;
      readonly stderr: Buffer;
      /** The last bytes of stderr, past the cap: where a program writes its last word. */
      readonly stderrTail: string;
    }
  | { readonly kind: 'timedOut' }
  | { readonly kind: 'aborted' }
  /** It never ran: not found, not executable, bad arguments. */
  | { readonly kind: 'notStarted'; readonly error: unknown };

/**
 * How long, after SIGKILL, to wait for the direct child to be reaped before settling anyway.
 * SIGKILL cannot be caught, so this is normally a few milliseconds; the cap keeps a run within
 * `timeoutMs` + 250 ms even on a loaded machine.
 */
const REAP_GRACE_MS = 100;
const TAIL_BYTES = 512;

/** Starts `file` (argv, no shell) leading its own process group; the caller kills the group. */
export function spawnInGroup(file: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(file, [...args], {
    shell: false,
    detached: true,
    // No stdin, as with the CRI's ExecSync; kubectl reads none either.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    cwd: options.cwd,
    windowsHide: true,
  });
}

/** SIGKILL to the child's whole process group (negative pid); it may already be gone. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group, which is the goal.
  }
}

/**
 * Runs `file` once, bounded by `timeoutMs`, the output cap and `signal`. It ends when the child
 * has exited *and* its stdout/stderr are closed, so a background process still holding the pipes
 * makes it a timeout (as a container runtime waits for an exec's streams to drain).
 */
export function runBounded(file: string, args: readonly string[], options: BoundedRunOptions): Promise<BoundedRunResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawnInGroup(file, args, options);
    } catch (error) {
      // Node throws synchronously for bad arguments (a NUL byte) and for spawn errors other than
      // the common ENOENT/EACCES family, which arrive as an 'error' event instead.
      resolve({ kind: 'notStarted', error });
      return;
    }
    const stdout = new CappedBuffer(options.maxOutputBytes);
    const stderr = new CappedBuffer(options.maxOutputBytes);
    let tail = Buffer.alloc(0);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      tail = Buffer.concat([tail, chunk.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
    });
    // A read error on our end of a pipe must not crash the host; 'close' still follows.
    child.stdout?.on('error', ignore);
    child.stderr?.on('error', ignore);

    let settled = false;
    const finish = (result: BoundedRunResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      killGroup(child);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve(result);
      // Wait for the reap so the caller never sees the direct child still alive; bounded.
      const grace = setTimeout(() => resolve(result), REAP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(grace);
        resolve(result);
      });
    };
    const onAbort = (): void => finish({ kind: 'aborted' });
    const deadline = setTimeout(() => finish({ kind: 'timedOut' }), Math.max(0, options.timeoutMs));
    signal?.addEventListener('abort', onAbort, { once: true });
    // ENOENT (no such program), EACCES (not executable, a directory), … : the process never ran.
    child.on('error', (error) => finish({ kind: 'notStarted', error }));
    // 'close' comes after the exit *and* the end of both pipes, so the output is complete.
    child.on('close', (code: number | null) => finish({ kind: 'exited', exitCode: code, stdout: stdout.bytes(), stderr: stderr.bytes(), stderrTail: tail.toString('utf8') }));
  });
}

/**
 * Keeps the first `cap` bytes of a stream and drops the rest: the kubelet's LimitWriter (E2).
 * Keeps the chunks it is given: each must be the caller's to give (a pipe's, a WebSocket message's).
 */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    if (this.size >= this.cap) return;
    const kept = chunk.length <= this.cap - this.size ? chunk : chunk.subarray(0, this.cap - this.size);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

function ignore(): void {}
