import { goQuote } from './goFormat';

/**
 * The prober-level result of one attempt (docs/spec/kubelet-probes.md R1): `warning` is "logically success,
 * with extra debugging info"; `error` set means a prober *error*, which the kubelet retries (P2)
 * and then discards without counting (P5). Expected failures are values, never exceptions.
 */
export type ProbeResult = 'success' | 'warning' | 'failure' | 'unknown';

export interface ProbeOutcome {
  readonly result: ProbeResult;
  /** What the kubelet puts in its event (`HTTP probe failed with statuscode: 503`). */
  readonly output: string;
  /** A prober error: the attempt does not count (P5). */
  readonly error?: string;
}

export interface AttemptOptions {
  /** `timeoutSeconds` × 1000: bounds the whole attempt, whatever the target does (P4). */
  readonly timeoutMs: number;
  /** Aborts an attempt when its session stops: it then ends at once, leaving nothing behind. */
  readonly signal?: AbortSignal;
}

/**
 * Where a connection to `host:port` really goes: Go's `Transport.DialContext`. The URL, the Host
 * header and every message keep the address asked for; only the socket goes elsewhere (the
 * cluster target: the local end of a port-forward to the pod).
 */
export type Dialer = (host: string, port: number) => { readonly host: string; readonly port: number };

/** The kubelet's response-body and exec-output cap (H8, E2): `10 * 1 << 10`. */
export const MAX_OUTPUT_BYTES = 10 * 1024;

/** A prober *error* (R1): the attempt is retried (P2) and then discarded, never counted (P5). */
export function proberError(error: string): ProbeOutcome {
  return { result: 'unknown', output: '', error };
}

/**
 * The kubelet's exec timeout text: `fmt.Errorf("command %q timed out", strings.Join(cmd, " "))`
 * in the remote runtime's ExecSync (E4). Here rather than in exec.ts, which loads only when an
 * exec probe runs on this machine, so that the simulated and cluster targets word theirs alike.
 */
export function timeoutMessage(command: readonly string[]): string {
  return `command ${goQuote(command.join(' '))} timed out`;
}

/** `kube-probe/<major>.<minor>` (H3, G1). */
export function probeUserAgent(minorVersion: number): string {
  return `kube-probe/1.${minorVersion}`;
}
