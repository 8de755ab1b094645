import { type ProbeOutcome, proberError, timeoutMessage } from '../probers/types';
import { type ContainerScript, type Scenario, type ScriptedOutcome, scriptedExit, scriptedOutcome, scriptFor } from '../scenario/scenario';
import type { Clock } from '../base/clock';
import { type Disposable, NO_OP } from '../base/disposable';
import type { AttemptRequest, ContainerProcess, ContainerProcesses, ProbeTarget, ProcessRequest } from '../engine/target';
import { goDuration, goQuote, joinHostPort } from '../probers/goFormat';
import { formatProbeUrl } from '../probers/probeUrl';
import { simulatedPodIp } from './podAddresses';
import { type Resolution, type ResolvedHandler, resolveHandler } from './resolve';

/**
 * Answers probes from a scenario on the (virtual) clock, with the outputs the real probers give
 * in the same situation: refused connections while the app starts, timeouts while it hangs.
 */
/** Everything about one probe's answers that does not change from attempt to attempt. */
interface PreparedProbe {
  readonly resolution: Resolution;
  readonly script: ContainerScript;
  /** Only per-attempt scripts need attempts counted. */
  readonly countsAttempts: boolean;
  readonly answers: Partial<Record<ScriptedOutcome | 'not-listening' | 'hang', ProbeOutcome>>;
}

export class SimulatedTarget implements ProbeTarget {
  private readonly podIps = new Map<string, string>();
  /** Attempts so far per container and probe type, for the current instance only. */
  private readonly attempts = new Map<string, { instance: number; count: number }>();
  private readonly pending = new Set<Disposable>();

  constructor(
    private readonly scenario: Scenario,
    private readonly clock: Clock,
  ) {}

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    const prepared = this.prepare(request);
    if (!prepared.resolution.ok) {
      done(proberError(prepared.resolution.error));
      return;
    }
    const { script } = prepared;
    const seconds = (this.clock.now() - request.startedAt) / 1000;
    const scripted = scriptedOutcome(script, request.type, seconds, prepared.countsAttempts ? this.nextAttempt(request) : 0);
    const timeoutMs = request.probe.timeoutSeconds * 1000;
    const hangs = scripted === 'hang' || script.latency * 1000 > timeoutMs;
    const outcome = this.answer(prepared, hangs ? 'hang' : scripted, timeoutMs);
    const delayMs = hangs || waitsForDeadline(prepared.resolution, scripted) ? timeoutMs : script.latency * 1000;
    if (delayMs === 0) {
      done(outcome);
      return;
    }
    const timer = this.clock.schedule(delayMs, () => {
      this.pending.delete(timer);
      done(outcome);
    });
    this.pending.add(timer);
  }

  dispose(): void {
    for (const timer of this.pending) timer.dispose();
    this.pending.clear();
  }

  private prepare(request: AttemptRequest): PreparedProbe {
    const known = request.targetState as PreparedProbe | undefined;
    if (known !== undefined) return known;
    const script = scriptFor(this.scenario, request.container.name);
    const prepared: PreparedProbe = {
      resolution: resolveHandler(request.probe.handler, request.container, this.podIp(request.pod.uid)),
      script,
      countsAttempts: script.probes[request.type]?.kind === 'attempts',
      answers: {},
    };
    request.targetState = prepared;
    return prepared;
  }

  private answer(prepared: PreparedProbe, scripted: ScriptedOutcome | 'not-listening' | 'hang', timeoutMs: number): ProbeOutcome {
    const handler = (prepared.resolution as Extract<Resolution, { ok: true }>).handler;
    return (prepared.answers[scripted] ??= scripted === 'hang' ? timedOut(handler, timeoutMs) : answer(handler, scripted, timeoutMs));
  }

  private nextAttempt(request: AttemptRequest): number {
    const key = `${request.pod.uid}/${request.container.name}/${request.type}`;
    const seen = this.attempts.get(key);
    if (!seen || seen.instance !== request.instance) {
      this.attempts.set(key, { instance: request.instance, count: 1 });
      return 0;
    }
    return seen.count++;
  }

  /** Each simulated pod gets its own address, so outputs read like a cluster's. */
  private podIp(uid: string): string {
    let ip = this.podIps.get(uid);
    if (!ip) {
      ip = simulatedPodIp(this.podIps.size);
      this.podIps.set(uid, ip);
    }
    return ip;
  }
}

/**
 * Container processes that follow the scenario: they exit by themselves at `exitAfter` (plain init
 * containers at once, with 0, unless told otherwise), and after SIGTERM within `stopAfter`.
 */
export class SimulatedProcesses implements ContainerProcesses {
  readonly runsPlainInitContainers = true;
  readonly carriesOutKills = true;

  constructor(
    private readonly scenario: Scenario,
    private readonly clock: Clock,
  ) {}

  start(request: ProcessRequest, onExit: (exitCode: number) => void): ContainerProcess {
    const script = scriptFor(this.scenario, request.container.name);
    const exit = scriptedExit(script, request.container.kind);
    const timer = exit === undefined ? NO_OP : this.clock.schedule(exit.afterSeconds * 1000, () => onExit(exit.exitCode));
    return script.stopAfter === undefined ? timer : { dispose: () => timer.dispose(), stopAfterMs: script.stopAfter * 1000 };
  }
}

/**
 * G2: grpc-go's blocking dial retries a refused connection with back-off until the probe's
 * deadline, so a gRPC probe at a port nobody listens on takes its whole timeout; the other
 * handlers are refused at once.
 */
function waitsForDeadline(resolution: Resolution, scripted: ScriptedOutcome | 'not-listening' | 'hang'): boolean {
  return scripted === 'not-listening' && resolution.ok && resolution.handler.type === 'grpc';
}

function answer(handler: ResolvedHandler, outcome: ScriptedOutcome | 'not-listening', timeoutMs: number): ProbeOutcome {
  switch (handler.type) {
    case 'httpGet': {
      const url = formatProbeUrl(handler.scheme, handler.host, handler.port, handler.path);
      if (outcome === 'not-listening') return failure(`Get "${url}": dial tcp ${joinHostPort(handler.host, handler.port)}: connect: connection refused`);
      if (outcome === 'failure') return failure('HTTP probe failed with statuscode: 503');
      if (outcome === 'warning') return { result: 'warning', output: 'Probe terminated redirects, Response body: ' };
      return { result: 'success', output: '' };
    }
    case 'tcpSocket':
      if (outcome === 'not-listening' || outcome === 'failure') return failure(`dial tcp ${joinHostPort(handler.host, handler.port)}: connect: connection refused`);
      return { result: outcome, output: '' };
    case 'grpc': {
      const address = joinHostPort(handler.host, handler.port);
      if (outcome === 'not-listening') return failure(`timeout: failed to connect service ${goQuote(address)} within ${goDuration(timeoutMs)}: context deadline exceeded`);
      if (outcome === 'failure') return failure('service unhealthy (responded with "NOT_SERVING")');
      return { result: outcome, output: outcome === 'success' ? 'service healthy' : '' };
    }
    case 'exec':
      return outcome === 'not-listening' || outcome === 'failure' ? failure('') : { result: outcome, output: '' };
  }
}

function timedOut(handler: ResolvedHandler, timeoutMs: number): ProbeOutcome {
  switch (handler.type) {
    case 'httpGet':
      return failure(`Get "${formatProbeUrl(handler.scheme, handler.host, handler.port, handler.path)}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
    case 'tcpSocket':
      return failure(`dial tcp ${joinHostPort(handler.host, handler.port)}: i/o timeout`);
    case 'grpc':
      return failure(`timeout: health rpc did not complete within ${goDuration(timeoutMs)}`);
    case 'exec':
      return failure(timeoutMessage(handler.command));
  }
}

function failure(output: string): ProbeOutcome {
  return { result: 'failure', output };
}
