import type * as Undici from 'undici';
import { goQuote } from './goFormat';
import { fromBinary, parseUrl, UrlError, urlString, type GoUrl } from './goUrl';
import { bodyErrorText, headErrorText, isUnaskedUpgrade } from './http/errors';
import { Exchange } from './http/exchange';
import { REDIRECT_SLURP_BYTES, redirectFrom, slurpsRedirectBody } from './http/redirects';
import { type GoHeader, type Hop, probeHeader, roundTripRefusal } from './http/request';
import { probeUrl } from './probeUrl';
import { MAX_OUTPUT_BYTES, type AttemptOptions, type Dialer, type ProbeOutcome, proberError } from './types';

/**
 * H1–H10: the kubelet's HTTP probe (`pkg/probe/http`), reproduced on undici with the behaviour of
 * Go's net/http wherever it can be observed: the URL as `net/url` prints it, the headers Go writes
 * (http/request.ts), same-hostname redirects with Go's limit and Host rules (http/redirects.ts),
 * one deadline for the whole attempt, the 10 240-byte body cap (http/body.ts), and failure texts
 * worded as Go words them (http/errors.ts), so events read like the kubelet's. One request on
 * its own connection is http/exchange.ts; this file is the attempt and the prober's entry point.
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

export interface HttpRunOptions extends AttemptOptions {
  readonly dial?: Dialer;
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
export function runHttpProbe(prepared: PreparedHttpProbe, options: HttpRunOptions): Promise<ProbeOutcome> {
  if (!prepared.ok) return Promise.resolve(prepared.outcome);
  return new HttpAttempt(prepared.url, prepared.header, options).run();
}

// --- the attempt: Go's Client.Do followed by DoHTTPProbe -------------------------------------

/** Go's `Client.Timeout` and context texts (H6, H8). */
const DEADLINE = 'context deadline exceeded';
const CANCELED = 'context canceled';

let undiciModule: Promise<typeof Undici> | undefined;
/** undici, loaded once; exported so that a caller timing a first attempt can load it beforehand. */
export function loadHttpClient(): Promise<typeof Undici> {
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
    private readonly options: HttpRunOptions,
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
    const undici = await loadHttpClient();
    if (this.settled) return;
    // One deadline for the whole exchange (H6, P4), started once undici is loaded: loading it
    // (once per process, ~150 ms) is not the target's time, and must not fail a first probe.
    this.timer = setTimeout(() => this.finish(this.interrupted(DEADLINE)), timeoutMs);
    const first: Hop = { url: this.url, host: this.header.get('Host')?.[0] ?? '', header: this.header };
    let hop = first;
    let includeBody = true;
    for (let requests = 1; !this.settled; requests += 1) {
      const href = fromBinary(urlString(hop.url));
      this.phase = { kind: 'headers', url: href };
      const refusal = roundTripRefusal(hop);
      if (refusal !== undefined) return this.finish(failure(`Get ${goQuote(href)}: ${refusal}`));
      const exchange = (this.exchange = new Exchange(undici, hop, this.options.dial));
      const head = await exchange.head;
      if (this.settled) return;
      // Go returns a 101 as the final response; undici refuses an upgrade it did not ask for.
      if (head instanceof Error && isUnaskedUpgrade(head)) return this.finish(classify(101, Buffer.alloc(0)));
      if (head instanceof Error) return this.finish(failure(`Get ${goQuote(href)}: ${headErrorText(head, exchange)}`));

      const redirect = redirectFrom({ first, hop, requests, includeBody }, head.status, head.location);
      if (redirect.kind === 'unparsable') return this.finish(failure(`Get ${goQuote(href)}: ${redirect.reason}`));
      if (redirect.kind === 'refused' || redirect.kind === 'follow') {
        this.phase = redirect.kind === 'refused' ? { kind: 'decided', outcome: redirect.outcome } : { kind: 'headers', url: fromBinary(urlString(redirect.next.url)) };
        // Errors while slurping are ignored, as Go ignores them; the deadline still applies.
        if (slurpsRedirectBody(head.contentLength)) await exchange.readBody(REDIRECT_SLURP_BYTES);
        exchange.close();
        if (this.settled) return;
        if (redirect.kind === 'refused') return this.finish(redirect.outcome);
        hop = redirect.next;
        includeBody = redirect.includeBody;
        continue;
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
