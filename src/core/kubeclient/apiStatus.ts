import { clip } from '../text/sentence';
import { classifyKubectlError, type KubectlError, MAX_DETAIL_CHARS } from './kubectlErrors';

/**
 * What went wrong talking to the API server through `kubectl proxy`, read for people. Two
 * speakers answer: the API server (a JSON `Status`: `{"kind":"Status","code":403,"reason":
 * "Forbidden","message":"pods \"web-1\" is forbidden: User …"}`) and kubectl proxy itself, in
 * plain text — its path filter (`403 Forbidden`, the body `Forbidden`) and its failures to reach
 * the API server (`500`, the body being client-go's error: `dial tcp 127.0.0.1:6443: connect:
 * connection refused`, `getting credentials: exec: executable gke-auth not found …`). Both end
 * as the same `KubectlError` kinds and sentences as kubectl's own stderr.
 */

/** A request that did not give what was asked: the HTTP status when there was one, the reading, the raw words. */
export interface ApiFailure {
  readonly status?: number;
  readonly error: KubectlError;
  /** The server's or the proxy's own words (a Status message, a text body's last line), for the log. */
  readonly detail: string;
  /** Nothing answered on Probe Lens's own kubectl proxy socket: the proxy's state says why (it is restarted). */
  readonly proxyDown?: true;
}

/** The fields of a `metav1.Status` that say what happened. */
export interface ApiStatus {
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: { readonly causes?: readonly { readonly reason?: string; readonly message?: string }[] };
}

/** The body as a `Status` when it is one (JSON with `kind: "Status"`), else `undefined`. */
export function parseStatus(body: string): ApiStatus | undefined {
  if (!body.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(body) as { kind?: unknown } | null;
    return value !== null && typeof value === 'object' && value.kind === 'Status' ? (value as ApiStatus) : undefined;
  } catch {
    return undefined;
  }
}

/** kubectl proxy's default `--reject-paths` cover these: exec and attach into a pod. */
const EXEC_PATH = /^\/api\/.*\/pods\/.*\/(exec|attach)(\?|$)/;

/**
 * One decision: an HTTP answer other than the one asked for, as a kind and a sentence. `path` is
 * the request's, for the proxy's own refusals (which name no path) and for answers with no words.
 */
export function httpFailure(status: number, body: string, path: string): ApiFailure {
  const apiStatus = parseStatus(body);
  const said = apiStatus?.message?.trim() || (apiStatus ? '' : plainText(body));
  const detail = clip(said || `${status}`, MAX_DETAIL_CHARS);
  // The words are the server's: not the prefix kubectl's rules were given to read them by.
  const failure = (error: KubectlError): ApiFailure => ({ status, error: { ...error, detail }, detail });
  if (status === 401) return failure(classifyKubectlError('error: You must be logged in to the server (Unauthorized)'));
  if (status === 403) {
    if (apiStatus) {
      // RBAC's `pods "web-1" is forbidden: User "jane" cannot create resource "pods/portforward" …`: kubectl's own reading.
      const reading = classifyKubectlError(`Error from server (Forbidden): ${said || 'Forbidden'}`);
      if (reading.kind === 'forbidden') return failure(reading);
      return failure({ kind: 'forbidden', sentence: `the cluster refused the request (${clip(said, 120)}): ask your cluster admin for that permission, or use another context.`, detail });
    }
    // Not a Status: kubectl proxy's own filter (`--reject-paths`, `--accept-hosts`).
    if (EXEC_PATH.test(path)) return failure({ kind: 'forbidden', sentence: 'exec probes run commands in your container and were not allowed for this session (use --allow-exec, or the extension\'s consent).', detail });
    return failure({ kind: 'forbidden', sentence: `kubectl proxy refused ${pathOnly(path)} (Forbidden): this is Probe Lens's own proxy, so report it as a bug.`, detail });
  }
  if (status === 404) {
    // `pods "web-1" not found`, `namespaces "shop" not found`: kubectl's own reading; anything else is the path.
    const reading = apiStatus ? classifyKubectlError(`Error from server (NotFound): ${said}`) : undefined;
    if (reading && (reading.kind === 'not-found' || reading.kind === 'namespace-not-found')) return failure(reading);
    return failure({ kind: 'not-found', sentence: `the cluster does not serve ${pathOnly(path)} (${clip(said || 'Not Found', 120)}): its Kubernetes version may be too old for Probe Lens.`, detail });
  }
  // A text body on a 5xx: kubectl proxy could not forward the request; client-go's error says why.
  if (!apiStatus && status >= 500 && said) {
    const reading = classifyKubectlError(said);
    if (reading.kind !== 'unknown') return failure(reading);
    return failure({ kind: 'unreachable', sentence: `kubectl proxy could not reach the cluster (${clip(said, 120)}): check that the cluster is running and that the context is the right one.`, detail });
  }
  return failure(byCode(status, apiStatus, said));
}

/** A Status the rules above do not single out, by its HTTP code; its message says the rest. */
function byCode(status: number, apiStatus: ApiStatus | undefined, said: string): KubectlError {
  // The API server proxies exec, port-forward and logs to the pod's kubelet (port 10250), and could not reach it.
  if (/^error dialing backend: /.test(said)) {
    return { kind: 'unreachable', sentence: `the API server could not reach the kubelet of the pod's node (${clip(said, 160)}): its port 10250 is filtered from the control plane or the node is down; kubectl exec, port-forward and logs fail the same way.`, detail: said };
  }
  const reason = apiStatus?.reason || `HTTP ${status}`;
  const words = said ? `${reason}: ${clip(said, 160)}` : reason;
  if (status === 408 || status === 504) return { kind: 'timeout', sentence: `the cluster did not answer in time (${words}): check your network or VPN, and that the cluster is running.`, detail: said };
  if (status === 503) return { kind: 'unreachable', sentence: `the cluster's API server is not ready (${words}): wait for it to start, then try again.`, detail: said };
  if (status === 429) return { kind: 'unknown', sentence: `the cluster is too busy to answer (${words}): Probe Lens tries again.`, detail: said };
  return { kind: 'unknown', sentence: `the cluster answered ${status} (${words}).`, detail: said };
}

/** A text body's words: its first line that says something (kubectl proxy adds paragraphs of advice after it). */
function plainText(body: string): string {
  if (/^\s*</.test(body)) return ''; // HTML from something in between: no words for people.
  const line = body.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim();
}

/** `/api/v1/namespaces/shop/pods` of `/api/v1/namespaces/shop/pods?labelSelector=…`. */
function pathOnly(path: string): string {
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

/**
 * Nothing answered on the proxy's socket (kubectl proxy exited, or is restarting): the socket
 * file is missing (ENOENT), nobody listens (ECONNREFUSED), or it closed mid-answer.
 */
export function proxyUnreachable(cause: unknown): ApiFailure {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  const detail = clip(code && !message.includes(code) ? `${code}: ${message}` : message, MAX_DETAIL_CHARS);
  return { error: { kind: 'unreachable', sentence: `Probe Lens's kubectl proxy did not answer (${clip(detail, 120)}): it restarts on its own; if it keeps failing, see the Probe Lens log.`, detail }, detail, proxyDown: true };
}

/** No answer within the request's deadline. */
export function apiTimedOut(path: string, timeoutMs: number): ApiFailure {
  const seconds = Math.round(timeoutMs / 100) / 10;
  const detail = `no answer to ${pathOnly(path)} within ${seconds} s`;
  return { error: { kind: 'timeout', sentence: `the cluster did not answer within ${seconds} s (GET ${pathOnly(path)}): check your network or VPN, and that the cluster is running.`, detail }, detail };
}

/** The answer was larger than the caller allows: cut, and not used. */
export function answerTooLarge(path: string, maxBytes: number): ApiFailure {
  const size = sizeText(maxBytes);
  const detail = `the answer to ${pathOnly(path)} was larger than ${size}`;
  return { error: { kind: 'unknown', sentence: `the cluster's answer to GET ${pathOnly(path)} was larger than ${size}, so Probe Lens did not read it: narrow the label selector or the namespace.`, detail }, detail };
}

/** `32 MiB`, `1024 bytes`: a bound as people read it. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

/** The answer was not what the API promises (not JSON, a broken watch line): a bug somewhere between. */
export function answerMalformed(path: string, what: string): ApiFailure {
  const detail = `${what} from ${pathOnly(path)}`;
  return { error: { kind: 'unknown', sentence: `the cluster sent ${what} for GET ${pathOnly(path)}: Probe Lens tries again; if it keeps happening, see the Probe Lens log.`, detail }, detail };
}

/** The caller stopped the request (its signal): nobody reads the sentence, but it is one. */
export function apiAborted(path: string): ApiFailure {
  const detail = `GET ${pathOnly(path)} stopped`;
  return { error: { kind: 'unknown', sentence: `${detail}.`, detail }, detail };
}
