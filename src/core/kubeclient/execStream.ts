import type { Disposable } from '../base/disposable';
import { CappedBuffer } from '../base/boundedProcess';
import { clip } from '../text/sentence';
import { type ApiFailure, type ApiStatus, parseStatus } from './apiStatus';
import { EXEC_CHANNEL, readChannelFrame } from './channels';
import type { KubeApi } from './kubeApi';

/**
 * An exec probe's command run in the container the way the kubelet's own runs it — through the
 * container runtime — here reached over the API server's exec WebSocket (v5/v4.channel.k8s.io):
 * stdout on channel 1, stderr on 2, and the outcome on 3 as a Status (Success: exit 0; Failure
 * with reason NonZeroExitCode: the exit code in its causes; any other Failure: the runtime could
 * not run it).
 */

export const EXEC_PROTOCOLS: readonly string[] = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];

export interface ExecRequest {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly command: readonly string[];
  /** The result is `timedOut` exactly then; the connection is closed (the command may run on, as under the kubelet). */
  readonly timeoutMs: number;
  /** Per stream; the rest is read and dropped (the kubelet keeps the first 10 KiB). */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

export type ExecResult =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly stdout: Buffer; readonly stderr: Buffer }
  | { readonly kind: 'timedOut' }
  | { readonly kind: 'aborted' }
  /** The command did not run to an exit: the upgrade was refused, the runtime could not start it, the connection dropped. */
  | { readonly kind: 'failed'; readonly failure: ApiFailure };

/** The status channel's JSON is a few hundred bytes; more is not a Status. */
const MAX_STATUS_BYTES = 64 * 1024;

/** The `…/exec?command=…&container=…&stdout=true&stderr=true` path for a request. */
export function execPath(request: Pick<ExecRequest, 'namespace' | 'pod' | 'container' | 'command'>): string {
  const command = request.command.map((word) => `command=${encodeURIComponent(word)}`).join('&');
  return `/api/v1/namespaces/${encodeURIComponent(request.namespace)}/pods/${encodeURIComponent(request.pod)}/exec?${command}&container=${encodeURIComponent(request.container)}&stdout=true&stderr=true`;
}

export function runExec(api: KubeApi, request: ExecRequest): Promise<ExecResult> {
  if (request.signal?.aborted) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    const stdout = new CappedBuffer(request.maxOutputBytes);
    const stderr = new CappedBuffer(request.maxOutputBytes);
    const status = new CappedBuffer(MAX_STATUS_BYTES);
    let refusal: ApiFailure | undefined;
    let opened = false;
    let settled = false;
    const socket = api.openWebSocket(execPath(request), EXEC_PROTOCOLS, (failure) => {
      refusal = failure;
    });
    const settle = (result: ExecResult): void => {
      if (settled) return;
      settled = true;
      deadline.dispose();
      request.signal?.removeEventListener('abort', onAbort);
      socket.close();
      resolve(result);
    };
    const onAbort = (): void => settle({ kind: 'aborted' });
    const deadline: Disposable = api.clock.schedule(request.timeoutMs, () => settle({ kind: 'timedOut' }));
    request.signal?.addEventListener('abort', onAbort, { once: true });
    socket.addEventListener('open', () => {
      opened = true;
    });
    socket.addEventListener('message', (event) => {
      const message = readChannelFrame(event.data as ArrayBuffer | string);
      if (!message) return;
      if (message.channel === EXEC_CHANNEL.stdout) stdout.push(message.payload);
      else if (message.channel === EXEC_CHANNEL.stderr) stderr.push(message.payload);
      else if (message.channel === EXEC_CHANNEL.status) status.push(message.payload);
    });
    socket.addEventListener('close', (event) => {
      if (!opened) return settle({ kind: 'failed', failure: refusal ?? notOpened(request) });
      const outcome = readExecStatus(status.bytes().toString('utf8'), request);
      if (outcome.kind === 'failed') return settle(outcome);
      // A Status settles it; without one, a clean close is success (as client-go reads an empty status channel).
      if (outcome.kind === 'none' && !event.wasClean) return settle({ kind: 'failed', failure: connectionLost(request) });
      settle({ kind: 'exited', exitCode: outcome.kind === 'exited' ? outcome.exitCode : 0, stdout: stdout.bytes(), stderr: stderr.bytes() });
    });
  });
}

/**
 * One decision: what the status channel said. `none`: it said nothing (or not a Status).
 */
export function readExecStatus(text: string, request: Pick<ExecRequest, 'pod' | 'container' | 'command'>): { readonly kind: 'exited'; readonly exitCode: number } | { readonly kind: 'failed'; readonly failure: ApiFailure } | { readonly kind: 'none' } {
  if (text.trim() === '') return { kind: 'none' };
  const status = parseStatus(text) ?? parseBareStatus(text);
  if (!status) return { kind: 'none' };
  if (status.status === 'Success') return { kind: 'exited', exitCode: 0 };
  if (status.reason === 'NonZeroExitCode') {
    const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode')?.message ?? /exit code (\d+)/.exec(status.message ?? '')?.[1];
    const exitCode = Number(cause);
    if (Number.isInteger(exitCode) && exitCode >= 0) return { kind: 'exited', exitCode };
  }
  const message = status.message?.trim() || status.reason || 'no reason given';
  const runtime = runtimeReason(message);
  const detail = clip(runtime ? runtime.said : message, 240);
  const program = request.command[0] ?? '';
  return {
    kind: 'failed',
    failure: {
      error: { kind: 'unknown', sentence: `the cluster could not run "${clip(program, 60)}" in container "${request.container}" of pod "${request.pod}" (${clip(runtime?.why ?? message, 160)}): check the exec probe's command.`, detail },
      detail,
    },
  };
}

/**
 * The runtime's own reason at the end of the kubelet's wrapping (`Internal error occurred: error
 * executing command in container: failed to exec in container: failed to start exec "<id>": OCI
 * runtime exec failed: exec failed: unable to start container process: exec: "nope": executable
 * file not found in $PATH: unknown`): `said` from `exec:` on, `why` what follows the program.
 */
function runtimeReason(message: string): { readonly said: string; readonly why: string } | undefined {
  const match = /(exec: "(?:[^"\\]|\\.)*": (.*?))(?:: unknown)?$/.exec(message);
  return match ? { said: match[1] as string, why: match[2] as string } : undefined;
}

/** Servers before the Status grew `kind` on this channel send it without: `{"metadata":{},"status":"Failure",…}`. */
function parseBareStatus(text: string): ApiStatus | undefined {
  try {
    const value = JSON.parse(text) as ApiStatus | null;
    return value !== null && typeof value === 'object' && typeof value.status === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function notOpened(request: ExecRequest): ApiFailure {
  const detail = `the exec WebSocket to ${request.pod}/${request.container} closed before it opened`;
  return { error: { kind: 'unknown', sentence: `the cluster did not start the exec probe's command in pod "${request.pod}" (${detail}): see the Probe Lens log.`, detail }, detail };
}

function connectionLost(request: ExecRequest): ApiFailure {
  const detail = `the exec connection to ${request.pod}/${request.container} dropped before the command's exit`;
  return { error: { kind: 'unreachable', sentence: `the connection to the cluster dropped while the exec probe's command ran in pod "${request.pod}": Probe Lens tries again at the next period.`, detail }, detail };
}
