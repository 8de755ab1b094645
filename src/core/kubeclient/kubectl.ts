import type { ChildProcess } from 'node:child_process';
import { runBounded, spawnInGroup } from '../base/boundedProcess';
import { sentenceEnd } from '../text/sentence';
import type { KubectlError } from './kubectlErrors';

/** Which kubectl, and the environment it runs with (KUBECONFIG, PATH …). */
export interface KubectlConfig {
  /** The executable: `kubectl` (looked up on PATH), or a path (`--kubectl`, `probeLens.kubectlPath`). */
  readonly path: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * How the user names kubectl, for the sentence when it cannot be found (`the probeLens.kubectlPath
   * setting`); without it, both the CLI flag and the setting are named.
   */
  readonly namedBy?: string;
}

export interface KubectlRunOptions {
  readonly timeoutMs: number;
  /** Per stream: what is beyond it is drained and dropped (the child never blocks on a full pipe). */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

/** How one kubectl run ended; every way it can end is a value. */
export type KubectlResult =
  | {
      readonly kind: 'exited';
      readonly exitCode: number;
      readonly stdout: Buffer;
      readonly stderr: Buffer;
      /** The last bytes of stderr, past the cap: where kubectl writes its own last word. */
      readonly stderrTail: string;
    }
  | { readonly kind: 'timedOut' }
  | { readonly kind: 'aborted' }
  /** It never ran: not found, not executable. */
  | { readonly kind: 'notStarted'; readonly error: string; readonly failure: KubectlError };

/**
 * Runs kubectl once with `args` (argv, no shell), bounded by `timeoutMs` and the output cap.
 * kubectl leads its own process group, which is killed when the run ends for any reason, so
 * nothing it started (an exec's streams, a credential plugin) outlives it.
 */
export async function runKubectl(kubectl: KubectlConfig, args: readonly string[], options: KubectlRunOptions): Promise<KubectlResult> {
  const result = await runBounded(kubectl.path, args, { ...options, ...(kubectl.env ? { env: kubectl.env } : {}) });
  switch (result.kind) {
    case 'notStarted':
      return { kind: 'notStarted', error: notStartedText(kubectl, result.error), failure: kubectlNotStarted(kubectl, result.error) };
    case 'exited':
      // A signal death (exit code null) is an exit too: kubectl's own exit codes start at 1.
      return { ...result, exitCode: result.exitCode ?? 128 };
    default:
      return result;
  }
}

/** Starts a long-running kubectl (port-forward) in its own process group; the caller kills the group. */
export function spawnKubectl(kubectl: KubectlConfig, args: readonly string[]): ChildProcess {
  return spawnInGroup(kubectl.path, args, kubectl.env ? { env: kubectl.env } : {});
}

/** `kubectl` not on PATH is the first thing a user meets: say which setting names it. */
function notStartedText(kubectl: KubectlConfig, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (kubectl.namedBy) return namedNotStartedText(kubectl.path, kubectl.namedBy, code, error);
  if (code === 'ENOENT') return `kubectl not found: "${kubectl.path}" (install kubectl, or name it with --kubectl PATH / the probeLens.kubectlPath setting)`;
  if (code === 'EACCES') return `kubectl "${kubectl.path}" cannot be run: permission denied`;
  return `kubectl "${kubectl.path}" cannot be run: ${error instanceof Error ? error.message : String(error)}`;
}

/** The same, as one sentence naming the one way this user names kubectl (`namedBy`). */
function namedNotStartedText(path: string, namedBy: string, code: string | undefined, error: unknown): string {
  // A bare name is looked up on PATH; a path is where the user said it is.
  const where = path.includes('/') || path.includes('\\') ? `at ${path}` : `on PATH (as "${path}")`;
  if (code === 'ENOENT') return `kubectl was not found ${where}: install kubectl, or set ${namedBy} to its full path.`;
  if (code === 'EACCES') return `kubectl ${where} cannot be run (permission denied): make it executable, or set ${namedBy} to another kubectl.`;
  return `kubectl ${where} cannot be run (${error instanceof Error ? error.message : String(error)}): set ${namedBy} to a kubectl that runs.`;
}

/** kubectl could not be started, as a classified error (kind `kubectl-missing`). */
export function kubectlNotStarted(kubectl: KubectlConfig, error: unknown): KubectlError {
  return { kind: 'kubectl-missing', sentence: sentenceEnd(notStartedText(kubectl, error)), detail: error instanceof Error ? error.message : String(error) };
}

/** A kubectl run that failed: the classified error, the command (for the log) and what it wrote to stderr. */
export interface KubectlFailure {
  readonly error: KubectlError;
  /** `kubectl get pods -l app=web -o json`. */
  readonly command: string;
  /** The end of its stderr (at most `MAX_LOGGED_STDERR` characters): the log shows it whole. */
  readonly stderr: string;
}

/** What of kubectl's stderr goes to the log: its end, where the reason is. */
export const MAX_LOGGED_STDERR = 16 * 1024;
