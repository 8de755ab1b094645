import * as net from 'node:net';
import * as tls from 'node:tls';
import type * as Undici from 'undici';
import { ERRNO_TEXT, goDialError, type SystemError } from '../goErrors';
import { joinHostPort } from '../goFormat';
import type { Dialer } from '../types';
import { fromBinary, requestTarget, splitHostPort } from '../goUrl';
import { type BodyRead, BoundedBody } from './body';
import { type ConnectionFacts, GO_MAX_HEADER_BYTES, GoError, handshakeErrorText } from './errors';
import { FirstBytes } from './firstBytes';
import { type Hop, wireHeaders } from './request';

/** How much of a response is kept to word a malformed status line or header like Go. */
const RESPONSE_START_BYTES = 8 << 10;
/** `TLSHandshakeTimeout` set by the kubelet's transport defaults; matters only above 10 s. */
const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/** Why an attempt's client is torn down; one instance, since nothing reads its stack. */
const ATTEMPT_OVER = new Error('probe attempt over');

export interface Head {
  readonly status: number;
  /** The first Location value, '' when there is none. */
  readonly location: string;
  /** Go's `resp.ContentLength`: -1 when unknown. */
  readonly contentLength: number;
}

/**
 * One request on its own connection (H5: keep-alive off, no proxy, no compression, TLS not
 * verified). The socket is dialled here, not by undici, so that the attempt owns it: it can be
 * destroyed at any moment, even mid-connect, and its addresses word Go's errors.
 */
export class Exchange implements ConnectionFacts {
  readonly head: Promise<Head | Error>;
  private client: Undici.Client | undefined;
  private socket: net.Socket | undefined;
  private secure: tls.TLSSocket | undefined;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private addresses = { local: '', remote: '' };
  /** The first bytes of the response, for Go's words about a malformed one. */
  private readonly firstChunks: Buffer[] = [];
  private firstChunkBytes = 0;
  private readonly body = new BoundedBody();
  private closed = false;

  constructor(
    undici: typeof Undici,
    hop: Hop,
    private readonly dial?: Dialer,
  ) {
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
      onResponseData: (_controller, chunk) => this.body.add(chunk),
      onResponseEnd: () => this.body.end(),
      onResponseError: (_controller, error) => {
        if (!headSeen) return settleHead(error);
        this.body.fail(error);
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
    return this.body.read(limit);
  }

  responded(): boolean {
    return this.firstChunkBytes > 0;
  }

  responseStart(): string {
    return Buffer.concat(this.firstChunks).subarray(0, RESPONSE_START_BYTES).toString('latin1');
  }

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
        if (this.firstChunkBytes >= RESPONSE_START_BYTES) return;
        this.firstChunks.push(chunk);
        this.firstChunkBytes += chunk.length;
      });
    };
    let connected = false;
    let dialed = host;
    const raw = net.connect(this.dial?.(host, port) ?? { host, port });
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
