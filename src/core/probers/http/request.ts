import { goQuote } from '../goFormat';
import { fromBinary, toBinary, type GoUrl } from '../goUrl';

/**
 * The request an HTTP probe sends (H2–H5): Go's `http.Header` built from the probe's headers, the
 * header lines in the order Go writes them, and what Go's transport refuses before dialling.
 */

/** Go's `http.Header`: canonical names, values in order; strings hold bytes (latin1). */
export type GoHeader = ReadonlyMap<string, readonly string[]>;

/** One request of a redirect chain, as Go builds it. */
export interface Hop {
  readonly url: GoUrl;
  /** `req.Host`: a custom Host header, or '' for the URL's host (H4). */
  readonly host: string;
  readonly header: GoHeader;
}

/** Headers Go never writes from `req.Header` (Host and User-Agent are written on their own). */
const GO_UNWRITTEN: ReadonlySet<string> = new Set(['Host', 'User-Agent', 'Content-Length', 'Transfer-Encoding', 'Trailer']);
/**
 * Headers Go would send but undici refuses or replaces (it writes its own `connection: close`):
 * dropped, as no probe can mean them.
 */
const UNDICI_REFUSED: ReadonlySet<string> = new Set(['Connection', 'Keep-Alive', 'Upgrade', 'Expect']);

/** v1HeaderToHTTPHeader + newProbeRequest (H2, H3). */
export function probeHeader(custom: readonly { readonly name: string; readonly value: string }[], userAgent: string): GoHeader {
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

export function isToken(text: string): boolean {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(text);
}

/** Request.write's order: Host, User-Agent, then the other headers sorted by name. */
export function wireHeaders(hop: Hop): string[] {
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

/** What Transport.roundTrip refuses before dialling, in its words. */
export function roundTripRefusal(hop: Hop): string | undefined {
  const { scheme, host } = hop.url;
  if (scheme !== 'http' && scheme !== 'https') return `unsupported protocol scheme ${goQuote(fromBinary(scheme))}`;
  for (const [name, values] of hop.header) {
    if (!isToken(name)) return `net/http: invalid header field name ${goQuote(fromBinary(name))}`;
    if (values.some((value) => /[\x00-\x08\x0a-\x1f\x7f]/.test(value))) return `net/http: invalid header field value for ${goQuote(fromBinary(name))}`;
  }
  if (host === '') return 'http: no Host in request URL';
  return undefined;
}
