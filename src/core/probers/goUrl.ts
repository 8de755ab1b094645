import { goQuote } from './goFormat';

/**
 * The part of Go's `net/url` the HTTP probe needs: `url.Parse`, `URL.String`, `RequestURI`,
 * `Hostname` and `ResolveReference`, with Go's error texts. The kubelet prints the probe URL and
 * `http.NewRequest` parses it again, and Go's client resolves each Location against the last URL,
 * so what is probed, what is followed and what the events say all depend on Go's printing and
 * resolution; the WHATWG `URL` of node normalises differently and cannot stand in for it.
 */

/** The fields of Go's `url.URL` that matter here. Strings hold bytes (latin1), as Go's do. */
export interface GoUrl {
  readonly scheme: string;
  readonly opaque: string;
  readonly user: string | undefined;
  /** `host[:port]`, unescaped, brackets kept. */
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly forceQuery: boolean;
  readonly rawQuery: string;
  readonly fragment: string;
  readonly rawFragment: string;
}

export const EMPTY_URL: GoUrl = { scheme: '', opaque: '', user: undefined, host: '', path: '', rawPath: '', forceQuery: false, rawQuery: '', fragment: '', rawFragment: '' };

/** A net/url error: its message is Go's. */
export class UrlError {
  constructor(readonly message: string) {}
}

type Encoding = 'path' | 'fragment' | 'host';

/** url.Parse. */
export function parseUrl(raw: string): GoUrl | UrlError {
  const hash = raw.indexOf('#');
  const main = hash < 0 ? raw : raw.slice(0, hash);
  const url = parseReference(main);
  if (url instanceof UrlError) return new UrlError(`parse ${goQuote(fromBinary(main))}: ${url.message}`);
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  if (fragment === '') return url;
  const decoded = unescape(fragment, 'fragment');
  if (decoded instanceof UrlError) return new UrlError(`parse ${goQuote(fromBinary(raw))}: ${decoded.message}`);
  return { ...url, fragment: decoded, rawFragment: escape(decoded, 'fragment') === fragment ? '' : fragment };
}

/** net/url `parse(rawURL, viaRequest=false)`. */
function parseReference(raw: string): GoUrl | UrlError {
  if (/[\x00-\x1f\x7f]/.test(raw)) return new UrlError('net/url: invalid control character in URL');
  if (raw === '*') return { ...EMPTY_URL, path: '*' };
  const schemeEnd = schemeLength(raw);
  if (schemeEnd instanceof UrlError) return schemeEnd;
  const scheme = raw.slice(0, schemeEnd).toLowerCase();
  let rest = schemeEnd > 0 ? raw.slice(schemeEnd + 1) : raw;
  let forceQuery = false;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    forceQuery = true;
    rest = rest.slice(0, -1);
  } else if (rest.includes('?')) {
    rawQuery = rest.slice(rest.indexOf('?') + 1);
    rest = rest.slice(0, rest.indexOf('?'));
  }
  const base = { ...EMPTY_URL, scheme, forceQuery, rawQuery };
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { ...base, opaque: rest };
    if ((rest.split('/')[0] ?? '').includes(':')) return new UrlError('first path segment in URL cannot contain colon');
  }
  let authority: { user: string | undefined; host: string } = { user: undefined, host: '' };
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const parsed = parseAuthority(slash < 0 ? rest.slice(2) : rest.slice(2, slash));
    if (parsed instanceof UrlError) return parsed;
    authority = parsed;
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  const path = setPath(rest);
  if (path instanceof UrlError) return path;
  return { ...base, ...authority, ...path };
}

/** getScheme: the length of a valid scheme before ':', 0 when there is none. */
function schemeLength(raw: string): number | UrlError {
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] ?? '';
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return 0;
      continue;
    }
    if (c === ':') return i === 0 ? new UrlError('missing protocol scheme') : i;
    return 0;
  }
  return 0;
}

function parseAuthority(authority: string): { user: string | undefined; host: string } | UrlError {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (host instanceof UrlError) return host;
  if (at < 0) return { user: undefined, host };
  const user = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(user)) return new UrlError('net/url: invalid userinfo');
  return { user, host };
}

function parseHost(host: string): string | UrlError {
  const portStart = host.startsWith('[') ? host.lastIndexOf(']') + 1 : host.lastIndexOf(':');
  if (host.startsWith('[') && portStart === 0) return new UrlError("missing ']' in host");
  if (portStart >= 0 && !validOptionalPort(host.slice(portStart))) {
    return new UrlError(`invalid port ${goQuote(fromBinary(host.slice(portStart)))} after host`);
  }
  return unescape(host, 'host');
}

function validOptionalPort(port: string): boolean {
  return /^(:\d*)?$/.test(port);
}

function setPath(escaped: string): { path: string; rawPath: string } | UrlError {
  const path = unescape(escaped, 'path');
  if (path instanceof UrlError) return path;
  return { path, rawPath: escape(path, 'path') === escaped ? '' : escaped };
}

/** URL.String. */
export function urlString(url: GoUrl): string {
  let out = url.scheme === '' ? '' : `${url.scheme}:`;
  if (url.opaque !== '') {
    out += url.opaque;
  } else {
    if (url.scheme !== '' || url.host !== '' || url.user !== undefined) {
      if (url.host !== '' || url.path !== '' || url.user !== undefined) out += '//';
      if (url.user !== undefined) out += `${url.user}@`;
      out += escape(url.host, 'host');
    }
    const path = escapedPath(url);
    if (path !== '' && !path.startsWith('/') && url.host !== '') out += '/';
    if (out === '' && (path.split('/')[0] ?? '').includes(':')) out += './';
    out += path;
  }
  if (url.forceQuery || url.rawQuery !== '') out += `?${url.rawQuery}`;
  if (url.fragment !== '') out += `#${hasValidEncoding(url.fragment, url.rawFragment, 'fragment') ? url.rawFragment : escape(url.fragment, 'fragment')}`;
  return out;
}

/** URL.RequestURI, made acceptable to undici (which wants an origin-form target, no spaces). */
export function requestTarget(url: GoUrl): string {
  let target = url.opaque;
  if (target === '') target = escapedPath(url) || '/';
  else if (target.startsWith('//')) target = `${url.scheme}:${target}`;
  if (url.forceQuery || url.rawQuery !== '') target += `?${url.rawQuery}`;
  if (!target.startsWith('/')) target = `/${target}`;
  return target.replace(/[^\x21-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function escapedPath(url: GoUrl): string {
  if (hasValidEncoding(url.path, url.rawPath, 'path')) return url.rawPath;
  return url.path === '*' ? '*' : escape(url.path, 'path');
}

/** EscapedPath / EscapedFragment keep the original encoding when it is valid and means the same. */
function hasValidEncoding(decoded: string, raw: string, mode: Encoding): boolean {
  return raw !== '' && validEncoded(raw, mode) && unescape(raw, mode) === decoded;
}

/** url.Hostname: the host without port and brackets. */
export function hostname(url: GoUrl): string {
  return splitHostPort(url.host).host;
}

/** url.Hostname and url.Port together: the port without its colon, '' when there is none. */
export function splitHostPort(hostPort: string): { host: string; port: string } {
  const colon = hostPort.lastIndexOf(':');
  const split = colon >= 0 && validOptionalPort(hostPort.slice(colon));
  let host = split ? hostPort.slice(0, colon) : hostPort;
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host, port: split ? hostPort.slice(colon + 1) : '' };
}

/** URL.ResolveReference (RFC 3986 §5.2), which Go applies to a Location. */
export function resolveReference(base: GoUrl, ref: GoUrl): GoUrl {
  const scheme = ref.scheme === '' ? base.scheme : ref.scheme;
  if (ref.scheme !== '' || ref.host !== '' || ref.user !== undefined) return { ...ref, scheme, ...resolvedPath(resolvePath(escapedPath(ref), '')) };
  if (ref.opaque !== '') return { ...ref, scheme, user: undefined, host: '', path: '' };
  let { rawQuery, fragment, rawFragment } = ref;
  if (ref.path === '' && !ref.forceQuery && ref.rawQuery === '') {
    rawQuery = base.rawQuery;
    if (ref.fragment === '') ({ fragment, rawFragment } = base);
  }
  const url = { ...ref, scheme, rawQuery, fragment, rawFragment };
  if (ref.path === '' && base.opaque !== '') return { ...url, opaque: base.opaque, user: undefined, host: '', path: '' };
  return { ...url, host: base.host, user: base.user, ...resolvedPath(resolvePath(escapedPath(base), escapedPath(ref))) };
}

function resolvedPath(escaped: string): { path: string; rawPath: string } {
  const path = setPath(escaped);
  return path instanceof UrlError ? { path: escaped, rawPath: '' } : path;
}

/** net/url resolvePath: merges `ref` into `base` and removes dot segments. */
function resolvePath(base: string, ref: string): string {
  const full = ref === '' ? base : ref.startsWith('/') ? ref : base.slice(0, base.lastIndexOf('/') + 1) + ref;
  if (full === '') return '';
  let out = '/';
  let first = true;
  let elem = '';
  for (let rest: string | undefined = full; rest !== undefined; ) {
    const slash = rest.indexOf('/');
    elem = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? undefined : rest.slice(slash + 1);
    if (elem === '.') {
      first = false;
    } else if (elem === '..') {
      const index = out.slice(1).lastIndexOf('/');
      first = index === -1;
      out = `/${index === -1 ? '' : out.slice(1, index + 1)}`;
    } else {
      out += (first ? '' : '/') + elem;
      first = false;
    }
  }
  if (elem === '.' || elem === '..') out += '/';
  return out.length > 1 && out[1] === '/' ? out.slice(1) : out;
}

function shouldEscape(c: string, mode: Encoding): boolean {
  if (/^[A-Za-z0-9]$/.test(c)) return false;
  if (mode === 'host') return !`-_.~!$&'()*+,;=:[]<>"`.includes(c);
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) return mode === 'path' && c === '?';
  return !(mode === 'fragment' && '!()*'.includes(c));
}

function escape(text: string, mode: Encoding): string {
  let out = '';
  for (const c of text) out += shouldEscape(c, mode) ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : c;
  return out;
}

function unescape(text: string, mode: Encoding): string | UrlError {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i] ?? '';
    if (c === '%') {
      const escaped = text.slice(i, i + 3);
      if (!/^%[0-9A-Fa-f]{2}$/.test(escaped)) return new UrlError(`invalid URL escape ${goQuote(fromBinary(escaped))}`);
      const byte = parseInt(escaped.slice(1), 16);
      // In a host only non-ASCII bytes (and the zone's %25) may be escaped.
      if (mode === 'host' && byte < 0x80 && escaped !== '%25') return new UrlError(`invalid URL escape ${goQuote(escaped)}`);
      out += String.fromCharCode(byte);
      i += 3;
    } else {
      if (mode === 'host' && c.charCodeAt(0) < 0x80 && shouldEscape(c, 'host')) return new UrlError(`invalid character ${goQuote(c)} in host name`);
      out += c;
      i += 1;
    }
  }
  return out;
}

function validEncoded(text: string, mode: Encoding): boolean {
  for (const c of text) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

/** Go strings are bytes: URLs and headers are handled as latin1 "binary" strings of UTF-8. */
export function toBinary(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export function fromBinary(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
