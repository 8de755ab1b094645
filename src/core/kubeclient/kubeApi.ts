import type { Duplex, Readable } from 'node:stream';
import type * as Undici from 'undici';
import { type Clock, RealClock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import { type ApiFailure, answerMalformed, answerTooLarge, apiAborted, apiTimedOut, httpFailure, proxyUnreachable } from './apiStatus';

export type { ApiFailure } from './apiStatus';

/** Every request ends as a value: what was asked for, or why not. */
export type ApiResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: ApiFailure };

export interface GetOptions {
  /** For the whole request, body included. */
  readonly timeoutMs: number;
  /** A larger answer is cut and is a failure. Default 32 MiB. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

export interface StreamOptions {
  /** Until the status line and headers; the body then runs as long as the caller reads it. */
  readonly timeoutMs: number;
  /** Aborting it ends the body too. */
  readonly signal?: AbortSignal;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** What of an error answer is read: a Status is a few hundred bytes; the rest is not worth holding. */
const MAX_ERROR_BODY = 64 * 1024;
/** kubectl proxy's `--accept-hosts` lets `localhost` in; the socket path does the addressing. */
const ORIGIN = 'http://localhost';

/**
 * The Kubernetes API as `kubectl proxy --unix-socket` serves it: kubectl adds the kubeconfig's
 * credentials (tokens, client certificates, exec plugins), Probe Lens speaks plain HTTP and
 * WebSocket to the socket. Requests are bounded in time and size and end as values. Disposing
 * drops the connections, in-flight requests and open WebSockets included.
 */
export class KubeApi implements Disposable {
  private readonly agent: Undici.Agent;
  private readonly sockets = new Set<Undici.WebSocket>();
  private disposed = false;

  /**
   * undici is loaded here, not on import: an extension that never probes a cluster never parses
   * it. It is the HTTP prober's copy (the bundles keep undici in dist/probers/http.js alone).
   */
  static async open(socketPath: string, clock: Clock = new RealClock()): Promise<KubeApi> {
    const { loadHttpClient } = await import('../probers/http');
    return new KubeApi(await loadHttpClient(), socketPath, clock);
  }

  constructor(
    private readonly http: typeof Undici,
    readonly socketPath: string,
    /** The time its requests, and the streams built on it (watch, exec, port-forward), are bounded by. */
    readonly clock: Clock,
  ) {
    // undici's own timers are off: deadlines run on `clock`, and a watch may be quiet for minutes.
    this.agent = new http.Agent({ connect: { socketPath }, headersTimeout: 0, bodyTimeout: 0 });
  }

  /** GET `path` (`/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb`) as JSON. */
  getJson<T>(path: string, options: GetOptions): Promise<ApiResult<T>> {
    return this.requestJson<T>('GET', path, undefined, options);
  }

  /** POST `body` as JSON to `path` (a `SelfSubjectAccessReview`, which asks and changes nothing); the answer as JSON. */
  postJson<T>(path: string, body: unknown, options: GetOptions): Promise<ApiResult<T>> {
    return this.requestJson<T>('POST', path, JSON.stringify(body), options);
  }

  private async requestJson<T>(method: 'GET' | 'POST', path: string, payload: string | undefined, options: GetOptions): Promise<ApiResult<T>> {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const deadline = this.deadline(path, options.timeoutMs, options.signal);
    try {
      const headers = payload === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' };
      const response = await this.agent.request({ origin: ORIGIN, path, method, headers, ...(payload !== undefined ? { body: payload } : {}), signal: deadline.signal });
      if (response.statusCode < 200 || response.statusCode > 299) return { ok: false, failure: httpFailure(response.statusCode, await readText(response.body, MAX_ERROR_BODY), path) };
      const body = await readAtMost(response.body, maxBytes);
      if (body === undefined) return { ok: false, failure: answerTooLarge(path, maxBytes) };
      try {
        return { ok: true, value: JSON.parse(body.toString('utf8')) as T };
      } catch {
        return { ok: false, failure: answerMalformed(path, 'an answer that is not JSON') };
      }
    } catch (error) {
      return { ok: false, failure: deadline.failure() ?? proxyUnreachable(error) };
    } finally {
      deadline.dispose();
    }
  }

  /**
   * GET `path` and hand over the body as it streams (a watch). A status other than 2xx is read
   * and returned as the failure. The caller reads the body and destroys it when done.
   */
  async getStream(path: string, options: StreamOptions): Promise<ApiResult<Readable>> {
    const deadline = this.deadline(path, options.timeoutMs, options.signal);
    try {
      const response = await this.agent.request({ origin: ORIGIN, path, method: 'GET', headers: { accept: 'application/json' }, signal: deadline.signal });
      if (response.statusCode < 200 || response.statusCode > 299) return { ok: false, failure: httpFailure(response.statusCode, await readText(response.body, MAX_ERROR_BODY), path) };
      return { ok: true, value: response.body };
    } catch (error) {
      return { ok: false, failure: deadline.failure() ?? proxyUnreachable(error) };
    } finally {
      // The deadline was for the answer to start; the caller's signal stays tied to the body.
      deadline.stopTimer();
    }
  }

  /**
   * A WebSocket to `path` with the `protocols` offered (undici's, binary messages as
   * ArrayBuffers). When the server answers the upgrade with anything but 101 (a Status 403/404/
   * 400), or the proxy cannot be reached, `onRefused` hears why — before the socket's `error`
   * and `close` events, which carry no status.
   */
  openWebSocket(path: string, protocols: readonly string[], onRefused?: (failure: ApiFailure) => void): Undici.WebSocket {
    const dispatcher = this.agent.compose(refusalReader(path, (failure) => onRefused?.(failure)));
    const socket = new this.http.WebSocket(`ws://localhost${path}`, { protocols: [...protocols], dispatcher });
    socket.binaryType = 'arraybuffer';
    if (this.disposed) {
      socket.close();
      return socket;
    }
    this.sockets.add(socket);
    socket.addEventListener('close', () => this.sockets.delete(socket));
    return socket;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const socket of this.sockets) socket.close();
    this.sockets.clear();
    this.agent.destroy().catch(() => undefined);
  }

  /**
   * The request's deadline on the clock, joined with the caller's signal: `failure()` says which
   * one stopped the request (`undefined`: neither did, the error is the connection's).
   */
  private deadline(path: string, timeoutMs: number, callerSignal: AbortSignal | undefined): RequestDeadline {
    const controller = new AbortController();
    let why: ApiFailure | undefined;
    const stop = (failure: ApiFailure): void => {
      why ??= failure;
      controller.abort();
    };
    const timer = this.clock.schedule(timeoutMs, () => stop(apiTimedOut(path, timeoutMs)));
    const onAbort = (): void => stop(apiAborted(path));
    if (callerSignal?.aborted) onAbort();
    else callerSignal?.addEventListener('abort', onAbort, { once: true });
    return {
      signal: controller.signal,
      failure: () => why,
      stopTimer: () => timer.dispose(),
      dispose: () => {
        timer.dispose();
        callerSignal?.removeEventListener('abort', onAbort);
      },
    };
  }
}

interface RequestDeadline extends Disposable {
  readonly signal: AbortSignal;
  failure(): ApiFailure | undefined;
  stopTimer(): void;
}

/** The body, or `undefined` when it is larger than `max` (then it is destroyed, not read on). */
async function readAtMost(body: Readable, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The first `max` bytes of the body as text; the rest is dropped. */
async function readText(body: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (size < max) chunks.push(chunk.subarray(0, max - size));
      size += chunk.length;
      if (size >= max) break;
    }
  } catch {
    // The words so far are what there is.
  }
  body.destroy();
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An undici interceptor for a WebSocket's handshake. undici's WebSocket fails the connection on
 * a non-101 answer as soon as the headers arrive, and says only "Received network error or
 * non-101 status code". This holds such an answer back until its body (the API server's Status,
 * or kubectl proxy's text) has arrived, tells `onRefused` what it means, then lets it through.
 */
function refusalReader(path: string, onRefused: (failure: ApiFailure) => void): Undici.Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => dispatch(options, new RefusalReader(handler as Undici.Dispatcher.DispatchHandler, path, onRefused));
}

class RefusalReader implements Undici.Dispatcher.DispatchHandler {
  private held: { status: number; headers: Record<string, string | string[] | undefined>; message: string | undefined } | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private told = false;

  constructor(
    private readonly inner: Undici.Dispatcher.DispatchHandler,
    private readonly path: string,
    private readonly onRefused: (failure: ApiFailure) => void,
  ) {}

  onRequestStart(controller: Undici.Dispatcher.DispatchController, context: unknown): void {
    this.inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(controller: Undici.Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>, socket: Duplex): void {
    this.inner.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(controller: Undici.Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void {
    if (statusCode < 200) return this.inner.onResponseStart?.(controller, statusCode, headers, statusMessage);
    this.held = { status: statusCode, headers, message: statusMessage };
  }

  onResponseData(controller: Undici.Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.held) return this.inner.onResponseData?.(controller, chunk);
    if (this.size < MAX_ERROR_BODY) this.chunks.push(chunk.subarray(0, MAX_ERROR_BODY - this.size));
    this.size += chunk.length;
  }

  onResponseEnd(controller: Undici.Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    const held = this.held;
    if (!held) return this.inner.onResponseEnd?.(controller, trailers);
    const body = Buffer.concat(this.chunks);
    this.tell(httpFailure(held.status, body.toString('utf8'), this.path));
    // Now the WebSocket may fail the connection, as it would have on the headers.
    this.inner.onResponseStart?.(controller, held.status, held.headers, held.message);
    if (!controller.aborted && body.length > 0) this.inner.onResponseData?.(controller, body);
    if (!controller.aborted) this.inner.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Undici.Dispatcher.DispatchController, error: Error): void {
    const held = this.held;
    this.tell(held ? httpFailure(held.status, Buffer.concat(this.chunks).toString('utf8'), this.path) : proxyUnreachable(error));
    this.inner.onResponseError?.(controller, error);
  }

  /** Once: a refusal let through may still end in an error (the WebSocket aborts the request). */
  private tell(failure: ApiFailure): void {
    if (this.told) return;
    this.told = true;
    this.onRefused(failure);
  }
}
