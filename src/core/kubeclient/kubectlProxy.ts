import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import { killGroup } from '../base/boundedProcess';
import { type KubectlConfig, kubectlNotStarted, MAX_LOGGED_STDERR, spawnKubectl } from './kubectl';
import { classifyKubectlError, type KubectlError, lastMeaningfulLine } from './kubectlErrors';
import { PROXY_DIR_PREFIX, reapOrphanedProxies, writeOwnership } from './orphanProxies';

/**
 * One `kubectl proxy` per session, on a Unix socket in a directory only this user can enter:
 * kubectl does the kubeconfig's authentication (tokens, client certificates, exec plugins, OIDC)
 * and Probe Lens speaks HTTP and WebSocket through the socket (`KubeApi`). Exec and attach are
 * rejected by kubectl's default `--reject-paths` unless exec probes are allowed; attach always is.
 */

export type ProxyState = 'starting' | 'up' | 'down';

/** Why kubectl proxy is not serving: the reading, and the end of its stderr for the log. */
export interface ProxyFailure {
  readonly error: KubectlError;
  readonly stderr: string;
}

export type ProxyReady = { readonly ok: true } | ({ readonly ok: false } & ProxyFailure);

export interface ProxyBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Up at least this long before it dropped: the next restart starts from `initialMs` again. */
  readonly stableMs: number;
}

export interface KubectlProxyOptions {
  readonly kubectl: KubectlConfig;
  /** `--context`; kubectl's current context when absent. */
  readonly context?: string;
  /** Exec probes may run commands in containers (the pods' exec endpoint is let through). */
  readonly allowExec: boolean;
  readonly clock: Clock;
  /** The first start must print `Starting to serve on` by then. Default 15 s. */
  readonly readyTimeoutMs?: number;
  readonly backoff?: ProxyBackoff;
  /** Each change of state; `down` comes with why. */
  onChange?(state: ProxyState, failure?: ProxyFailure): void;
}

const PROXY_BACKOFF: ProxyBackoff = { initialMs: 1_000, maxMs: 30_000, stableMs: 60_000 };
/** kubectl's `Starting to serve on %s` (the listener's address: for a Unix socket, its path). */
const SERVING = /^Starting to serve on (.+)$/;
/** After SIGTERM, how long kubectl may take to close its socket before the group gets SIGKILL. */
const TERM_GRACE_MS = 2_000;
const MAX_LINE = 4096;

/**
 * Every kubectl proxy running. kubectl leads its own process group (so its credential plugins go
 * with it), which also means it would outlive a host that exits without disposing it: on the
 * host's exit, whatever is still here is killed.
 */
const running = new Set<ChildProcess>();
let exitHooked = false;

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const orphan of running) killGroup(orphan);
  });
}

export class KubectlProxy implements Disposable {
  /** The private directory; removed on dispose. */
  readonly dir: string;
  readonly socketPath: string;
  private child: ChildProcess | undefined;
  private current: ProxyState = 'starting';
  private everUp = false;
  private upSince = 0;
  private delayMs = 0;
  private timer: Disposable | undefined;
  private disposed = false;
  private stderrTail = '';
  private failure: ProxyFailure | undefined;
  private readonly ready: Promise<ProxyReady>;
  private settleReady: (ready: ProxyReady) => void = () => undefined;

  /** Starts kubectl proxy (first ending those a host that died left behind); `whenReady()` says whether the first start served. */
  static start(options: KubectlProxyOptions): KubectlProxy {
    reapOrphanedProxies();
    const proxy = new KubectlProxy(options);
    proxy.spawn();
    return proxy;
  }

  private constructor(private readonly options: KubectlProxyOptions) {
    this.ready = new Promise((resolve) => {
      this.settleReady = resolve;
    });
    // mkdtemp makes it 0700 already; the chmod says so where a umask or platform might not.
    this.dir = mkdtempSync(join(tmpdir(), PROXY_DIR_PREFIX));
    chmodSync(this.dir, 0o700);
    this.socketPath = join(this.dir, 'api.sock');
  }

  get state(): ProxyState {
    return this.current;
  }

  /** The first start: served (`ok`), or why not (kubectl missing, a bad context, no answer in time). */
  whenReady(): Promise<ProxyReady> {
    return this.ready;
  }

  /** Why it is down, while it is. */
  get lastFailure(): ProxyFailure | undefined {
    return this.current === 'down' ? this.failure : undefined;
  }

  /** The end of kubectl's stderr (it logs each request it could not forward), for the log. */
  get stderr(): string {
    return this.stderrTail;
  }

  /** kubectl's pid while it runs (tests check it is gone after dispose). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The args kubectl runs with. */
  args(): string[] {
    return [
      'proxy',
      `--unix-socket=${this.socketPath}`,
      ...(this.options.context ? [`--context=${this.options.context}`] : []),
      // kubectl's default rejects exec and attach; with exec allowed, attach alone.
      ...(this.options.allowExec ? ['--reject-paths=^/api/.*/pods/.*/attach'] : []),
      '--keepalive=30s',
    ];
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timer?.dispose();
    this.timer = undefined;
    const child = this.child;
    this.child = undefined;
    if (child) stop(child, this.options.clock);
    rmSync(this.dir, { recursive: true, force: true });
    this.settleReady({ ok: false, error: { kind: 'unknown', sentence: 'kubectl proxy was stopped before it served.', detail: 'stopped' }, stderr: this.stderrTail });
  }

  private spawn(): void {
    this.timer = undefined;
    if (this.disposed) return;
    // A kubectl that was killed leaves its socket file, and the next could not listen on it.
    rmSync(this.socketPath, { force: true });
    this.stderrTail = '';
    let child: ChildProcess;
    try {
      child = spawnKubectl(this.options.kubectl, this.args());
    } catch (error) {
      this.failed({ error: kubectlNotStarted(this.options.kubectl, error), stderr: '' });
      return;
    }
    this.child = child;
    track(child);
    // Whose it is, for the next host to find if this one dies without stopping it.
    if (child.pid !== undefined) writeOwnership(this.dir, child.pid, this.socketPath);
    let serving = false;
    lines(child.stdout, (line) => {
      if (!serving && this.child === child && SERVING.test(line)) {
        serving = true;
        this.served();
      }
    });
    lines(child.stderr, (line) => {
      if (this.child !== child) return;
      this.stderrTail = `${this.stderrTail}${line}\n`.slice(-MAX_LOGGED_STDERR);
    });
    child.on('error', (error) => {
      if (this.child !== child) return;
      this.child = undefined;
      killGroup(child);
      this.failed({ error: kubectlNotStarted(this.options.kubectl, error), stderr: '' });
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.failed(exitFailure(this.stderrTail, code, signal));
    });
    const readyMs = this.options.readyTimeoutMs ?? 15_000;
    this.timer = this.options.clock.schedule(readyMs, () => {
      this.timer = undefined;
      if (serving || this.child !== child) return;
      this.child = undefined;
      stop(child, this.options.clock);
      this.failed(notServing(this.stderrTail, readyMs));
    });
  }

  private served(): void {
    this.timer?.dispose();
    this.timer = undefined;
    this.everUp = true;
    this.upSince = this.options.clock.now();
    this.failure = undefined;
    this.settleReady({ ok: true });
    this.report('up');
  }

  /**
   * One decision: kubectl is not serving. The first start's failure is final (a missing kubectl,
   * a context that does not exist: another try says the same); after it has served, it is
   * started again after a back-off.
   */
  private failed(failure: ProxyFailure): void {
    this.timer?.dispose();
    this.timer = undefined;
    if (this.disposed) return;
    this.failure = failure;
    const wasUp = this.current === 'up';
    this.report('down', failure);
    if (!this.everUp) {
      this.settleReady({ ok: false, ...failure });
      return;
    }
    const backoff = this.options.backoff ?? PROXY_BACKOFF;
    const stable = wasUp && this.options.clock.now() - this.upSince >= backoff.stableMs;
    this.delayMs = this.delayMs === 0 || stable ? backoff.initialMs : Math.min(this.delayMs * 2, backoff.maxMs);
    this.timer = this.options.clock.schedule(this.delayMs, () => this.spawn());
  }

  private report(state: ProxyState, failure?: ProxyFailure): void {
    if (this.current === state) return;
    this.current = state;
    this.options.onChange?.(state, failure);
  }
}

/** SIGTERM to the group (kubectl removes its socket), SIGKILL to what is left after a grace. */
function stop(child: ChildProcess, clock: Clock): void {
  child.stdout?.destroy();
  child.stderr?.destroy();
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return killGroup(child);
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // ESRCH: the group is gone already.
    return;
  }
  const grace = clock.schedule(TERM_GRACE_MS, () => killGroup(child));
  child.once('exit', () => {
    grace.dispose();
    // What kubectl started (a credential plugin) goes with it.
    killGroup(child);
  });
}

/** kubectl exited: its last word says why (`error: context "nope" does not exist`), else its exit. */
function exitFailure(stderr: string, code: number | null, signal: NodeJS.Signals | null): ProxyFailure {
  const how = code !== null ? `exit code ${code}` : `signal ${signal}`;
  if (lastMeaningfulLine(stderr)) return { error: classifyKubectlError(stderr), stderr };
  return { error: { kind: 'unknown', sentence: `kubectl proxy exited (${how}) without saying why: run kubectl proxy in a terminal to see.`, detail: `kubectl proxy exited (${how})` }, stderr };
}

function notServing(stderr: string, readyMs: number): ProxyFailure {
  const seconds = Math.round(readyMs / 100) / 10;
  const classified = classifyKubectlError(stderr);
  // Whatever kubectl said explains the wait better than the wait itself.
  if (classified.kind !== 'unknown') return { error: classified, stderr };
  const detail = `kubectl proxy did not start serving within ${seconds} s`;
  return { error: { kind: 'timeout', sentence: `${detail}: check that kubectl runs (kubectl version --client), then try again.`, detail }, stderr };
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
