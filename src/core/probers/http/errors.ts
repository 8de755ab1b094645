import { ERRNO_TEXT, type SystemError } from '../goErrors';
import { goQuote } from '../goFormat';
import { fromBinary } from '../goUrl';
import type { FirstBytes } from './firstBytes';
import { isToken } from './request';

/**
 * net/http and crypto/tls error texts (H7, H8): undici's and node's errors reworded as Go's
 * transport words them, since the kubelet puts those words in its events.
 */

/** What an exchange knows about its connection that Go's words depend on. */
export interface ConnectionFacts {
  /** Whether the server sent any of a response, for telling Go's `EOF` from `unexpected EOF`. */
  responded(): boolean;
  /** The first bytes of the response (latin1), for Go's words about a malformed one. */
  responseStart(): string;
  /** Go's `read tcp <local>-><remote>: read: <errno>`. */
  socketErrorText(error: SystemError): string;
}

/** A Go-worded error from the connector: passed through undici untouched. */
export class GoError extends Error {}

/** net/http's default `MaxResponseHeaderBytes` (10 MiB), instead of node's 16 KiB. */
export const GO_MAX_HEADER_BYTES = 10 << 20;

/** How persistConn.mapRoundTripError prefixes a failure after the request went out. */
const BROKEN = 'net/http: HTTP/1.x transport connection broken: ';

/** H7: a failure before the response headers, as Go's transport reports it. */
export function headErrorText(error: SystemError, connection: ConnectionFacts): string {
  if (error instanceof GoError) return error.message;
  const code = error.code ?? '';
  const partial = connection.responded();
  if (error.name === 'HTTPParserError') return BROKEN + (malformedResponse(connection.responseStart()) ?? error.message);
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return `${BROKEN}net/http: server response headers exceeded ${GO_MAX_HEADER_BYTES} bytes; aborted`;
  // The peer closed: nothing read is Go's bare `EOF`, a cut-off response `unexpected EOF`.
  if (code === 'UND_ERR_SOCKET') return partial ? `${BROKEN}unexpected EOF` : 'EOF';
  if (code in ERRNO_TEXT) return (partial ? BROKEN : '') + connection.socketErrorText(error);
  return error.message;
}

/** undici's ways of refusing a `101 Switching Protocols` to a request that did not ask for one. */
export function isUnaskedUpgrade(error: SystemError): boolean {
  return error.message === 'bad upgrade' || (error.code === 'ERR_ASSERTION' && /\bupgrade\b/.test(error.message));
}

/** H8: a body that fails before the cap. */
export function bodyErrorText(error: SystemError, connection: ConnectionFacts): string {
  const code = error.code ?? '';
  const parser = error.name === 'HTTPParserError';
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_SOCKET' || (parser && /EOF/i.test(error.message))) return 'unexpected EOF';
  if (parser && /chunk size/i.test(error.message)) return 'invalid byte in chunk length';
  if (parser) return 'malformed chunked encoding';
  if (code in ERRNO_TEXT) return connection.socketErrorText(error);
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
export function handshakeErrorText(error: SystemError & { reason?: string }, tap: FirstBytes, connection: ConnectionFacts): string {
  const head = tap.head;
  // crypto/tls checks the first record header; net/http spots a plain-HTTP answer in it.
  if (head.length >= 5 && ((head[0] !== 0x15 && head[0] !== 0x16) || ((head[1] ?? 0) << 8) + (head[2] ?? 0) >= 0x1000)) {
    return head.toString('latin1') === 'HTTP/' ? 'http: server gave HTTP response to HTTPS client' : 'tls: first record does not look like a TLS handshake';
  }
  if (tap.finished) return head.length === 0 ? 'EOF' : 'unexpected EOF';
  if ((error.code ?? '') in ERRNO_TEXT) return connection.socketErrorText(error);
  const alert = /alert (.+)$/.exec(error.reason ?? '')?.[1];
  if (alert !== undefined) return `remote error: tls: ${GO_ALERTS[alert] ?? alert}`;
  return `tls: ${error.reason ?? error.message}`;
}
