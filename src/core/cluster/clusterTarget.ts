import type { ClusterPod } from './clusterPod';
import type { StreamRefusal } from './streamAccess';
import type { Clock } from '../base/clock';
import type { AttemptRequest, ProbeTarget } from '../engine/target';
import { expandCommand } from '../k8s/expand';
import { type ExecResult, runExec } from '../kubeclient/execStream';
import type { KubeApi } from '../kubeclient/kubeApi';
import { openPortForward, type PortForwardTarget } from '../kubeclient/portForwardStream';
import { joinHostPort } from '../probers/goFormat';
import { MAX_OUTPUT_BYTES, type ProbeOutcome, proberError, probeUserAgent, timeoutMessage } from '../probers/types';
import { ForwardedAttempt, type ForwardVerdict, forwardVerdict } from './forwardedAttempt';
import { type ResolvedHandler, resolveHandler } from '../targets/resolve';

export interface ClusterTargetOptions {
  readonly api: KubeApi;
  /** The cluster pod a manifest pod (by its engine uid) is probed through now: a rollout changes it. */
  readonly podOf: (uid: string) => ClusterPod | undefined;
  /** exec probes run commands in the user's containers: only when the user said so. */
  readonly allowExec: boolean;
  /** The cluster's minor version: `User-Agent: kube-probe/1.N` (H3, G1). */
  readonly minorVersion: number;
  readonly clock: Clock;
  /** The cluster refused a stream of `request`'s attempt with 403 (RBAC): every attempt of it would meet the same. */
  readonly onForbidden?: (refusal: StreamRefusal, request: AttemptRequest) => void;
  /** What the node's runtime wrote on the error channel when it refused a probe's port-forward. */
  readonly onRuntimeRefusal?: (request: AttemptRequest, text: string) => void;
}

/** The prober error of an exec probe the user did not allow. */
export const EXEC_NOT_ALLOWED = 'exec probes run commands in your container and were not allowed (use --allow-exec, or the extension\'s consent)';

/**
 * A TCP connect through a port-forward has no "connected" of its own: the pod end reports only a
 * failed dial, on the error channel, a round trip after the stream opened. An attempt that heard
 * nothing for this many round trips of the stream's own opening (and at least the floor) succeeded.
 */
const TCP_SETTLE_ROUND_TRIPS = 3;
const TCP_SETTLE_FLOOR_MS = 50;

type NetworkHandler = Exclude<ResolvedHandler, { type: 'exec' }>;

/** A probe as prepared for one pod address (kept in `AttemptRequest.targetState`). */
type ClusterProbe =
  | { readonly owner: ClusterTarget; readonly podIP: string | undefined; readonly kind: 'refused'; readonly outcome: ProbeOutcome }
  | { readonly owner: ClusterTarget; readonly podIP: string | undefined; readonly kind: 'exec'; readonly command: readonly string[] }
  | { readonly owner: ClusterTarget; readonly podIP: string | undefined; readonly kind: 'network'; readonly handler: NetworkHandler };

/**
 * Probes real pods the way their kubelet does, from this machine, through the API server
 * (`KubeApi`, over `kubectl proxy`): HTTP and gRPC by the real probers dialling a port-forward
 * of their own attempt (`ForwardedAttempt`), TCP by a port-forward stream alone, exec by the
 * API's exec stream. Every attempt has its own streams, so one probe's refused port says nothing
 * about another's. What the pod end reports is worded as the kubelet would word it for the pod's
 * address: the URL, the Host header and the messages carry `podIP:containerPort`.
 *
 * A port-forward reaches the pod's loopback (the runtime dials `localhost:PORT` in the pod's
 * network namespace) where the kubelet dials the pod IP: an app listening on 127.0.0.1 only
 * answers here and refuses the kubelet. The session compares the two verdicts and says so.
 */
export class ClusterTarget implements ProbeTarget {
  private readonly inFlight = new Set<{ dispose(): void }>();
  private readonly aborters = new Set<AbortController>();
  private readonly userAgent: string;
  private disposed = false;

  constructor(private readonly options: ClusterTargetOptions) {
    this.userAgent = probeUserAgent(options.minorVersion);
  }

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    const pod = this.options.podOf(request.pod.uid);
    if (this.disposed) return done(proberError('probing stopped'));
    if (!pod) return done(proberError(`no running pod of ${request.pod.name} in the cluster now`));
    const known = request.targetState as ClusterProbe | undefined;
    const probe = known?.owner === this && known.podIP === pod.podIP ? known : (request.targetState = this.prepare(request, pod));
    const timeoutMs = request.probe.timeoutSeconds * 1000;
    switch (probe.kind) {
      case 'refused':
        return done(probe.outcome);
      case 'exec':
        return this.exec(request, pod, probe.command, timeoutMs, done);
      case 'network': {
        const target = { namespace: pod.namespace, pod: pod.name, port: probe.handler.port };
        const heard = (verdict: ForwardVerdict) => this.heard(request, target, verdict);
        if (probe.handler.type === 'tcpSocket') return this.tcp(target, podAddress(pod, probe.handler.port), timeoutMs, heard, done);
        return void this.forwarded(probe.handler, target, timeoutMs, heard).then(done);
      }
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const aborter of this.aborters) aborter.abort();
    for (const attempt of this.inFlight) attempt.dispose();
    this.aborters.clear();
    this.inFlight.clear();
  }

  /** How an attempt's port-forward ended, told to whoever reads the cluster's refusals (RBAC) or the runtime's. */
  private heard(request: AttemptRequest, target: PortForwardTarget, verdict: ForwardVerdict): void {
    if (verdict.kind === 'remote-error') this.options.onRuntimeRefusal?.(request, verdict.text);
    else if (verdict.kind === 'rejected' && verdict.failure.status === 403) this.options.onForbidden?.({ resource: 'pods/portforward', namespace: target.namespace, pod: target.pod, failure: verdict.failure }, request);
  }

  /** Everything about a probe that holds while the pod keeps its address. */
  private prepare(request: AttemptRequest, pod: ClusterPod): ClusterProbe {
    const base = { owner: this, podIP: pod.podIP } as const;
    const handler = request.probe.handler;
    if ((handler?.type === 'httpGet' || handler?.type === 'tcpSocket') && handler.host && handler.host !== pod.podIP) {
      const field = handler.type === 'httpGet' ? 'httpGet.host' : 'tcpSocket.host';
      return { ...base, kind: 'refused', outcome: proberError(`${field} is "${handler.host}", not the pod: a port-forward reaches only the pod's own ports, so this probe cannot be run from here`) };
    }
    const resolved = resolveHandler(handler, request.container, pod.podIP ?? pod.name);
    if (!resolved.ok) return { ...base, kind: 'refused', outcome: proberError(resolved.error) };
    if (resolved.handler.type !== 'exec') return { ...base, kind: 'network', handler: resolved.handler };
    if (!this.options.allowExec) return { ...base, kind: 'refused', outcome: proberError(EXEC_NOT_ALLOWED) };
    const command = expandCommand(resolved.handler.command, request.container.spec.env ?? []);
    if (command.length === 0 || command[0] === '') return { ...base, kind: 'refused', outcome: proberError('exec probe has no command to run') };
    return { ...base, kind: 'exec', command };
  }

  /** HTTP and gRPC: the real prober, dialling this attempt's own local end of the port-forward. */
  private async forwarded(handler: Exclude<NetworkHandler, { type: 'tcpSocket' }>, target: PortForwardTarget, timeoutMs: number, heard: (verdict: ForwardVerdict) => void): Promise<ProbeOutcome> {
    const attempt = await ForwardedAttempt.listen(this.options.api, target);
    if (!attempt) return proberError('could not listen on a loopback port for the port-forward');
    if (this.disposed) {
      attempt.dispose();
      return proberError('probing stopped');
    }
    this.inFlight.add(attempt);
    const aborter = new AbortController();
    this.aborters.add(aborter);
    const dial = () => ({ host: '127.0.0.1', port: attempt.localPort });
    const options = { timeoutMs, signal: aborter.signal, dial };
    try {
      const outcome =
        handler.type === 'httpGet'
          ? await (await import('../probers/http')).probeHttp({ scheme: handler.scheme, host: handler.host, port: handler.port, path: handler.path, headers: handler.headers }, { ...options, userAgent: this.userAgent })
          : await (await import('../probers/grpc')).probeGrpc({ host: handler.host, port: handler.port, service: handler.service }, { ...options, userAgent: this.userAgent });
      heard(attempt.outcome);
      return throughForward(outcome, attempt.outcome, handler, target, attempt.localPort);
    } finally {
      this.aborters.delete(aborter);
      this.inFlight.delete(attempt);
      attempt.dispose();
    }
  }

  /** T1–T2 through a port-forward stream: the kubelet's dial, its refusal from the error channel. */
  private tcp(target: PortForwardTarget, address: string, timeoutMs: number, heard: (verdict: ForwardVerdict) => void, done: (outcome: ProbeOutcome) => void): void {
    const { clock } = this.options;
    const startedAt = clock.now();
    const timers: { dispose(): void }[] = [];
    let stream: { dispose(): void } | undefined;
    let settled = false;
    const handle = { dispose: () => finish(proberError('probing stopped')) };
    const finish = (outcome: ProbeOutcome) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) timer.dispose();
      this.inFlight.delete(handle);
      stream?.dispose();
      done(outcome);
    };
    this.inFlight.add(handle);
    timers.push(clock.schedule(timeoutMs, () => finish({ result: 'failure', output: `dial tcp ${address}: i/o timeout` })));
    stream = openPortForward(this.options.api, target, {
      onOpen: () => {
        const waitMs = Math.max(TCP_SETTLE_FLOOR_MS, TCP_SETTLE_ROUND_TRIPS * (clock.now() - startedAt));
        timers.push(clock.schedule(Math.min(waitMs, Math.max(0, startedAt + timeoutMs - clock.now() - 1)), () => finish({ result: 'success', output: '' })));
      },
      // An app that speaks first (a banner) has accepted the connection.
      onData: () => finish({ result: 'success', output: '' }),
      onClose: (end) => {
        const verdict = forwardVerdict(end);
        if (!settled) heard(verdict);
        finish(verdict.kind === 'clean' ? { result: 'success', output: '' } : forwardFailure(verdict, target, address, (dial) => `dial tcp ${address}: ${dial}`));
      },
    });
    if (settled) stream.dispose();
  }

  /** E1–E4 through the exec stream: the command's exit code, its output (capped), the kubelet's timeout. */
  private exec(request: AttemptRequest, pod: ClusterPod, command: readonly string[], timeoutMs: number, done: (outcome: ProbeOutcome) => void): void {
    const container = request.container.name;
    const aborter = new AbortController();
    this.aborters.add(aborter);
    void runExec(this.options.api, { namespace: pod.namespace, pod: pod.name, container, command: [...command], timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES, signal: aborter.signal }).then((result) => {
      this.aborters.delete(aborter);
      if (result.kind === 'failed' && result.failure.status === 403 && result.failure.error.kind === 'forbidden') this.options.onForbidden?.({ resource: 'pods/exec', namespace: pod.namespace, pod: pod.name, failure: result.failure }, request);
      done(execOutcome(result, command));
    });
  }
}

/** `10.244.1.5:8080`: where the kubelet dials. */
function podAddress(pod: ClusterPod, port: number): string {
  return joinHostPort(pod.podIP ?? pod.name, port);
}

/**
 * One decision: what an HTTP or gRPC attempt through a port-forward means. A refusal at the pod
 * end is the kubelet's dial error (the prober only saw its local connection close); a rejected or
 * cut stream is ours, an error never counted (P5); otherwise the prober's own verdict stands.
 */
function throughForward(outcome: ProbeOutcome, verdict: ForwardVerdict, handler: Exclude<NetworkHandler, { type: 'tcpSocket' }>, target: PortForwardTarget, localPort: number): ProbeOutcome {
  const address = joinHostPort(handler.host, handler.port);
  // gRPC redials a refused connection until its deadline, as grpc-go does; its text already names the pod.
  if (verdict.kind === 'remote-error' && handler.type === 'grpc') return outcome;
  if (verdict.kind !== 'clean') {
    const url = /^Get "([^"]*)"/.exec(outcome.output)?.[1];
    return forwardFailure(verdict, target, address, (dial) => (url !== undefined ? `Get "${url}": dial tcp ${address}: ${dial}` : `dial tcp ${address}: ${dial}`));
  }
  const local = `127.0.0.1:${localPort}`;
  if (!outcome.output.includes(local) && !outcome.error?.includes(local)) return outcome;
  const rewrite = (text: string) => text.split(local).join(address);
  return { ...outcome, output: rewrite(outcome.output), ...(outcome.error !== undefined ? { error: rewrite(outcome.error) } : {}) };
}

/** The prober error of an attempt whose port-forward the cluster refused (RBAC, a pod gone, the API server away). */
function forwardRefusedError(pod: string, why: string): string {
  return `port-forward to pod ${pod} refused: ${why}`;
}

/** The pod and the reason of a `forwardRefusedError`, for those who tell people once rather than per attempt. */
export function readForwardRefusal(error: string): { readonly pod: string; readonly why: string } | undefined {
  const match = /^port-forward to pod (\S+) refused: (.+)$/.exec(error);
  return match ? { pod: match[1] as string, why: match[2] as string } : undefined;
}

/** A stream that did not carry the attempt: the pod's refusal as the kubelet words it, or our own trouble as an error. */
function forwardFailure(verdict: Exclude<ForwardVerdict, { kind: 'clean' }>, target: PortForwardTarget, address: string, dialText: (dial: string) => string): ProbeOutcome {
  switch (verdict.kind) {
    case 'remote-error':
      if (/connection refused/i.test(verdict.text)) return { result: 'failure', output: dialText('connect: connection refused') };
      if (/timed out|timeout/i.test(verdict.text)) return { result: 'failure', output: dialText('i/o timeout') };
      return { result: 'failure', output: dialText(verdict.text) };
    case 'rejected':
      return proberError(forwardRefusedError(target.pod, verdict.failure.error.sentence));
    case 'cut':
      return proberError(`the port-forward to pod ${target.pod} dropped during the attempt (${address})`);
  }
}

/**
 * One decision: an exec stream's end as the kubelet's exec probe (E2–E4). Exit 0 is success, any
 * other exit a failure with the output; a runtime that could not run the command is an error
 * (E3, P5); the deadline is the kubelet's `command "…" timed out` failure (E4).
 */
function execOutcome(result: ExecResult, command: readonly string[]): ProbeOutcome {
  switch (result.kind) {
    case 'timedOut':
      return { result: 'failure', output: timeoutMessage(command) };
    case 'aborted':
      return proberError('rpc error: code = Canceled desc = context canceled');
    case 'failed':
      return proberError(result.failure.error.sentence);
    case 'exited': {
      const output = Buffer.concat([result.stdout, result.stderr]).subarray(0, MAX_OUTPUT_BYTES).toString('utf8');
      return { result: result.exitCode === 0 ? 'success' : 'failure', output };
    }
  }
}
