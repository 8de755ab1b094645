import type { Clock } from '../engine/clock';
import type { EventSink } from '../engine/events';
import type { DesiredPod } from '../engine/manager';
import type { AttemptRequest, PodIdentity, ProbeTarget } from '../engine/target';
import { expandCommand } from '../k8s/expand';
import { type ClusterPod, findClusterPod, type KubectlConfig, type KubectlFailure, type KubectlResult, namespaceArgs, runKubectl } from '../k8s/kubectl';
import { lastMeaningfulLine } from '../k8s/kubectlErrors';
import { PROBING_CONTAINERS, type PodSpecModel } from '../manifest';
import { MAX_OUTPUT_BYTES, type ProbeOutcome, proberError, timeoutMessage } from '../probers/types';
import { type LocalProbe, LocalTarget } from './local';
import { PortForwardTunnel, type TunnelBackoff, type TunnelChange } from './portForward';
import { resolveHandler } from './resolve';

/** A manifest's pod spec and the cluster pod found for it (`findClusterPod`). */
export interface ClusterPodBinding {
  /** The engine's identity for it (its `uid` keys attempts to this pod). */
  readonly identity: PodIdentity;
  readonly spec: PodSpecModel;
  readonly pod: ClusterPod;
}

export interface ClusterTargetOptions {
  readonly kubectl: KubectlConfig;
  readonly pods: readonly ClusterPodBinding[];
  /** exec probes run commands in the user's containers (`kubectl exec`): only when the user said so. */
  readonly allowExec: boolean;
  readonly minorVersion: number;
  readonly clock: Clock;
  /** For `tunnel` events: their `t` is seconds since `epoch` on `clock`. */
  readonly epoch: number;
  readonly emit: EventSink;
  /** Told each change with kubectl's reason, for people (the `tunnel` event has no room for it). */
  readonly onTunnelChange?: (pod: ClusterPod, change: TunnelChange) => void;
  readonly backoff?: TunnelBackoff;
  /** After a TCP connect through the tunnel succeeds, or any attempt fails, how long to wait for kubectl to report the pod refused it. */
  readonly tcpSettleMs?: number;
}

interface Connection {
  readonly binding: ClusterPodBinding;
  readonly tunnel: PortForwardTunnel | undefined;
  /** The real probers, aimed at the tunnel's local ports. */
  readonly local: LocalTarget;
}

const TCP_SETTLE_MS = 300;
/** Where the port-forwards listen, and what the pod's IP becomes in a probe. */
const LOOPBACK = '127.0.0.1';

/** A probe as the cluster target prepared it (kept in `AttemptRequest.targetState`). */
type ClusterProbe =
  | { readonly owner: ClusterTarget; readonly kind: 'refused'; readonly outcome: ProbeOutcome }
  /** `command` expanded (E5); `args` the `kubectl exec` that runs it. */
  | { readonly owner: ClusterTarget; readonly kind: 'exec'; readonly command: readonly string[]; readonly args: readonly string[] }
  /** Through the port-forward: `remote` is the container port, `local` the probe the local target runs. */
  | { readonly owner: ClusterTarget; readonly kind: 'forwarded'; readonly type: 'httpGet' | 'tcpSocket' | 'grpc'; readonly remote: number; readonly local: LocalProbe };

/** The prober error of an exec probe the user did not allow. */
export const EXEC_NOT_ALLOWED = "exec probes run commands in your container (kubectl exec) and were not allowed (use --allow-exec, or the extension's consent)";

/**
 * Probes real pods the way the kubelet does, from this machine: HTTP, TCP and gRPC through a
 * `kubectl port-forward` per pod (container port → a local port), exec probes inside the
 * container through `kubectl exec`. The containers are the cluster's: Probe Lens only observes
 * them, so the kubelet decisions it reports (kills, restarts) are simulated.
 *
 * A port-forward bends a few things, and each is made a value the kubelet would recognise:
 * - the tunnel down (kubectl exited, restarting): the attempt is a prober *error* — never
 *   counted (P5) — saying why, and so is an attempt the drop cut through;
 * - kubectl accepts every local connection and only then dials in the pod, so a refused port
 *   looks like a connection that opened and closed. kubectl logs `an error occurred forwarding
 *   L -> R: … connection refused`; an attempt during which that came (for TCP, up to
 *   `tcpSettleMs` after its connect) is the kubelet's `dial tcp <podIP>:<R>: connect: connection refused`;
 * - outputs name the pod's address, not the local port (`127.0.0.1:41234` → `10.244.0.7:8080`).
 */
export class ClusterTarget implements ProbeTarget {
  private readonly connections = new Map<string, Connection>();
  private readonly inFlight = new Set<AbortController>();
  /** Attempts waiting out `tcpSettleMs`, with how each ends. */
  private readonly settles = new Map<{ dispose(): void }, () => void>();
  private readonly firstReports = new Set<string>();
  /** How many pods have a port-forward (probes that are all exec need none). */
  private readonly tunnels: number;
  private connected: (() => void) | undefined;
  private disposed = false;

  constructor(private readonly options: ClusterTargetOptions) {
    for (const binding of options.pods) {
      const remotePorts = forwardedPorts(binding.spec, binding.pod.podIP);
      const tunnel =
        remotePorts.length === 0
          ? undefined
          : new PortForwardTunnel({
              kubectl: options.kubectl,
              namespace: binding.pod.namespace || undefined,
              pod: binding.pod.name,
              remotePorts,
              clock: options.clock,
              backoff: options.backoff,
              onChange: (change) => this.reportTunnel(binding, change),
            });
      const local = new LocalTarget({
        host: LOOPBACK,
        portMap: tunnel?.ports ?? new Map(),
        allowExec: false,
        allowedHosts: new Set(),
        minorVersion: options.minorVersion,
        baseEnv: {},
      });
      this.connections.set(binding.identity.uid, { binding, tunnel, local });
    }
    this.tunnels = [...this.connections.values()].filter((c) => c.tunnel !== undefined).length;
    for (const connection of this.connections.values()) connection.tunnel?.start();
  }

  /**
   * Resolves once every tunnel has forwarded its ports or failed a first time (each fails within
   * its ready timeout), or the target is disposed: probing can start without a burst of
   * "starting" errors.
   */
  whenConnected(): Promise<void> {
    if (this.disposed || this.firstReports.size >= this.tunnels) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.connected;
      this.connected = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** The tunnels, for tests and for a session that shows them. */
  tunnel(uid: string): PortForwardTunnel | undefined {
    return this.connections.get(uid)?.tunnel;
  }

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    const connection = this.connections.get(request.pod.uid);
    if (!connection || this.disposed) return done(proberError(`pod ${request.pod.name} is not connected to the cluster`));
    const known = request.targetState as ClusterProbe | undefined;
    const probe = known?.owner === this ? known : (request.targetState = this.prepare(request, connection));
    switch (probe.kind) {
      case 'refused':
        return done(probe.outcome);
      case 'exec':
        return this.exec(probe.args, probe.command, request.probe.timeoutSeconds * 1000, done);
      case 'forwarded':
        return this.forward(probe, connection, request.probe.timeoutSeconds * 1000, done);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const aborter of this.inFlight) aborter.abort();
    this.inFlight.clear();
    // Every attempt still ends through `done`, with what it had.
    const waiting = [...this.settles];
    this.settles.clear();
    for (const [timer, decide] of waiting) {
      timer.dispose();
      decide();
    }
    this.releaseConnected();
    for (const { tunnel, local } of this.connections.values()) {
      local.dispose();
      tunnel?.dispose();
    }
  }

  /** Everything about a probe that does not change from attempt to attempt (kept in `request.targetState`). */
  private prepare(request: AttemptRequest, connection: Connection): ClusterProbe {
    const { binding } = connection;
    const handler = request.probe.handler;
    if ((handler?.type === 'httpGet' || handler?.type === 'tcpSocket') && handler.host && handler.host !== binding.pod.podIP) {
      const field = handler.type === 'httpGet' ? 'httpGet.host' : 'tcpSocket.host';
      return this.refused(`${field} is "${handler.host}", not the pod: a port-forward reaches only the pod's own ports, so this probe cannot be run from here`);
    }
    const resolved = resolveHandler(handler, request.container, LOOPBACK);
    if (!resolved.ok) return this.refused(resolved.error);
    if (resolved.handler.type === 'exec') {
      if (!this.options.allowExec) return this.refused(EXEC_NOT_ALLOWED);
      const command = expandCommand(resolved.handler.command, request.container.spec.env ?? []);
      if (command.length === 0 || command[0] === '') return this.refused('exec probe has no command to run');
      return { owner: this, kind: 'exec', command, args: ['exec', ...namespaceArgs(binding.pod.namespace || undefined), binding.pod.name, '-c', request.container.name, '--', ...command] };
    }
    // The pod's IP and the address it is reached by stand for each other in the probe (pod IP → 127.0.0.1).
    const local = resolved.handler.host === LOOPBACK ? resolved.handler : { ...resolved.handler, host: LOOPBACK };
    return { owner: this, kind: 'forwarded', type: local.type, remote: local.port, local: connection.local.prepare({ ok: true, handler: local }, request.container) };
  }

  private refused(error: string): ClusterProbe {
    return { owner: this, kind: 'refused', outcome: proberError(error) };
  }

  /** One attempt through the pod's port-forward, by the real prober aimed at its local port. */
  private forward(probe: Extract<ClusterProbe, { kind: 'forwarded' }>, connection: Connection, timeoutMs: number, done: (outcome: ProbeOutcome) => void): void {
    const { binding, tunnel } = connection;
    const { remote } = probe;
    if (!tunnel?.ports.has(remote)) {
      if (tunnel?.state === 'starting') return done(proberError(`port-forward to pod ${binding.pod.name} is starting`));
      if (tunnel?.isUp === false) return done(proberError(`port-forward to pod ${binding.pod.name} is down, reconnecting: ${tunnel.downReason}`));
      return done(proberError(`container port ${remote} is not forwarded (the port-forward was opened for the ports the probes had then: restart probing)`));
    }
    const local = tunnel.ports.get(remote) as number;
    const generation = tunnel.generation;
    const startedAt = this.options.clock.now();
    connection.local.run(probe.local, timeoutMs, (outcome) => {
      const decide = () => done(this.throughTunnel(outcome, binding, tunnel, remote, local, generation, startedAt));
      const settleMs = Math.min(this.options.tcpSettleMs ?? TCP_SETTLE_MS, Math.max(0, startedAt + timeoutMs - this.options.clock.now()));
      // kubectl's report of a refusal can trail the closed connection it explains.
      const mayTrail = (probe.type === 'tcpSocket' && outcome.result === 'success') || outcome.result === 'failure';
      if (!mayTrail || settleMs === 0 || this.disposed || tunnel.forwardErrorSince(remote, startedAt) !== undefined) return decide();
      const timer = this.options.clock.schedule(settleMs, () => {
        this.settles.delete(timer);
        decide();
      });
      this.settles.set(timer, decide);
    });
  }

  /** One decision: what an attempt that went through the tunnel means, given what kubectl said meanwhile. */
  private throughTunnel(outcome: ProbeOutcome, binding: ClusterPodBinding, tunnel: PortForwardTunnel, remote: number, local: number, generation: number, startedAt: number): ProbeOutcome {
    const podAddress = `${binding.pod.podIP ?? binding.pod.name}:${remote}`;
    const refused = tunnel.forwardErrorSince(remote, startedAt);
    if (refused !== undefined) {
      if (/connection refused/i.test(refused)) return { result: 'failure', output: `dial tcp ${podAddress}: connect: connection refused` };
      return proberError(`port-forward could not reach port ${remote} of pod ${binding.pod.name}: ${refused}`);
    }
    if (tunnel.generation !== generation || !tunnel.isUp) return proberError(`port-forward to pod ${binding.pod.name} dropped during the attempt: ${tunnel.downReason}`);
    const rewrite = (text: string) => text.split(`127.0.0.1:${local}`).join(podAddress);
    return { ...outcome, output: rewrite(outcome.output), ...(outcome.error !== undefined ? { error: rewrite(outcome.error) } : {}) };
  }

  private exec(args: readonly string[], command: readonly string[], timeoutMs: number, done: (outcome: ProbeOutcome) => void): void {
    const aborter = new AbortController();
    this.inFlight.add(aborter);
    runKubectl(this.options.kubectl, args, { timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES, signal: aborter.signal }).then((result) => {
      this.inFlight.delete(aborter);
      done(execOutcome(result, command));
    });
  }

  private reportTunnel(binding: ClusterPodBinding, change: TunnelChange): void {
    const t = (this.options.clock.now() - this.options.epoch) / 1000;
    for (const [remote, local] of change.ports) {
      this.options.emit({ type: 'tunnel', t, pod: binding.identity.name, state: change.state, local: local ? `127.0.0.1:${local}` : '', remote: `${binding.pod.name}:${remote}` });
    }
    this.options.onTunnelChange?.(binding.pod, change);
    this.firstReports.add(binding.identity.uid);
    if (this.firstReports.size >= this.tunnels) this.releaseConnected();
  }

  private releaseConnected(): void {
    const connected = this.connected;
    this.connected = undefined;
    connected?.();
  }
}

/** kubectl's last word when the command in the container exited non-zero (cmdutil's CodeExitError). */
const EXIT_TRAILER = /command terminated with exit code (\d+)\s*$/;

/**
 * One decision: a `kubectl exec` run as the kubelet's exec probe (E2–E4). The command's exit
 * status comes back as kubectl's (with `command terminated with exit code N` on its stderr,
 * which is not the command's output); any other non-zero exit is kubectl failing to reach the
 * container — a runtime error, so a prober error (E3, P5). A timeout is the kubelet's
 * `command "…" timed out` failure (E4).
 */
function execOutcome(result: KubectlResult, command: readonly string[]): ProbeOutcome {
  switch (result.kind) {
    case 'timedOut':
      return { result: 'failure', output: timeoutMessage(command) };
    case 'aborted':
      return proberError('rpc error: code = Canceled desc = context canceled');
    case 'notStarted':
      return proberError(result.error);
    case 'exited': {
      let stderr = result.stderr;
      if (result.exitCode !== 0) {
        const trailer = EXIT_TRAILER.exec(result.stderrTail);
        if (!trailer) return proberError(`kubectl exec: ${lastMeaningfulLine(result.stderr.toString('utf8')) || `exit code ${result.exitCode}`}`);
        const text = stderr.toString('utf8');
        const cut = text.search(EXIT_TRAILER);
        if (cut >= 0) stderr = Buffer.from(text.slice(0, cut), 'utf8');
      }
      const output = Buffer.concat([result.stdout, stderr]).subarray(0, MAX_OUTPUT_BYTES).toString('utf8');
      return { result: result.exitCode === 0 ? 'success' : 'failure', output };
    }
  }
}

/** The cluster pods of a manifest's pods, and why some have none. */
export interface ClusterPods {
  readonly bindings: readonly ClusterPodBinding[];
  /** Pods of the manifest with no Running pod in the cluster: why, for the log. */
  readonly missing: readonly string[];
}

/**
 * The cluster pod of each manifest pod with a probe (`findClusterPod`: a Pod by name, a workload by
 * its labels; the manifest's namespace, else `namespace`, else kubectl's current one). Each binding
 * keeps the manifest pod's identity. Fails when kubectl fails (`kubectl`: why, classified; the
 * first failure ends the search, as every other lookup would fail alike) or no pod is found at all.
 */
export async function findClusterPods(
  kubectl: KubectlConfig,
  pods: readonly DesiredPod[],
  namespace?: string,
): Promise<{ readonly ok: true; readonly value: ClusterPods } | { readonly ok: false; readonly reason: string; readonly kubectl?: KubectlFailure }> {
  const bindings: ClusterPodBinding[] = [];
  const missing: string[] = [];
  for (const desired of pods) {
    if (!desired.spec.containers.some((c) => c.probes.length > 0)) continue;
    const found = await findClusterPod(kubectl, desired.spec, namespace);
    if (!found.ok && found.kubectl) return { ok: false, reason: found.error, kubectl: found.kubectl };
    if (!found.ok) missing.push(found.error);
    else bindings.push({ identity: desired.identity, spec: desired.spec, pod: found.pod });
  }
  if (bindings.length === 0) return { ok: false, reason: missing.join('; ') || 'no container of this manifest has a probe' };
  return { ok: true, value: { bindings, missing } };
}

/**
 * The container ports a pod's probes reach, as the kubelet resolves them (N1–N3; gRPC's own
 * port): what its port-forward must carry. Probes with their own `host` (other than the pod's
 * IP) are not forwarded.
 */
export function forwardedPorts(spec: PodSpecModel, podIP?: string): number[] {
  const ports = new Set<number>();
  for (const container of spec.containers) {
    if (!PROBING_CONTAINERS.includes(container.kind)) continue;
    for (const probe of container.probes) {
      const handler = probe.effective.handler;
      if (!handler || handler.type === 'exec' || ('host' in handler && handler.host && handler.host !== podIP)) continue;
      const resolved = resolveHandler(handler, container, '127.0.0.1');
      if (resolved.ok && resolved.handler.type !== 'exec') ports.add(resolved.handler.port);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

