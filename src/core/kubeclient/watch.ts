import type { Readable } from 'node:stream';
import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import { type ApiFailure, type ApiStatus, answerMalformed, httpFailure, proxyUnreachable, sizeText } from './apiStatus';
import type { KubeApi } from './kubeApi';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

export interface WatchListOptions {
  readonly api: KubeApi;
  /** A list path: `/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb`. */
  readonly path: string;
  /** Default: the api's. */
  readonly clock?: Clock;
  /** The whole list, at the start and after every relist: what was known before is replaced. */
  onSync(items: unknown[]): void;
  onChange(type: WatchEventType, object: unknown): void;
  /** Each failed attempt (the list, the watch, a broken stream); it keeps trying, backing off. */
  onFailure(failure: ApiFailure): void;
  /** The first success after a failure. */
  onRecovered?(): void;
  readonly backoff?: WatchBackoff;
  /** For the list; and for a watch, until its answer starts. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** A longer line is a broken stream. Default 8 MiB. */
  readonly maxLineBytes?: number;
  /** The server ends a watch after this (it picks no longer than asked). Default 300 s. */
  readonly watchSeconds?: number;
}

const WATCH_BACKOFF: WatchBackoff = { initialMs: 1_000, maxMs: 30_000 };
const DEFAULT_MAX_LINE = 8 * 1024 * 1024;
/** A watch the server has not ended this long after its own timeout is stuck: start another. */
const WATCH_GRACE_MS = 60_000;
/** A watch that ends sooner without a word is not a watch: wait before the next, or it is a busy loop. */
const MIN_QUIET_WATCH_MS = 1_000;

/**
 * A list, then a watch from its resourceVersion, kept going: each watch the server ends is
 * followed by the next from the last resourceVersion seen (events and bookmarks move it); a
 * `410 Gone` (the version is too old to watch from) relists; failures are reported and retried
 * after a back-off. Never throws; disposing stops the request in flight and every timer.
 */
export function watchList(options: WatchListOptions): Disposable {
  const watch = new ListWatch(options);
  void watch.list();
  return watch;
}

class ListWatch implements Disposable {
  private readonly clock: Clock;
  private resourceVersion = '';
  private request: AbortController | undefined;
  private body: Readable | undefined;
  private timer: Disposable | undefined;
  private delayMs = 0;
  private failing = false;
  private disposed = false;
  /** The resourceVersion is the list's own, no event since: a 410 now would come again at once. */
  private freshFromList = false;
  /** Bumped by every new attempt: callbacks of an older one find they are stale. */
  private attempt = 0;

  constructor(private readonly options: WatchListOptions) {
    this.clock = options.clock ?? options.api.clock;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stop();
  }

  async list(): Promise<void> {
    const attempt = this.begin();
    const request = (this.request = new AbortController());
    const result = await this.options.api.getJson<{ items?: unknown[]; metadata?: { resourceVersion?: string } }>(this.options.path, { timeoutMs: this.requestTimeoutMs, signal: request.signal });
    if (attempt !== this.attempt) return;
    if (!result.ok) return this.failed(result.failure, () => this.list());
    const list = result.value;
    if (!Array.isArray(list?.items) || typeof list.metadata?.resourceVersion !== 'string') return this.failed(answerMalformed(this.options.path, 'a list without items or a resourceVersion'), () => this.list());
    this.resourceVersion = list.metadata.resourceVersion;
    this.freshFromList = true;
    this.succeeded();
    this.call(() => this.options.onSync(list.items as unknown[]));
    if (attempt === this.attempt) void this.watch();
  }

  private async watch(): Promise<void> {
    const attempt = this.begin();
    const request = (this.request = new AbortController());
    const seconds = this.options.watchSeconds ?? 300;
    const query = `watch=1&resourceVersion=${encodeURIComponent(this.resourceVersion)}&allowWatchBookmarks=true&timeoutSeconds=${seconds}`;
    const path = `${this.options.path}${this.options.path.includes('?') ? '&' : '?'}${query}`;
    const result = await this.options.api.getStream(path, { timeoutMs: this.requestTimeoutMs, signal: request.signal });
    if (attempt !== this.attempt) {
      if (result.ok) result.value.destroy();
      return;
    }
    if (!result.ok) {
      // The version asked for is gone from the server's history: start over from a list.
      if (result.failure.status === 410) return this.expired();
      return this.failed(result.failure, () => this.watch());
    }
    this.read(result.value, attempt, seconds);
  }

  /** Reads the watch's JSON lines until it ends; what follows depends on how it ended. */
  private read(body: Readable, attempt: number, seconds: number): void {
    this.body = body;
    const startedAt = this.clock.now();
    const maxLine = this.options.maxLineBytes ?? DEFAULT_MAX_LINE;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let lines = 0;
    let ended = false;
    const stuck = this.clock.schedule(seconds * 1000 + WATCH_GRACE_MS, () => end(() => void this.watch()));
    // One way out of a stream, whichever comes first: its end, an error, a bad line, a 410, dispose.
    const end = (then: () => void): void => {
      if (ended) return;
      ended = true;
      stuck.dispose();
      if (this.body === body) this.body = undefined;
      body.destroy();
      if (attempt === this.attempt) then();
    };
    body.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline >= 0 && !ended; newline = chunk.indexOf(10, start)) {
        pending.push(chunk.subarray(start, newline));
        const line = Buffer.concat(pending, pendingBytes + newline - start);
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
        lines++;
        const next = this.event(line);
        if (next) end(next);
      }
      if (ended || start >= chunk.length) return;
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > maxLine) end(() => this.failed(answerMalformed(this.options.path, `a watch line longer than ${sizeText(maxLine)}`), () => this.list()));
    });
    body.on('error', (error: Error) => end(() => this.cut(proxyUnreachable(error), startedAt, lines)));
    body.on('end', () => end(() => this.watchEnded(startedAt, lines)));
    // 'close' without 'end' or 'error': destroyed from outside.
    body.on('close', () => end(() => this.watchEnded(startedAt, lines)));
  }

  /**
   * One decision: what a watch line means. Returns what to do instead of reading on
   * (relist, back off), or `undefined` to read on.
   */
  private event(line: Buffer): (() => void) | undefined {
    const text = line.toString('utf8').trim();
    if (text === '') return undefined;
    let event: { type?: unknown; object?: { metadata?: { resourceVersion?: unknown } } };
    try {
      event = JSON.parse(text) as typeof event;
    } catch {
      return () => this.failed(answerMalformed(this.options.path, 'a watch line that is not JSON'), () => this.list());
    }
    const { type, object } = event ?? {};
    if (type === 'ERROR') {
      // The object is a Status: its code says whether the version expired.
      const code = (object as ApiStatus | null | undefined)?.code;
      if (code === 410) return () => this.expired();
      return () => this.failed(httpFailure(code ?? 500, JSON.stringify(object), this.options.path), () => this.list());
    }
    const version = object?.metadata?.resourceVersion;
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED' && type !== 'BOOKMARK') return () => this.failed(answerMalformed(this.options.path, `a watch event of type ${JSON.stringify(type)}`), () => this.list());
    if (typeof version === 'string' && version !== '') this.resourceVersion = version;
    this.freshFromList = false;
    this.succeeded();
    if (type !== 'BOOKMARK') this.call(() => this.options.onChange(type, object));
    return undefined;
  }

  /**
   * 410: the resourceVersion is older than the server's history; a list gives a current one.
   * At once, unless the version came straight from a list: a server that expires that too would
   * be asked again and again in a busy loop.
   */
  private expired(): void {
    if (this.freshFromList) this.retryLater(() => this.list());
    else void this.list();
  }

  /** The server ended the watch (its timeout): the next starts at once, unless this one said nothing at all quickly. */
  private watchEnded(startedAt: number, lines: number): void {
    if (lines > 0 || this.clock.now() - startedAt >= MIN_QUIET_WATCH_MS) return void this.watch();
    this.retryLater(() => this.watch());
  }

  /**
   * The stream broke (the proxy restarted, the connection dropped): watch again at once from the
   * last version; only if that fails is it a failure to report. A stream that breaks at once,
   * wordless, waits first.
   */
  private cut(failure: ApiFailure, startedAt: number, lines: number): void {
    if (lines > 0 || this.clock.now() - startedAt >= MIN_QUIET_WATCH_MS) return void this.watch();
    this.failed(failure, () => this.watch());
  }

  private failed(failure: ApiFailure, retry: () => void): void {
    this.failing = true;
    this.call(() => this.options.onFailure(failure));
    this.retryLater(retry);
  }

  private retryLater(retry: () => void): void {
    if (this.disposed) return;
    const backoff = this.options.backoff ?? WATCH_BACKOFF;
    this.delayMs = this.delayMs === 0 ? backoff.initialMs : Math.min(this.delayMs * 2, backoff.maxMs);
    const attempt = this.attempt;
    this.timer = this.clock.schedule(this.delayMs, () => {
      this.timer = undefined;
      if (attempt === this.attempt) retry();
    });
  }

  private succeeded(): void {
    this.delayMs = 0;
    if (!this.failing) return;
    this.failing = false;
    this.call(() => this.options.onRecovered?.());
  }

  /** A new attempt: whatever the previous one left running stops. */
  private begin(): number {
    this.stop();
    return ++this.attempt;
  }

  private stop(): void {
    this.attempt++;
    this.timer?.dispose();
    this.timer = undefined;
    this.request?.abort();
    this.request = undefined;
    this.body?.destroy();
    this.body = undefined;
  }

  private get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs ?? 30_000;
  }

  /** A callback that throws must not stop the watch (nor crash the host): it becomes a process warning. */
  private call(callback: () => void): void {
    if (this.disposed) return;
    try {
      callback();
    } catch (error) {
      process.emitWarning(error instanceof Error ? error : String(error), 'ProbeLensWatchCallback');
    }
  }
}
