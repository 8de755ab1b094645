import { goQuote } from '../goFormat';
import { fromBinary, hostname, parseUrl, resolveReference, UrlError, urlString, type GoUrl } from '../goUrl';
import type { ProbeOutcome } from '../types';
import type { GoHeader, Hop } from './request';

/**
 * The kubelet's redirect policy on Go's client (H4, H10): only redirects to the first request's
 * hostname are followed, the 10th is refused, and each followed one is the request Go builds.
 */

/** RedirectChecker: the 10th redirect is refused (H10, X1). */
const MAX_REDIRECTS = 10;
/** The statuses Go's client follows (redirectBehavior). */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** client.go `maxBodySlurpSize`: Go reads this much of a followed redirect's body before closing it. */
export const REDIRECT_SLURP_BYTES = 2 << 10;
/** Headers Go stops copying once the body is dropped (client.go makeHeadersCopier). */
const BODY_HEADERS: ReadonlySet<string> = new Set(['Content-Encoding', 'Content-Language', 'Content-Location', 'Content-Type']);

/** Where a redirect chain stands when a response comes back. */
export interface RedirectChain {
  readonly first: Hop;
  readonly hop: Hop;
  /** Requests sent so far, this one included. */
  readonly requests: number;
  /** Whether the request still carries a body (no 301/302/303 followed yet). */
  readonly includeBody: boolean;
}

export type Redirect =
  /** Not a redirect Go follows, or one to another hostname: this response is the final one. */
  | { readonly kind: 'final' }
  /** A Location that does not parse: the attempt fails with `Get "<url>": <reason>`. */
  | { readonly kind: 'unparsable'; readonly reason: string }
  /** The redirect one too many: the attempt ends in `outcome` once the body is slurped. */
  | { readonly kind: 'refused'; readonly outcome: ProbeOutcome }
  | { readonly kind: 'follow'; readonly next: Hop; readonly includeBody: boolean };

const FINAL: Redirect = { kind: 'final' };

/** Client.Do's decision on a response: follow it, refuse it, or take it as the answer. */
export function redirectFrom(chain: RedirectChain, status: number, locationHeader: string): Redirect {
  if (!REDIRECT_STATUSES.has(status) || locationHeader === '') return FINAL;
  const location = parseUrl(locationHeader);
  if (location instanceof UrlError) return { kind: 'unparsable', reason: `failed to parse Location header ${goQuote(fromBinary(locationHeader))}: ${location.message}` };
  const url = resolveReference(chain.hop.url, location);
  // RedirectChecker (H10): another hostname ends the chain; the 3xx is the final response.
  if (hostname(url) !== hostname(chain.first.url)) return FINAL;
  if (chain.requests >= MAX_REDIRECTS) return { kind: 'refused', outcome: { result: 'failure', output: `Get ${goQuote(fromBinary(locationHeader))}: stopped after 10 redirects` } };
  // Once a 301/302/303 is followed, Go sends no body again, nor the headers describing one.
  const includeBody = chain.includeBody && (status === 307 || status === 308);
  return { kind: 'follow', next: redirectHop(chain.hop, url, location, chain.first.header, includeBody), includeBody };
}

/** Whether Go reads a redirect's body before closing it: when it is known to be small, or of unknown size. */
export function slurpsRedirectBody(contentLength: number): boolean {
  return contentLength < 0 || contentLength <= REDIRECT_SLURP_BYTES;
}

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
