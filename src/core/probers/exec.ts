import { spawn, type ChildProcess } from 'node:child_process';
import { CappedBuffer } from './cappedBuffer';
import { goQuote } from './goFormat';
import { MAX_OUTPUT_BYTES, type AttemptOptions, type ProbeOutcome } from './types';

export interface ExecProbeTarget {
  /** Already expanded (E5, `expandCommand`); `command[0]` is the program, looked up on PATH. */
  readonly command: readonly string[];
  /** The child's whole environment; when absent it inherits this process's. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/**
 * How long, after SIGKILL, to wait for the direct child to be reaped before settling anyway.
 * SIGKILL cannot be caught, so this is normally a few milliseconds; the cap keeps the promise
 * within `timeoutMs` + 250 ms even on a loaded machine.
 */
const REAP_GRACE_MS = 100;

/**
 * One exec probe attempt on this machine (kubelet-probes.md E1–E4), bounded by
 * `options.timeoutMs` and the 10 240-byte output cap whatever the command does.
 *
 * - E1: argv is run directly (`shell: false`): no globbing, no `$VAR`, an argument with spaces
 *   stays one argument. No stdin, as with the CRI's ExecSync.
 * - E2: output is stdout followed by stderr, the pair cut to `MAX_OUTPUT_BYTES`. Each stream is
 *   buffered up to the cap and then only drained, so a flood neither grows memory nor blocks the
 *   child on a full pipe.
 * - E3: exit 0 → success; any other exit, including death by a signal (a runtime reports a
 *   non-zero status for it too) → failure with the output; a program that cannot be started →
 *   a prober *error* (`unknown` + `error`), which the kubelet retries (P2) and discards (P5).
 * - E4: at the deadline the whole process group gets SIGKILL (as the runtime kills an ExecSync
 *   that times out; a SIGTERM could be ignored) and the attempt is a failure whose output is the
 *   kubelet's `command "<argv joined by spaces>" timed out`. The attempt ends when the child has
 *   exited *and* its stdout/stderr are closed, so a background process still holding the pipes
 *   makes it a timeout, as the runtime waits for the exec's streams to drain.
 * - Aborting `options.signal` kills the group at once and settles as a prober error (`ABORTED`).
 *
 * The child leads its own process group (`detached`), and when the attempt ends that group is
 * always killed — also after a normal exit — so background processes it left behind do not
 * outlive the attempt (in a container they would; locally they would leak). A descendant that
 * moves itself to another process group or session (`setsid`, a daemonising double fork) is out
 * of reach of a group kill; Node offers no subreaper or cgroup to catch it.
 */
export function probeExec(target: ExecProbeTarget, options: AttemptOptions): Promise<ProbeOutcome> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve(ABORTED);
  const [file, ...args] = target.command;
  // The API server requires a command (E1); an empty one reaching here is still only an error.
  if (file === undefined || file === '') return Promise.resolve(proberError('exec probe has no command to run'));

  return new Promise<ProbeOutcome>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        shell: false,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: target.env ?? process.env,
        cwd: target.cwd,
        windowsHide: true,
      });
    } catch (error) {
      // Node throws synchronously for bad arguments (a NUL byte) and for spawn errors other than
      // the common ENOENT/EACCES family, which arrive as an 'error' event instead.
      resolve(proberError(messageOf(error)));
      return;
    }

    const stdout = new CappedBuffer(MAX_OUTPUT_BYTES);
    const stderr = new CappedBuffer(MAX_OUTPUT_BYTES);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A read error on our end of a pipe must not crash the host; 'close' still follows.
    child.stdout?.on('error', ignore);
    child.stderr?.on('error', ignore);

    let settled = false;
    const finish = (outcome: ProbeOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      killGroup(child);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
        resolve(outcome);
        return;
      }
      // Wait for the reap so the caller never sees the direct child still alive; bounded.
      const grace = setTimeout(() => resolve(outcome), REAP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(grace);
        resolve(outcome);
      });
    };
    const onAbort = (): void => finish(ABORTED);

    const deadline = setTimeout(() => finish({ result: 'failure', output: timeoutMessage(target.command) }), Math.max(0, options.timeoutMs));
    signal?.addEventListener('abort', onAbort, { once: true });

    // ENOENT (no such program), EACCES (not executable, a directory), … : the process never ran.
    child.on('error', (error) => finish(proberError(messageOf(error))));
    // 'close' comes after the exit *and* the end of both pipes, so the output is complete.
    child.on('close', (code: number | null) => {
      const output = combinedOutput(stdout, stderr);
      finish(code === 0 ? { result: 'success', output } : { result: 'failure', output });
    });
  });
}

/**
 * The kubelet's timeout text: `fmt.Errorf("command %q timed out", strings.Join(cmd, " "))` in the
 * remote runtime's ExecSync (E4).
 */
export function timeoutMessage(command: readonly string[]): string {
  return `command ${goQuote(command.join(' '))} timed out`;
}

/**
 * stdout then stderr, then the 10 240-byte cap over the pair (E2: the runtime returns the two
 * streams separately and the kubelet appends stderr to stdout before its LimitWriter). A cut
 * through a multi-byte character decodes as U+FFFD.
 */
function combinedOutput(stdout: CappedBuffer, stderr: CappedBuffer): string {
  const both = Buffer.concat([stdout.bytes(), stderr.bytes()]);
  return both.subarray(0, MAX_OUTPUT_BYTES).toString('utf8');
}

/** SIGKILL to the child's whole process group (negative pid); it may already be gone. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group, which is the goal.
  }
}

/**
 * An aborted attempt is what the kubelet gets when the context of its ExecSync call is cancelled:
 * a gRPC `Canceled` error, which is neither an exit nor a timeout, so `unknown` + error (E3) —
 * discarded, never counted (P5).
 */
const ABORTED: ProbeOutcome = { result: 'unknown', output: '', error: 'rpc error: code = Canceled desc = context canceled' };

function proberError(message: string): ProbeOutcome {
  return { result: 'unknown', output: '', error: message };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ignore(): void {}
