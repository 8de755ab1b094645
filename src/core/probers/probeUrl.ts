import { joinHostPort } from './goFormat';
import { EMPTY_URL, fromBinary, type GoUrl, parseUrl, toBinary, UrlError, urlString } from './goUrl';

/**
 * H1, the kubelet's `formatURL` (pkg/probe/http/request.go): the path parsed as a URL reference,
 * then scheme and host set. Shared by the HTTP prober and the simulated target, so a simulated
 * output names the URL exactly as a real attempt would.
 */
export function probeUrl(scheme: string, host: string, port: number, path: string): GoUrl {
  const raw = toBinary(path);
  const parsed = parseUrl(raw);
  // "Something is busted with the path, but it's too late to reject it. Pass it along as is."
  const base = parsed instanceof UrlError ? { ...EMPTY_URL, path: raw } : parsed;
  return { ...base, scheme: toBinary(scheme.toLowerCase() || 'http'), host: toBinary(joinHostPort(host, port)) };
}

/** H1: the URL the kubelet probes, as Go prints it (`http://[::1]:8080/healthz?x`). */
export function formatProbeUrl(scheme: string, host: string, port: number, path: string): string {
  return fromBinary(urlString(probeUrl(scheme, host, port, path)));
}
