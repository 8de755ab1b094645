import { isIP } from 'node:net';
import { expandCommand } from '../k8s/expand';
import type { Disposable } from '../engine/disposable';
import { NO_OP } from '../engine/disposable';
import type { AttemptRequest, ContainerProcesses, ProbeTarget } from '../engine/target';
import type { EnvVar } from '../manifest';
import { type ProbeOutcome, probeUserAgent } from '../probers/types';
import { type ResolvedHandler, resolveHandler } from './resolve';

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
}

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

  constructor(private readonly options: LocalTargetOptions) {}

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    const resolved = resolveHandler(request.probe.handler, request.container, this.options.host);
    if (!resolved.ok) {
      done(proberError(resolved.error));
      return;
    }
    const refusal = this.refusal(resolved.handler);
    if (refusal) {
      done(proberError(refusal));
      return;
    }
    const env = request.container.spec.env ?? [];
    const aborter = new AbortController();
    if (this.disposed) aborter.abort();
    this.inFlight.add(aborter);
    const settle = (outcome: ProbeOutcome) => {
      this.inFlight.delete(aborter);
      done(outcome);
    };
    runProber(this.mapped(resolved.handler), env, { timeoutMs: request.probe.timeoutSeconds * 1000, signal: aborter.signal }, this.options).then(settle, (error: unknown) =>
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

  private mapped(handler: ResolvedHandler): ResolvedHandler {
    if (handler.type === 'exec') return handler;
    const port = this.options.portMap.get(handler.port) ?? handler.port;
    return { ...handler, port };
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

function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

async function runProber(handler: ResolvedHandler, env: readonly EnvVar[], options: ProberOptions, local: LocalTargetOptions): Promise<ProbeOutcome> {
  const userAgent = probeUserAgent(local.minorVersion);
  switch (handler.type) {
    case 'httpGet':
      return (await probers.http()).probeHttp({ scheme: handler.scheme, host: handler.host, port: handler.port, path: handler.path, headers: handler.headers }, { ...options, userAgent });
    case 'tcpSocket':
      return (await probers.tcp()).probeTcp({ host: handler.host, port: handler.port }, options);
    case 'grpc':
      return (await probers.grpc()).probeGrpc({ host: handler.host, port: handler.port, service: handler.service }, { ...options, userAgent });
    case 'exec': {
      const literal = Object.fromEntries(env.filter((e) => e.name).map((e) => [e.name as string, e.value ?? '']));
      const base = Object.fromEntries(Object.entries(local.baseEnv).filter((entry): entry is [string, string] => entry[1] !== undefined));
      return (await probers.exec()).probeExec({ command: expandCommand(handler.command, env), env: { ...base, ...literal } }, options);
    }
  }
}

function proberError(error: string): ProbeOutcome {
  return { result: 'unknown', output: '', error };
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
