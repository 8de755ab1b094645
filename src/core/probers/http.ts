import * as net from 'node:net';
import { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import type * as Undici from 'undici';
import { ERRNO_TEXT, goDialError, type SystemError } from './goErrors';
import { goQuote, joinHostPort } from './goFormat';
import { fromBinary, hostname, parseUrl, requestTarget, resolveReference, splitHostPort, toBinary, UrlError, urlString, type GoUrl } from './goUrl';
import { probeUrl } from './probeUrl';
import { MAX_OUTPUT_BYTES, type AttemptOptions, type ProbeOutcome, proberError } from './types';

/**
 * H1–H10: the kubelet's HTTP probe (`pkg/probe/http`), reproduced on undici with the behaviour of
 * Go's net/http wherever it can be observed: the URL as `net/url` prints it, the headers Go writes,
 * same-hostname redirects with Go's limit and Host rules, one deadline for the whole attempt, the
 * 10 240-byte body cap, and failure texts worded as Go words them (events read like the kubelet's).
 *
 * undici is loaded on the first probe, not on import: code that never runs an HTTP probe never
 * pays for it, and nothing else in the project imports it.
 */

export interface HttpProbeTarget {
  /** `httpGet.scheme` after defaulting: `HTTP` or `HTTPS` (lower-cased for the URL, H1). */
  readonly scheme: string;
  /** The pod IP, `httpGet.host`, or the local host in local mode; IPv6 allowed. */
  readonly host: string;
  /** Already resolved (1–65535). */
  readonly port: number;
  /** May include a query string. */
  readonly path: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
}

export interface HttpProbeOptions extends AttemptOptions {
  /** `kube-probe/<major>.<minor>` (H3). */
  readonly userAgent: string;
}

/** One attempt of an HTTP probe; settles within `timeoutMs` whatever the target does (H6). */
export function probeHttp(target: HttpProbeTarget, options: HttpProbeOptions): Promise<ProbeOutcome> {
  return runHttpProbe(prepareHttpProbe(target, options.userAgent), options);
}

/**
 * What an HTTP probe's attempts share: the request's URL and headers, or the error every attempt
 * ends in. Immutable, so a worker prepares it once and runs it every period.
 */
export type PreparedHttpProbe = { readonly ok: true; readonly url: GoUrl; readonly header: GoHeader } | { readonly ok: false; readonly outcome: ProbeOutcome };

export function prepareHttpProbe(target: HttpProbeTarget, userAgent: string): PreparedHttpProbe {
  // The kubelet prints the URL and http.NewRequest parses it again: a URL that does not survive
  // the round trip is an error before any connection, which prober.go returns as `unknown`.
  const url = parseUrl(urlString(probeUrl(target.scheme, target.host, target.port, target.path)));
  if (url instanceof UrlError) return { ok: false, outcome: proberError(url.message) };
  return { ok: true, url, header: probeHeader(target.headers, userAgent) };
}

/** One attempt of a prepared probe (H6: settles within `timeoutMs`). */
export function runHttpProbe(prepared: PreparedHttpProbe, options: AttemptOptions): Promise<ProbeOutcome> {
  if (!prepared.ok) return Promise.resolve(prepared.outcome);
  return new HttpAttempt(prepared.url, prepared.header, options).run();
}

// --- the attempt: Go's Client.Do followed by DoHTTPProbe -------------------------------------

/** Go's `Client.Timeout` and context texts (H6, H8). */
const DEADLINE = 'context deadline exceeded';
const CANCELED = 'context canceled';
/** RedirectChecker: the 10th redirect is refused (H10, X1). */
const MAX_REDIRECTS = 10;
/** The statuses Go's client follows (redirectBehavior). */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** client.go `maxBodySlurpSize`: Go reads this much of a followed redirect's body before closing it. */
const REDIRECT_SLURP_BYTES = 2 << 10;

let undiciModule: Promise<typeof Undici> | undefined;
function loadUndici(): Promise<typeof Undici> {
  return (undiciModule ??= import('undici'));
}

/** What the outcome would be if the attempt were cut short now. */
type Phase =
  /** Dialling, TLS, writing the request or waiting for the status line and headers of `url`. */
  | { readonly kind: 'headers'; readonly url: string }
  /** Reading the final response's body (H8). */
  | { readonly kind: 'body' }
  /** The outcome is known; only a redirect body is still being read. */
  | { readonly kind: 'decided'; readonly outcome: ProbeOutcome };

/** One request of a redirect chain, as Go builds it. */
interface Hop {
  readonly url: GoUrl;
  /** `req.Host`: a custom Host header, or '' for the URL's host (H4). */
  readonly host: string;
  readonly header: GoHeader;
}

class HttpAttempt {
  private phase: Phase;
  private exchange: Exchange | undefined;
  private timer: NodeJS.Timeout | undefined;
  private settled = false;
  private resolve: (outcome: ProbeOutcome) => void = () => undefined;
  private readonly onAbort = (): void => this.finish(this.interrupted(CANCELED));

  constructor(
    private readonly url: GoUrl,
    private readonly header: GoHeader,
    private readonly options: AttemptOptions,
  ) {
    this.phase = { kind: 'headers', url: fromBinary(urlString(url)) };
  }

  run(): Promise<ProbeOutcome> {
    const done = new Promise<ProbeOutcome>((resolve) => (this.resolve = resolve));
    const { signal, timeoutMs } = this.options;
    if (signal?.aborted) {
      this.finish(this.interrupted(CANCELED));
      return done;
    }
    signal?.addEventListener('abort', this.onAbort, { once: true });
    // Anything thrown here is a bug; it still ends the attempt rather than leave it pending.
    this.follow(timeoutMs).catch((bug: unknown) => this.finish({ result: 'unknown', output: '', error: `http probe: ${String(bug)}` }));
    return done;
  }

  /** Client.Do's redirect loop, then DoHTTPProbe on the final response. */
  private async follow(timeoutMs: number): Promise<void> {
    const undici = await loadUndici();
    if (this.settled) return;
    // One deadline for the whole exchange (H6, P4), started once undici is loaded: loading it
    // (once per process, ~150 ms) is not the target's time, and must not fail a first probe.
    this.timer = setTimeout(() => this.finish(this.interrupted(DEADLINE)), timeoutMs);
    const first: Hop = { url: this.url, host: this.header.get('Host')?.[0] ?? '', header: this.header };
    let hop = first;
    // Once a 301/302/303 is followed, Go sends no body again, nor the headers describing one.
    let includeBody = true;
    for (let requests = 1; !this.settled; requests += 1) {
      const href = fromBinary(urlString(hop.url));
      this.phase = { kind: 'headers', url: href };
      const refusal = roundTripRefusal(hop);
      if (refusal !== undefined) return this.finish(failure(`Get ${goQuote(href)}: ${refusal}`));
      const exchange = (this.exchange = new Exchange(undici, hop));
      const head = await exchange.head;
      if (this.settled) return;
      // Go returns a 101 as the final response; undici refuses an upgrade it did not ask for.
      if (head instanceof Error && isUnaskedUpgrade(head)) return this.finish(classify(101, Buffer.alloc(0)));
      if (head instanceof Error) return this.finish(failure(`Get ${goQuote(href)}: ${headErrorText(head, exchange)}`));

      if (REDIRECT_STATUSES.has(head.status) && head.location !== '') {
        const location = parseUrl(head.location);
        if (location instanceof UrlError) {
          return this.finish(failure(`Get ${goQuote(href)}: failed to parse Location header ${goQuote(fromBinary(head.location))}: ${location.message}`));
        }
        const url = resolveReference(hop.url, location);
        // RedirectChecker (H10): another hostname ends the chain; the 3xx is the final response.
        if (hostname(url) === hostname(first.url)) {
          includeBody &&= head.status === 307 || head.status === 308;
          const next = redirectHop(hop, url, location, first.header, includeBody);
          const refused = requests >= MAX_REDIRECTS ? failure(`Get ${goQuote(fromBinary(head.location))}: stopped after 10 redirects`) : undefined;
          this.phase = refused ? { kind: 'decided', outcome: refused } : { kind: 'headers', url: fromBinary(urlString(next.url)) };
          // Errors while slurping are ignored, as Go ignores them; the deadline still applies.
          if (head.contentLength < 0 || head.contentLength <= REDIRECT_SLURP_BYTES) await exchange.readBody(REDIRECT_SLURP_BYTES);
          exchange.close();
          if (this.settled) return;
          if (refused) return this.finish(refused);
          hop = next;
          continue;
        }
      }

      this.phase = { kind: 'body' };
      const body = await exchange.readBody(MAX_OUTPUT_BYTES);
      if (this.settled) return;
      // H8: a read error other than the cap is a prober error, retried (P2) and never counted (P5).
      return this.finish(body.error ? bodyReadError(bodyErrorText(body.error, exchange)) : classify(head.status, body.bytes));
    }
  }

  /** The outcome of an attempt cut short by its deadline or its session, per phase (H6, H8). */
  private interrupted(cause: typeof DEADLINE | typeof CANCELED): ProbeOutcome {
    const phase = this.phase;
    if (phase.kind === 'decided') return phase.outcome;
    if (phase.kind === 'body') return bodyReadError(cause === DEADLINE ? `${DEADLINE} (Client.Timeout or context cancellation while reading body)` : CANCELED);
    // An aborted attempt must not count: its session is stopping, so it is a prober error (P5).
    return cause === DEADLINE
      ? failure(`Get ${goQuote(phase.url)}: ${DEADLINE} (Client.Timeout exceeded while awaiting headers)`)
      : bodyReadError(`Get ${goQuote(phase.url)}: ${CANCELED}`);
  }

  private finish(outcome: ProbeOutcome): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.exchange?.close();
    this.resolve(outcome);
  }
}

/** Why an attempt's client is torn down; one instance, since nothing reads its stack. */
const ATTEMPT_OVER = new Error('probe attempt over');

/** H9: DoHTTPProbe's classification of the final response. */
function classify(status: number, body: Buffer): ProbeOutcome {
  if (status >= 200 && status < 400) {
    const text = body.toString('utf8');
    return status >= 300 ? { result: 'warning', output: `Probe terminated redirects, Response body: ${text}` } : { result: 'success', output: text };
  }
  // The body is deliberately left out of the failure message (kubernetes#99425).
  return failure(`HTTP probe failed with statuscode: ${status}`);
}

function failure(output: string): ProbeOutcome {
  return { result: 'failure', output };
}

/**
 * A failure that carries an error (H8): how the kubelet reports a body it could not read, and
 * an attempt its session cancelled; a prober error all the same, never counted (P5).
 */
function bodyReadError(error: string): ProbeOutcome {
  return { result: 'failure', output: '', error };
}

/** Headers Go stops copying once the body is dropped (client.go makeHeadersCopier). */
const BODY_HEADERS: ReadonlySet<string> = new Set(['Content-Encoding', 'Content-Language', 'Content-Location', 'Content-Type']);

/** The request Go's client builds for a redirect (client.go). */
function redirectHop(previous: Hop, url: GoUrl, location: GoUrl, initial: GoHeader, includeBody: boolean): Hop {
  // H4: a custom Host survives only a Location without a scheme.
  const host = previous.host !== '' && previous.host !== previous.url.host && location.scheme === '' ? previous.host : '';
  // Sensitive headers are never stripped here: a followed redirect keeps the hostname.
  const header = new Map([...initial].filter(([name]) => includeBody || !BODY_HEADERS.has(name)));
  const referer = refererFor(previous.url, url, initial.get('Referer')?.[0] ?? '');
  if (referer !== '') header.set('Referer', [referer]);
  return { url, host, header };
}

/** client.go refererForURL: Go sends the previous URL, never from https to http. */
function refererFor(last: GoUrl, next: GoUrl, explicit: string): string {
  if (last.scheme === 'https' && next.scheme === 'http') return '';
  if (explicit !== '') return explicit;
  return urlString({ ...last, user: undefined });
}

/** What Transport.roundTrip refuses before dialling, in its words. */
function roundTripRefusal(hop: Hop): string | undefined {
  const { scheme, host } = hop.url;
  if (scheme !== 'http' && scheme !== 'https') return `unsupported protocol scheme ${goQuote(fromBinary(scheme))}`;
  for (const [name, values] of hop.header) {
    if (!isToken(name)) return `net/http: invalid header field name ${goQuote(fromBinary(name))}`;
    if (values.some((value) => /[\x00-\x08\x0a-\x1f\x7f]/.test(value))) return `net/http: invalid header field value for ${goQuote(fromBinary(name))}`;
  }
  if (host === '') return 'http: no Host in request URL';
  return undefined;
}

// --- one request on a fresh connection -------------------------------------------------------

/** net/http's default `MaxResponseHeaderBytes` (10 MiB), instead of node's 16 KiB. */
const GO_MAX_HEADER_BYTES = 10 << 20;
/** How much of a response is kept to word a malformed status line or header like Go. */
const RESPONSE_START_BYTES = 8 << 10;
/** `TLSHandshakeTimeout` set by the kubelet's transport defaults; matters only above 10 s. */
const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

interface Head {
  readonly status: number;
  /** The first Location value, '' when there is none. */
  readonly location: string;
  /** Go's `resp.ContentLength`: -1 when unknown. */
  readonly contentLength: number;
}

interface BodyRead {
  readonly bytes: Buffer;
  readonly error?: Error;
}

/** A Go-worded error from the connector: passed through undici untouched. */
class GoError extends Error {}

/**
 * One request on its own connection (H5: keep-alive off, no proxy, no compression, TLS not
 * verified). The socket is dialled here, not by undici, so that the attempt owns it: it can be
 * destroyed at any moment, even mid-connect, and its addresses word Go's errors.
 */
class Exchange {
  readonly head: Promise<Head | Error>;
  private client: Undici.Client | undefined;
  private socket: net.Socket | undefined;
  private secure: tls.TLSSocket | undefined;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private addresses = { local: '', remote: '' };
  /** The first bytes of the response, for Go's words about a malformed one. */
  private readonly responseStart: Buffer[] = [];
  private responseStartBytes = 0;
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private error: Error | undefined;
  private waiter: { readonly limit: number; readonly resolve: (read: BodyRead) => void } | undefined;
  private closed = false;

  constructor(undici: typeof Undici, hop: Hop) {
    let resolveHead: (head: Head | Error) => void = () => undefined;
    let headSeen = false;
    this.head = new Promise((resolve) => (resolveHead = resolve));
    const settleHead = (head: Head | Error): void => {
      if (headSeen) return;
      headSeen = true;
      resolveHead(head);
    };
    const handler: Undici.Dispatcher.DispatchHandler = {
      // Its presence selects undici's current handler API (onResponseStart and the rest).
      onRequestStart: () => undefined,
      onResponseStart: (controller, status) => {
        // Go's transport skips 1xx informational responses and reads on.
        if (status >= 200) settleHead(readHead(status, controller.rawHeaders));
      },
      onResponseData: (_controller, chunk) => {
        // Never hold more than the largest read; the rest is dropped, and the socket with it.
        // (Not paused: undici asserts on a paused parser when the socket then closes.)
        if (this.buffered >= MAX_OUTPUT_BYTES) return;
        this.chunks.push(chunk);
        this.buffered += chunk.length;
        this.wake();
      },
      onResponseEnd: () => {
        this.ended = true;
        this.wake();
      },
      onResponseError: (_controller, error) => {
        if (!headSeen) return settleHead(error);
        this.error ??= error;
        this.wake();
      },
    };

    const { host: dialHost, port: dialPort } = splitHostPort(hop.url.host);
    const name = fromBinary(dialHost);
    const secure = hop.url.scheme === 'https';
    const port = dialPort === '' ? (secure ? 443 : 80) : Number(dialPort);
    // Go's resolver refuses such a port (a Location can carry one) before any socket exists.
    if (port > 0xffff) {
      settleHead(new GoError(`dial tcp: address ${dialPort}: invalid port`));
      return;
    }
    try {
      // The origin only labels the client: the connector below decides where to dial.
      this.client = new undici.Client(`${secure ? 'https' : 'http'}://${joinHostPort(name, port)}`, {
        connect: (_options, callback) => this.connect(name, port, secure, callback),
        // The attempt's single deadline covers headers and body (H6); undici's own are off.
        headersTimeout: 0,
        bodyTimeout: 0,
        maxHeaderSize: GO_MAX_HEADER_BYTES,
      });
    } catch {
      // A hostname the WHATWG URL parser refuses cannot be resolved either.
      settleHead(new GoError(`dial tcp: lookup ${name}: no such host`));
      return;
    }
    // `reset` sends `connection: close` and drops the socket after the response (H5).
    this.client.dispatch({ path: requestTarget(hop.url), method: 'GET', headers: wireHeaders(hop), reset: true }, handler);
  }

  /** Up to `limit` body bytes; `error` only when the body failed before the limit (ReadAtMost). */
  readBody(limit: number): Promise<BodyRead> {
    return new Promise((resolve) => {
      this.waiter = { limit, resolve };
      this.wake();
    });
  }

  /** Whether the server sent any of a response, for telling Go's `EOF` from `unexpected EOF`. */
  responded(): boolean {
    return this.responseStartBytes > 0;
  }

  /** What http.ReadResponse would say about the response undici's parser refused. */
  malformedResponseText(): string | undefined {
    return malformedResponse(Buffer.concat(this.responseStart).subarray(0, RESPONSE_START_BYTES).toString('latin1'));
  }

  /** Go's `read tcp <local>-><remote>: read: <errno>`. */
  socketErrorText(error: SystemError): string {
    const op = error.syscall === 'write' ? 'write' : 'read';
    return `${op} tcp ${this.addresses.local}->${this.addresses.remote}: ${op}: ${ERRNO_TEXT[error.code ?? ''] ?? error.message}`;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.handshakeTimer);
    // Destroying (not ending) the socket is what Go's Body.Close does to a half-read response.
    this.secure?.destroy();
    this.socket?.destroy();
    // With no error given, undici builds one (stack trace included) for every attempt.
    this.client?.destroy(ATTEMPT_OVER).catch(() => undefined);
  }

  private wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    const full = this.buffered >= waiter.limit;
    if (!full && !this.ended && !this.error) return;
    this.waiter = undefined;
    const bytes = Buffer.concat(this.chunks).subarray(0, waiter.limit);
    waiter.resolve(full || this.ended ? { bytes } : { bytes, error: this.error });
  }

  private connect(host: string, port: number, secure: boolean, callback: Undici.buildConnector.Callback): void {
    let pending = true;
    const fail = (text: string): void => {
      if (pending) callback(new GoError(text), null);
      pending = false;
    };
    const succeed = (socket: net.Socket): void => {
      if (!pending) return;
      pending = false;
      callback(null, socket);
      // Added after undici's 'readable' listener, this one only sees the chunks undici reads.
      socket.on('data', (chunk: Buffer) => {
        // Kept as they come: joined only in the rare case of a malformed response.
        if (this.responseStartBytes >= RESPONSE_START_BYTES) return;
        this.responseStart.push(chunk);
        this.responseStartBytes += chunk.length;
      });
    };
    let connected = false;
    let dialed = host;
    const raw = net.connect({ host, port });
    this.socket = raw;
    raw.on('lookup', (error: Error | null, address: string) => {
      if (!error) dialed = address;
    });
    // This listener stays: after the hand-over undici reports errors, this only keeps them handled.
    raw.on('error', (error: SystemError) => fail(connected ? this.socketErrorText(error) : goDialError(error, host, dialed, port)));
    // Before TLS is up, the handshake's own error says more than this (see FirstBytes).
    raw.once('close', () => {
      if (!secure) fail('EOF');
    });
    raw.once('connect', () => {
      connected = true;
      this.addresses = { local: joinHostPort(raw.localAddress ?? '', raw.localPort ?? 0), remote: joinHostPort(raw.remoteAddress ?? '', raw.remotePort ?? 0) };
      raw.setNoDelay(true);
      if (secure) this.handshake(raw, host, succeed, fail);
      else succeed(raw);
    });
  }

  private handshake(raw: net.Socket, host: string, succeed: (socket: net.Socket) => void, fail: (text: string) => void): void {
    const tap = new FirstBytes(raw);
    // HTTP/1.1 only, so no ALPN (the kubelet's transport would also offer h2); like crypto/tls,
    // no SNI for an IP literal.
    const secure = tls.connect({ socket: tap, rejectUnauthorized: false, ...(net.isIP(host) ? {} : { servername: host }) });
    this.secure = secure;
    this.handshakeTimer = setTimeout(() => {
      fail('net/http: TLS handshake timeout');
      secure.destroy();
    }, TLS_HANDSHAKE_TIMEOUT_MS);
    secure.on('error', (error: SystemError) => {
      clearTimeout(this.handshakeTimer);
      fail(handshakeErrorText(error, tap, this));
    });
    secure.once('secureConnect', () => {
      clearTimeout(this.handshakeTimer);
      succeed(secure);
    });
  }
}

/**
 * A pass-through over the TCP socket that keeps the first bytes the server sends: Go words a
 * failed handshake after them (`http: server gave HTTP response to HTTPS client`), and node's TLS
 * layer would otherwise read the socket directly and hide them.
 */
class FirstBytes extends Duplex {
  head = Buffer.alloc(0);
  /** The server closed its side (a FIN, not a reset). */
  finished = false;

  constructor(private readonly raw: net.Socket) {
    super();
    raw.on('data', (chunk: Buffer) => {
      if (this.head.length < 5) this.head = Buffer.concat([this.head, chunk]).subarray(0, 5);
      if (!this.push(chunk)) raw.pause();
    });
    raw.on('end', () => {
      this.finished = true;
      this.push(null);
    });
    // A reset must reach the TLS layer as the error it is, not as a quiet close.
    raw.on('error', (error) => this.destroy(error));
    raw.on('close', () => this.destroy());
  }

  override _read(): void {
    this.raw.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.raw.write(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.raw.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.raw.destroy();
    callback(error);
  }
}

function readHead(status: number, raw: unknown): Head {
  let location: string | undefined;
  let contentLength = -1;
  let chunked = false;
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = latin1(raw[i]).toLowerCase();
      const value = latin1(raw[i + 1]).replace(/^[ \t]+|[ \t]+$/g, '');
      if (name === 'location') location ??= value;
      else if (name === 'content-length' && /^\d+$/.test(value)) contentLength = Number(value);
      else if (name === 'transfer-encoding' && /chunked/i.test(value)) chunked = true;
    }
  }
  if (status === 204 || status === 304) contentLength = 0;
  return { status, location: location ?? '', contentLength: chunked ? -1 : contentLength };
}

function latin1(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
}

// --- net/http and crypto/tls error texts (H7, H8) --------------------------------------------

/** How persistConn.mapRoundTripError prefixes a failure after the request went out. */
const BROKEN = 'net/http: HTTP/1.x transport connection broken: ';

/** H7: a failure before the response headers, as Go's transport reports it. */
function headErrorText(error: SystemError, exchange: Exchange): string {
  if (error instanceof GoError) return error.message;
  const code = error.code ?? '';
  const partial = exchange.responded();
  if (error.name === 'HTTPParserError') return BROKEN + (exchange.malformedResponseText() ?? error.message);
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return `${BROKEN}net/http: server response headers exceeded ${GO_MAX_HEADER_BYTES} bytes; aborted`;
  // The peer closed: nothing read is Go's bare `EOF`, a cut-off response `unexpected EOF`.
  if (code === 'UND_ERR_SOCKET') return partial ? `${BROKEN}unexpected EOF` : 'EOF';
  if (code in ERRNO_TEXT) return (partial ? BROKEN : '') + exchange.socketErrorText(error);
  return error.message;
}

/** undici's ways of refusing a `101 Switching Protocols` to a request that did not ask for one. */
function isUnaskedUpgrade(error: SystemError): boolean {
  return error.message === 'bad upgrade' || (error.code === 'ERR_ASSERTION' && /\bupgrade\b/.test(error.message));
}

/** H8: a body that fails before the cap. */
function bodyErrorText(error: SystemError, exchange: Exchange): string {
  const code = error.code ?? '';
  const parser = error.name === 'HTTPParserError';
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_SOCKET' || (parser && /EOF/i.test(error.message))) return 'unexpected EOF';
  if (parser && /chunk size/i.test(error.message)) return 'invalid byte in chunk length';
  if (parser) return 'malformed chunked encoding';
  if (code in ERRNO_TEXT) return exchange.socketErrorText(error);
  return error.message;
}

/**
 * http.ReadResponse's complaint about a response undici's parser refused: the status line first,
 * then the first header line textproto rejects; undefined when Go would accept both.
 */
function malformedResponse(start: string): string | undefined {
  const [statusLine = '', ...lines] = start.split('\n').map((line) => line.replace(/\r$/, ''));
  const space = statusLine.indexOf(' ');
  if (space < 0) return `malformed HTTP response ${goQuote(fromBinary(statusLine))}`;
  const proto = statusLine.slice(0, space);
  const code = statusLine.slice(space + 1).replace(/^ +/, '').split(' ')[0] ?? '';
  if (!/^\d{3}$/.test(code)) return `malformed HTTP status code ${goQuote(fromBinary(code))}`;
  if (!/^HTTP\/\d\.\d$/.test(proto)) return `malformed HTTP version ${goQuote(fromBinary(proto))}`;
  for (const line of lines.slice(0, -1)) {
    if (line === '') return undefined;
    const colon = line.indexOf(':');
    if (colon < 0 || !isToken(line.slice(0, colon)) || /[\x00-\x08\x0a-\x1f\x7f]/.test(line.slice(colon + 1))) return `malformed MIME header line: ${fromBinary(line)}`;
  }
  return undefined;
}

/** Go alert names where OpenSSL's differ. */
const GO_ALERTS: Readonly<Record<string, string>> = {
  'protocol version': 'protocol version not supported',
  'unknown ca': 'unknown certificate authority',
  'certificate unknown': 'unknown certificate',
};

/** crypto/tls and net/http words for a failed handshake. */
function handshakeErrorText(error: SystemError & { reason?: string }, tap: FirstBytes, exchange: Exchange): string {
  const head = tap.head;
  // crypto/tls checks the first record header; net/http spots a plain-HTTP answer in it.
  if (head.length >= 5 && ((head[0] !== 0x15 && head[0] !== 0x16) || ((head[1] ?? 0) << 8) + (head[2] ?? 0) >= 0x1000)) {
    return head.toString('latin1') === 'HTTP/' ? 'http: server gave HTTP response to HTTPS client' : 'tls: first record does not look like a TLS handshake';
  }
  if (tap.finished) return head.length === 0 ? 'EOF' : 'unexpected EOF';
  if ((error.code ?? '') in ERRNO_TEXT) return exchange.socketErrorText(error);
  const alert = /alert (.+)$/.exec(error.reason ?? '')?.[1];
  if (alert !== undefined) return `remote error: tls: ${GO_ALERTS[alert] ?? alert}`;
  return `tls: ${error.reason ?? error.message}`;
}

// --- headers (H2–H4) -------------------------------------------------------------------------

/** Go's `http.Header`: canonical names, values in order; strings hold bytes (latin1). */
type GoHeader = ReadonlyMap<string, readonly string[]>;

/** Headers Go never writes from `req.Header` (Host and User-Agent are written on their own). */
const GO_UNWRITTEN: ReadonlySet<string> = new Set(['Host', 'User-Agent', 'Content-Length', 'Transfer-Encoding', 'Trailer']);
/**
 * Headers Go would send but undici refuses or replaces (it writes its own `connection: close`):
 * dropped, as no probe can mean them.
 */
const UNDICI_REFUSED: ReadonlySet<string> = new Set(['Connection', 'Keep-Alive', 'Upgrade', 'Expect']);

/** v1HeaderToHTTPHeader + newProbeRequest (H2, H3). */
function probeHeader(custom: HttpProbeTarget['headers'], userAgent: string): GoHeader {
  const header = new Map<string, string[]>();
  for (const { name, value } of custom) {
    const key = canonicalHeaderKey(toBinary(name));
    header.set(key, [...(header.get(key) ?? []), toBinary(value)]);
  }
  // A user User-Agent, even empty, replaces the default; an empty one is then not written.
  if (!header.has('User-Agent')) header.set('User-Agent', [toBinary(userAgent)]);
  if (!header.has('Accept')) header.set('Accept', ['*/*']);
  else if (header.get('Accept')?.[0] === '') header.delete('Accept');
  return header;
}

/** textproto.CanonicalMIMEHeaderKey: `FOO-bAR` → `Foo-Bar`; a name that is not a token is kept. */
function canonicalHeaderKey(name: string): string {
  if (!isToken(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

function isToken(text: string): boolean {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(text);
}

/** Request.write's order: Host, User-Agent, then the other headers sorted by name. */
function wireHeaders(hop: Hop): string[] {
  const lines = ['host', hop.host !== '' ? hop.host : hop.url.host];
  const trim = (value: string): string => value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  const agent = hop.header.get('User-Agent')?.[0] ?? '';
  if (agent !== '') lines.push('User-Agent', trim(agent));
  for (const name of [...hop.header.keys()].sort()) {
    if (GO_UNWRITTEN.has(name) || UNDICI_REFUSED.has(name)) continue;
    for (const value of hop.header.get(name) ?? []) lines.push(name, trim(value));
  }
  return lines;
}
