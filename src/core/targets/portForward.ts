import type { ChildProcess } from 'node:child_process';
import type { Clock } from '../engine/clock';
import type { Disposable } from '../engine/disposable';
import { type KubectlConfig, kubectlNotStarted, MAX_LOGGED_STDERR, namespaceArgs, spawnKubectl } from '../k8s/kubectl';
import { classifyKubectlError, type KubectlError, lastMeaningfulLine } from '../k8s/kubectlErrors';
import { killGroup } from '../probers/boundedProcess';

/**
 * What the tunnel reports: all its ports are forwarded (`up`), or none is (`down`, with kubectl's
 * last word as `reason`, what it means as `error`, and the end of its stderr for the log).
 */
export type TunnelChange =
  | { readonly state: 'up'; readonly ports: ReadonlyMap<number, number> }
  | { readonly state: 'down'; readonly ports: ReadonlyMap<number, number>; readonly reason: string; readonly error: KubectlError; readonly stderr: string };

/** Why a kubectl run ended: kubectl's last word, what it means, and what it wrote to stderr. */
interface Exit {
  readonly reason: string;
  readonly error: KubectlError;
  readonly stderr: string;
}

export interface TunnelBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Up at least this long before dropping: the next restart starts from `initialMs` again. */
  readonly stableMs: number;
}

const TUNNEL_BACKOFF: TunnelBackoff = { initialMs: 1_000, maxMs: 30_000, stableMs: 10_000 };

export interface PortForwardOptions {
  readonly kubectl: KubectlConfig;
  readonly namespace: string | undefined;
  readonly pod: string;
  /** Container ports to forward; kubectl picks each local port (`:8080`). */
  readonly remotePorts: readonly number[];
  readonly clock: Clock;
  readonly onChange: (change: TunnelChange) => void;
  readonly backoff?: TunnelBackoff;
  /** A kubectl that has not printed every `Forwarding from` line by then is killed and restarted. */
  readonly readyTimeoutMs?: number;
}

/** `Forwarding from 127.0.0.1:41234 -> 8080` (kubectl's `Forwarding from %s -> %d`, the address joined Go-style). */
const FORWARDING = /^Forwarding from (\S+):(\d+) -> (\d+)\s*$/;
/** client-go logs a connection it could not forward as `an error occurred forwarding L -> R: …`. */
const FORWARD_ERROR = /an error occurred forwarding (\d+) -> (\d+): (.*?)"?$/;
const MAX_LINE = 4096;

/**
 * `kubectl port-forward pod/NAME --address 127.0.0.1 :R…`, kept running: the local ports kubectl
 * chose are read from its `Forwarding from` lines; when kubectl exits (the pod went away, the
 * connection to the API server dropped, a refused connection made it give up) the tunnel is down
 * and kubectl is started again after a back-off. Disposing kills kubectl's process group.
 */
export class PortForwardTunnel implements Disposable {
  /** remote → local while up; empty while down. Shared, live, with whoever maps ports. */
  readonly ports = new Map<number, number>();
  private child: ChildProcess | undefined;
  private timer: Disposable | undefined;
  private disposed = false;
  private up = false;
  private reported: 'up' | 'down' | undefined;
  private upSince = 0;
  private delayMs = 0;
  private lastReason = 'starting kubectl port-forward';
  private lastLocal = new Map<number, number>();
  private readonly forwardErrors = new Map<number, { at: number; message: string }>();
  /** Incremented on every `up`: an attempt that began in another generation crossed a drop. */
  generation = 0;

  constructor(private readonly options: PortForwardOptions) {}

  start(): this {
    this.spawn();
    return this;
  }

  get isUp(): boolean {
    return this.up;
  }

  /** `starting` until kubectl first forwards every port or fails. */
  get state(): 'starting' | 'up' | 'down' {
    return this.reported ?? 'starting';
  }

  /** Why it is down (kubectl's last error line), for the prober error of an attempt that cannot go through. */
  get downReason(): string {
    return this.lastReason;
  }

  /** The args it runs kubectl with. */
  private args(): string[] {
    return ['port-forward', ...namespaceArgs(this.options.namespace), `pod/${this.options.pod}`, '--address', '127.0.0.1', ...this.options.remotePorts.map((p) => `:${p}`)];
  }

  /** kubectl's report of a connection to `remote` it could not forward, if one came at or after `since` (clock ms). */
  forwardErrorSince(remote: number, since: number): string | undefined {
    const error = this.forwardErrors.get(remote);
    return error && error.at >= since ? error.message : undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timer?.dispose();
    this.timer = undefined;
    this.stopChild();
    this.up = false;
    this.ports.clear();
  }

  private spawn(): void {
    if (this.disposed) return;
    this.timer = undefined;
    let child: ChildProcess;
    try {
      child = spawnKubectl(this.options.kubectl, this.args());
    } catch (error) {
      this.exited(notStarted(this.options.kubectl, error));
      return;
    }
    this.child = child;
    const pending = new Map<number, number>();
    const stderr = new StderrTail();
    let early: Exit | undefined;
    lines(child.stdout, (line) => {
      const match = FORWARDING.exec(line);
      // --address 127.0.0.1: only the IPv4 line; without it kubectl also prints `[::1]:L`.
      if (!match || match[1] !== '127.0.0.1' || this.child !== child) return;
      const remote = Number(match[3]);
      if (!this.options.remotePorts.includes(remote)) return;
      pending.set(remote, Number(match[2]));
      if (!this.up && this.options.remotePorts.every((p) => pending.has(p))) this.becameUp(pending);
    });
    lines(child.stderr, (line) => {
      const error = FORWARD_ERROR.exec(line);
      if (error) this.forwardErrors.set(Number(error[2]), { at: this.options.clock.now(), message: error[3] as string });
      stderr.add(line);
    });
    child.on('error', (error) => {
      early = notStarted(this.options.kubectl, error);
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.exited(early ?? exitOf(stderr.text(), `kubectl port-forward exited (${code !== null ? `exit code ${code}` : `signal ${signal}`})`));
    });
    const readyMs = this.options.readyTimeoutMs ?? 30_000;
    this.timer = this.options.clock.schedule(readyMs, () => {
      this.timer = undefined;
      if (this.up || this.child !== child) return;
      const text = stderr.text();
      const last = lastMeaningfulLine(text);
      const reason = `kubectl port-forward did not report its ports within ${Math.round(readyMs / 1000)} s${last ? ` (${last})` : ''}`;
      const classified = classifyKubectlError(text);
      // Whatever kubectl said explains the wait better than the wait itself.
      early = { reason, error: classified.kind === 'unknown' ? { kind: 'timeout', sentence: `${reason}: check that the cluster answers (kubectl cluster-info).`, detail: reason } : classified, stderr: text };
      killGroup(child);
    });
  }

  private becameUp(ports: ReadonlyMap<number, number>): void {
    this.timer?.dispose();
    this.timer = undefined;
    this.up = true;
    this.upSince = this.options.clock.now();
    this.generation++;
    this.ports.clear();
    for (const [remote, local] of ports) this.ports.set(remote, local);
    this.lastLocal = new Map(ports);
    this.reported = 'up';
    this.options.onChange({ state: 'up', ports: new Map(ports) });
  }

  /** One decision: kubectl is gone; report down (once per drop) and schedule the next start. */
  private exited({ reason, error, stderr }: Exit): void {
    this.timer?.dispose();
    this.timer = undefined;
    if (this.disposed) return;
    const wasUp = this.up;
    this.up = false;
    this.ports.clear();
    this.lastReason = reason;
    const backoff = this.options.backoff ?? TUNNEL_BACKOFF;
    const stable = wasUp && this.options.clock.now() - this.upSince >= backoff.stableMs;
    this.delayMs = this.delayMs === 0 || stable ? backoff.initialMs : Math.min(this.delayMs * 2, backoff.maxMs);
    if (this.reported !== 'down') {
      this.reported = 'down';
      this.options.onChange({ state: 'down', ports: new Map(this.lastLocal.size > 0 ? this.lastLocal : this.options.remotePorts.map((p) => [p, 0])), reason, error, stderr });
    }
    this.timer = this.options.clock.schedule(this.delayMs, () => this.spawn());
  }

  private stopChild(): void {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    killGroup(child);
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

/** A tunnel's change in a line for people: the CLI's stderr, the extension's output channel. */
export function tunnelText(pod: string, change: TunnelChange): string {
  const ports = [...change.ports].map(([remote, local]) => (local ? `127.0.0.1:${local} → ${remote}` : `${remote}`)).join(', ');
  return change.state === 'up' ? `port-forward to pod ${pod} up: ${ports}` : `port-forward to pod ${pod} down (${change.reason}); probes through it are errors, not failures, until it is back`;
}

function notStarted(kubectl: KubectlConfig, cause: unknown): Exit {
  const error = kubectlNotStarted(kubectl, cause);
  return { reason: error.sentence, error, stderr: '' };
}

/** A run that ended by itself: kubectl's last meaningful line, else how it exited (`fallback`). */
function exitOf(stderr: string, fallback: string): Exit {
  const last = lastMeaningfulLine(stderr);
  return { reason: last || fallback, error: last ? classifyKubectlError(stderr) : { kind: 'unknown', sentence: `${fallback}.`, detail: fallback }, stderr };
}

/** The last `MAX_LOGGED_STDERR` characters of a run's stderr, in whole lines. */
class StderrTail {
  private readonly kept: string[] = [];
  private chars = 0;

  add(line: string): void {
    if (!line.trim()) return;
    this.kept.push(line);
    this.chars += line.length + 1;
    while (this.chars > MAX_LOGGED_STDERR && this.kept.length > 1) this.chars -= (this.kept.shift() as string).length + 1;
  }

  text(): string {
    return this.kept.join('\n');
  }
}

/** Calls `onLine` for each line of a stream, a line capped at MAX_LINE characters. */
function lines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      onLine(buffer.slice(0, newline).replace(/\r$/, ''));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
    if (buffer.length > MAX_LINE) buffer = buffer.slice(-MAX_LINE);
  });
  stream.on('error', () => undefined);
}
