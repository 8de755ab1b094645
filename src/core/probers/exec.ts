import { type BoundedRunResult, runBounded } from '../base/boundedProcess';
import { MAX_OUTPUT_BYTES, type AttemptOptions, type ProbeOutcome, proberError, timeoutMessage } from './types';

export { timeoutMessage } from './types';

export interface ExecProbeTarget {
  /** Already expanded (E5, `expandCommand`); `command[0]` is the program, looked up on PATH. */
  readonly command: readonly string[];
  /** The child's whole environment; when absent it inherits this process's. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/**
 * One exec probe attempt on this machine (docs/spec/kubelet-probes.md E1–E4), bounded by
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

  const run = runBounded(file, args, { env: target.env, cwd: target.cwd, timeoutMs: options.timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES, ...(signal ? { signal } : {}) });
  return run.then((result) => outcomeOf(result, target.command));
}

/** E3, E4 and aborts: how the run's end reads as a probe outcome. */
function outcomeOf(result: BoundedRunResult, command: readonly string[]): ProbeOutcome {
  switch (result.kind) {
    case 'exited': {
      const output = combinedOutput(result.stdout, result.stderr);
      return result.exitCode === 0 ? { result: 'success', output } : { result: 'failure', output };
    }
    case 'timedOut':
      return { result: 'failure', output: timeoutMessage(command) };
    case 'aborted':
      return ABORTED;
    case 'notStarted':
      return proberError(messageOf(result.error));
  }
}

/**
 * stdout then stderr, then the 10 240-byte cap over the pair (E2: the runtime returns the two
 * streams separately and the kubelet appends stderr to stdout before its LimitWriter). A cut
 * through a multi-byte character decodes as U+FFFD.
 */
function combinedOutput(stdout: Buffer, stderr: Buffer): string {
  const both = Buffer.concat([stdout, stderr]);
  return both.subarray(0, MAX_OUTPUT_BYTES).toString('utf8');
}


/**
 * An aborted attempt is what the kubelet gets when the context of its ExecSync call is cancelled:
 * a gRPC `Canceled` error, which is neither an exit nor a timeout, so `unknown` + error (E3) —
 * discarded, never counted (P5).
 */
const ABORTED: ProbeOutcome = { result: 'unknown', output: '', error: 'rpc error: code = Canceled desc = context canceled' };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

