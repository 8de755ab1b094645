import { expandCommand } from '../k8s/expand';
import { isLoopback } from '../k8s/hosts';
import type { Disposable } from '../base/disposable';
import { NO_OP } from '../base/disposable';
import type { AttemptRequest, ContainerProcesses, ProbeTarget } from '../engine/target';
import type { ContainerModel, HandlerType } from '../manifest';
import type { ExecProbeTarget } from '../probers/exec';
import type { PreparedHttpProbe } from '../probers/http';
import { type ProbeOutcome, proberError, probeUserAgent } from '../probers/types';
import { type Resolution, type ResolvedHandler, resolveHandler } from './resolve';

export interface LocalTargetOptions {
  /** Where "the pod IP" points: the loopback by default. */
  readonly host: string;
  /** containerPort → port on this machine (`--port 8080:18080`); unmapped ports are used as they are. */
  readonly portMap: ReadonlyMap<number, number>;
  /** exec probes run commands on this machine: only when the user said so. */
  readonly allowExec: boolean;
  /** Hosts besides the loopback that probes may reach (`httpGet.host`, `--host`); `any` when the user named the probe itself. */
  readonly allowedHosts: ReadonlySet<string> | 'any';
  readonly minorVersion: number;
  /** The environment exec probes run with (the container's literal `env` is laid over it). */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  /**
   * Told when an attempt found nothing listening on a loopback port (connection refused): the
   * app is not running, or listens on another port than the container's. Every time; the
   * listener decides how often to say so.
   */
  readonly onNothingListening?: (refusal: PortRefusal) => void;
}

/** A probe of `containerPort` that reached `host:localPort` (the mapped port, or the same) and was refused. */
export interface PortRefusal {
  readonly host: string;
  readonly containerPort: number;
  readonly localPort: number;
}

/** Go's dial error for a refused connection, as the HTTP and TCP probers write it. */
const REFUSED = /connect: connection refused$/;
/** gRPC retries a refused connection until its deadline, so its failure does not say why. */
const GRPC_NOT_CONNECTED = /^timeout: failed to connect service /;
/** The TCP dial that tells a refused port from a slow one after a gRPC connect timeout. */
const LISTEN_CHECK_MS = 1000;

/**
 * Probes your app on this machine the way the kubelet probes a pod: the pod IP becomes the local
 * host, container ports are mapped, and everything else is the real prober. Probers load on the
 * first attempt that needs them, so a session that never probes HTTP never loads undici.
 */
export class LocalTarget implements ProbeTarget {
  /**
   * One controller per attempt in flight. (One shared signal would collect a listener per attempt,
   * and EventTarget scans them all on every add and remove: quadratic with thousands in flight.)
   */
  private readonly inFlight = new Set<AbortController>();
  private disposed = false;
  private readonly userAgent: string;
  /** `baseEnv` without its unset names: what every exec probe's environment starts from. */
  private readonly baseEnv: Readonly<Record<string, string>>;
  /** Local ports a gRPC connect timeout was checked on (once each: the check opens a connection to the app). */
  private readonly checkedForListener = new Set<number>();

  constructor(private readonly options: LocalTargetOptions) {
    this.userAgent = probeUserAgent(options.minorVersion);
    this.baseEnv = Object.fromEntries(Object.entries(options.baseEnv).filter((entry): entry is [string, string] => entry[1] !== undefined));
  }

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    const known = request.targetState as LocalProbe | undefined;
    // A request can meet two local targets (an exec gate's), each with its own refusals.
    const probe = known?.owner === this ? known : (request.targetState = this.prepare(resolveHandler(request.probe.handler, request.container, this.options.host), request.container));
    this.run(probe, request.probe.timeoutSeconds * 1000, done);
  }

  /**
   * Everything about a probe that does not change from attempt to attempt, from a handler already
   * resolved (by `attempt`, or by a target that probes through this one): what `run` takes.
   */
  prepare(resolution: Resolution, container: ContainerModel): LocalProbe {
    if (!resolution.ok) return { owner: this, kind: 'refused', outcome: proberError(resolution.error) };
    const handler = resolution.handler;
    const refusal = this.refusal(handler);
    if (refusal) return { owner: this, kind: 'refused', outcome: proberError(refusal) };
    if (handler.type !== 'exec') return { owner: this, kind: 'network', handler, http: undefined };
    const env = container.spec.env ?? [];
    const literal = Object.fromEntries(env.filter((e) => e.name).map((e) => [e.name as string, e.value ?? '']));
    return { owner: this, kind: 'exec', exec: { command: expandCommand(handler.command, env), env: { ...this.baseEnv, ...literal } } };
  }

  /** One attempt of a prepared probe, settled through `done` within `timeoutMs` whatever happens. */
  run(probe: LocalProbe, timeoutMs: number, done: (outcome: ProbeOutcome) => void): void {
    if (probe.kind === 'refused') {
      done(probe.outcome);
      return;
    }
    const aborter = new AbortController();
    if (this.disposed) aborter.abort();
    this.inFlight.add(aborter);
    const settle = (outcome: ProbeOutcome) => {
      this.inFlight.delete(aborter);
      if (probe.kind === 'network' && outcome.result === 'failure' && !aborter.signal.aborted) this.noticeRefusal(probe.handler, outcome.output);
      done(outcome);
    };
    this.runProber(probe, { timeoutMs, signal: aborter.signal }).then(settle, (error: unknown) =>
      // A prober that throws has a bug; the attempt still ends, as an error the kubelet would discard.
      settle(proberError(`internal error: ${error instanceof Error ? error.message : String(error)}`)),
    );
  }

  /** Ends every attempt in flight at once: a stopped session leaves no socket or process behind. */
  dispose(): void {
    this.disposed = true;
    for (const aborter of this.inFlight) aborter.abort();
    this.inFlight.clear();
  }

  private async runProber(probe: Exclude<LocalProbe, { kind: 'refused' }>, options: ProberOptions): Promise<ProbeOutcome> {
    if (probe.kind === 'exec') return (await probers.exec()).probeExec(probe.exec, options);
    const handler = probe.handler;
    // Mapped per attempt: a cluster target's map follows its port-forward, which can come back on other ports.
    const port = this.options.portMap.get(handler.port) ?? handler.port;
    switch (handler.type) {
      case 'httpGet': {
        const http = await probers.http();
        if (probe.http?.port !== port) probe.http = { port, prepared: http.prepareHttpProbe({ scheme: handler.scheme, host: handler.host, port, path: handler.path, headers: handler.headers }, this.userAgent) };
        return http.runHttpProbe(probe.http.prepared, options);
      }
      case 'tcpSocket':
        return (await probers.tcp()).probeTcp({ host: handler.host, port }, options);
      case 'grpc':
        return (await probers.grpc()).probeGrpc({ host: handler.host, port, service: handler.service }, { ...options, userAgent: this.userAgent });
    }
  }

  /** One decision: whether a failed attempt found nothing listening on a loopback port, and if so, says so. */
  private noticeRefusal(handler: Exclude<ResolvedHandler, { type: 'exec' }>, output: string): void {
    const listener = this.options.onNothingListening;
    if (!listener || !isLoopback(handler.host)) return;
    const localPort = this.options.portMap.get(handler.port) ?? handler.port;
    const refusal = { host: handler.host, containerPort: handler.port, localPort };
    if (handler.type !== 'grpc') {
      if (REFUSED.test(output)) listener(refusal);
      return;
    }
    if (!GRPC_NOT_CONNECTED.test(output) || this.checkedForListener.has(localPort)) return;
    this.checkedForListener.add(localPort);
    void probers
      .tcp()
      .then((tcp) => tcp.probeTcp({ host: handler.host, port: localPort }, { timeoutMs: LISTEN_CHECK_MS }))
      .then((checked) => {
        if (!this.disposed && checked.result === 'failure' && REFUSED.test(checked.output)) listener(refusal);
      });
  }

  private refusal(handler: ResolvedHandler): string | undefined {
    if (handler.type === 'exec') {
      return this.options.allowExec ? undefined : 'exec probes run commands on this machine and were not allowed (use --allow-exec, or the extension\'s consent)';
    }
    const allowed = this.options.allowedHosts;
    if (allowed === 'any' || isLoopback(handler.host) || allowed.has(handler.host)) return undefined;
    return `host ${handler.host} is not the loopback: local probing reaches other hosts only when allowed (--allow-host ${handler.host})`;
  }
}

/**
 * A probe as a local target prepared it (kept in `AttemptRequest.targetState`): the answer every
 * attempt gets (an unresolvable port, a refused host or exec), or what its prober needs.
 */
export type LocalProbe =
  | { readonly owner: LocalTarget; readonly kind: 'refused'; readonly outcome: ProbeOutcome }
  | { readonly owner: LocalTarget; readonly kind: 'exec'; readonly exec: ExecProbeTarget }
  | {
      readonly owner: LocalTarget;
      readonly kind: 'network';
      readonly handler: Exclude<ResolvedHandler, { type: 'exec' }>;
      /** HTTP's URL and headers, for the local port it was last mapped to. */
      http: { readonly port: number; readonly prepared: PreparedHttpProbe } | undefined;
    };

/** Local containers are your processes: they are never started or stopped by Probe Lens here, so kills and restarts are simulated. */
export class ObservedProcesses implements ContainerProcesses {
  start(): Disposable {
    return NO_OP;
  }
}

type ProberOptions = { readonly timeoutMs: number; readonly signal: AbortSignal };

/** Each prober module, loaded on first use and then kept (undici alone costs ~150 ms to load). */
const probers = {
  http: lazy(() => import('../probers/http')),
  tcp: lazy(() => import('../probers/tcp')),
  grpc: lazy(() => import('../probers/grpc')),
  exec: lazy(() => import('../probers/exec')),
};

/**
 * Loads the prober a handler needs ahead of its first attempt, so that timing that attempt
 * measures the attempt and not the module load (`probe-lens probe`'s durationMs).
 */
export function loadProber(type: HandlerType): Promise<unknown> {
  return PROBER_FOR[type]();
}

const PROBER_FOR: Readonly<Record<HandlerType, () => Promise<unknown>>> = {
  // The HTTP and gRPC probers load their client library on the first attempt, not on import: that load counts too.
  httpGet: async () => (await probers.http()).loadHttpClient(),
  tcpSocket: probers.tcp,
  grpc: async () => (await probers.grpc()).loadGrpcJs(),
  exec: probers.exec,
};

function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

