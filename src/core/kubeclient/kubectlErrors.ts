import { clip, sentenceEnd } from '../text/sentence';

/**
 * kubectl's stderr, read for people. kubectl writes what went wrong several ways at once: klog
 * lines from client-go (`E1124 10:00:00.123456   1234 memcache.go:265] "Unhandled Error"
 * err="couldn't get current server API group list: …"`, often five times over), then its own
 * last word from `cmdutil.CheckErr` (`The connection to the server 127.0.0.1:6443 was refused -
 * did you specify the right host or port?`, `error: You must be logged in to the server
 * (Unauthorized)`, `Error from server (Forbidden): …`). `classifyKubectlError` turns all of it
 * into one kind and one sentence that says what to do; the raw text stays for the log.
 */

/** What kind of trouble kubectl reported; each has its own remedy. */
export type KubectlErrorKind =
  /** kubectl itself could not be run (not found, not executable): `probeLens.kubectlPath` / `--kubectl`. */
  | 'kubectl-missing'
  /** No kubeconfig, or one without a current context (kubectl then tries localhost:8080). */
  | 'no-context'
  /** The context named (current, or `--context`) is not in the kubeconfig. */
  | 'context-not-found'
  /** The kubeconfig does not hold together (client-go's `invalid configuration`). */
  | 'config-invalid'
  /** The API server refused the connection, or its name or route is unknown. */
  | 'unreachable'
  /** The API server did not answer in time (or kubectl did not finish in time). */
  | 'timeout'
  /** TLS: the server's certificate is not trusted, has expired, or names another host. */
  | 'certificate'
  /** The server did not accept the credentials, or the credential plugin failed. */
  | 'unauthorised'
  /** RBAC: the user may not do this. */
  | 'forbidden'
  | 'namespace-not-found'
  /** The object asked for (a pod by name) does not exist. */
  | 'not-found'
  /** port-forward to a pod that is not Running. */
  | 'pod-not-running'
  /** port-forward reached the pod, but nothing listens on the port there (the probe's own failure to report). */
  | 'port-refused'
  /** None of the above: the sentence carries kubectl's own last word. */
  | 'unknown';

export interface KubectlError {
  readonly kind: KubectlErrorKind;
  /** One sentence for a notification or a CLI line: what happened, then what to do. Ends with a full stop. */
  readonly sentence: string;
  /** kubectl's own last meaningful line (klog header and quoting removed, de-duplicated, whole words). */
  readonly detail: string;
}

/** Longest `detail`, cut at a word boundary: a notification shows little more. */
export const MAX_DETAIL_CHARS = 240;

/** `E1124 10:00:00.123456   1234 memcache.go:265] ` — klog's header (severity, date, time, thread, file:line). */
const KLOG_HEADER = /^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[^\s\]]+:\d+\]\s?/;
/** Structured klog: `"Unhandled Error" err="…"` (Go-quoted), or `err=<` with the value on indented lines until `>`. */
const STRUCTURED_ERR = /\berr="((?:[^"\\]|\\.)*)"/;
const STRUCTURED_BLOCK = /\berr=<\s*$/;
/** Lines kubectl adds that say nothing about what failed. */
const NOISE = [/^See '.*' for (help|usage)/, /^Run '.*' for/, /^Handling connection for \d+$/, /^Forwarding from /];

/**
 * kubectl's messages in the order written, one per line or klog entry: klog headers dropped,
 * structured `err` values unquoted, blank and noise lines skipped.
 */
export function kubectlMessages(stderr: string): string[] {
  const messages: string[] = [];
  const lines = stderr.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const header = KLOG_HEADER.exec(raw);
    let text = header ? raw.slice(header[0].length) : raw.trim();
    if (header && STRUCTURED_BLOCK.test(text)) {
      // The value follows, indented, up to a line holding only `>`; its first line says it.
      const block: string[] = [];
      for (i++; i < lines.length && !/^\s*>\s*$/.test(lines[i] as string); i++) block.push((lines[i] as string).trim());
      text = block.find((l) => l !== '') ?? '';
    } else if (header) {
      const quoted = STRUCTURED_ERR.exec(text);
      if (quoted) text = unquoteGo(quoted[1] as string);
    }
    text = text.trim();
    if (text === '' || text === '>' || NOISE.some((n) => n.test(text))) continue;
    messages.push(text);
  }
  return messages;
}

/**
 * The last thing kubectl said (its `CheckErr` line comes last), or '' when it said nothing;
 * at most `max` characters, cut between words.
 */
export function lastMeaningfulLine(stderr: string, max = MAX_DETAIL_CHARS): string {
  const messages = kubectlMessages(stderr);
  return clip(messages[messages.length - 1] ?? '', max);
}

/** Each distinct message once, in the order first written: client-go repeats its retries verbatim. */
export function distinctMessages(stderr: string): string[] {
  return [...new Set(kubectlMessages(stderr))];
}

/**
 * One decision: what kubectl's stderr means and what the user can do. Rules are tried in
 * order; earlier ones are the more specific reading (a refused `localhost:8080` is no kubeconfig
 * at all, not a cluster that is down; an exec plugin failing is credentials, not the network).
 */
export function classifyKubectlError(stderr: string): KubectlError {
  const messages = distinctMessages(stderr);
  const detail = clip(messages[messages.length - 1] ?? '', MAX_DETAIL_CHARS);
  const all = messages.join('\n');
  for (const rule of RULES) {
    const sentence = rule.read(all, messages);
    if (sentence !== undefined) return { kind: rule.kind, sentence, detail };
  }
  const said = detail.replace(/^error: /, '');
  return { kind: 'unknown', sentence: said ? `kubectl failed: ${sentenceEnd(said)}` : 'kubectl failed without saying why.', detail };
}

/** kubectl ran past its deadline: nothing it printed says why, so the sentence says where to look. */
export function kubectlTimedOut(command: string, seconds: number): KubectlError {
  return {
    kind: 'timeout',
    sentence: `kubectl ${command} did not finish within ${seconds} s: check that the cluster answers (kubectl cluster-info) and that your network or VPN is up.`,
    detail: `did not finish within ${seconds} s`,
  };
}

interface Rule {
  readonly kind: KubectlErrorKind;
  /** The sentence, when the rule recognises the text; `undefined` otherwise. */
  readonly read: (all: string, messages: readonly string[]) => string | undefined;
}

const CHOOSE_CONTEXT = 'kubectl config use-context NAME';

const RULES: readonly Rule[] = [
  {
    kind: 'no-context',
    read: (all) => {
      // `Config not found: PATH` is client-go's warning for a KUBECONFIG naming a missing file;
      // without any kubeconfig kubectl falls back to http://localhost:8080.
      const missing = /Config not found: (\S+)/.exec(all);
      if (missing) return `kubectl's kubeconfig ${missing[1]} does not exist: point KUBECONFIG at your kubeconfig, or create one for your cluster.`;
      if (/current-context is not set|no context chosen|no configuration has been provided|to the server localhost:8080 was refused|"http:\/\/localhost:8080\//.test(all)) {
        return `kubectl has no current context (no kubeconfig, or none chosen in it): choose one with ${CHOOSE_CONTEXT}, or set KUBECONFIG.`;
      }
      return undefined;
    },
  },
  {
    kind: 'context-not-found',
    read: (all) => {
      const name = /context was not found for specified context: (\S+)/.exec(all)?.[1] ?? /context "([^"]+)" does not exist/.exec(all)?.[1] ?? /no context exists with the name: "([^"]+)"/.exec(all)?.[1];
      return name === undefined ? undefined : `kubectl's context "${name}" is not in its kubeconfig: choose another with ${CHOOSE_CONTEXT}.`;
    },
  },
  {
    kind: 'config-invalid',
    read: (_all, messages) => {
      const index = messages.findIndex((m) => /^(error: )?(Error in configuration:|invalid configuration:)/.test(m));
      if (index < 0) return undefined;
      const own = (messages[index] as string).replace(/^(error: )?(Error in configuration:|invalid configuration:)\s*/, '');
      // `Error in configuration: ` alone, then `* cause` lines (kubectl's MultilineError).
      const cause = own || (messages[index + 1] ?? '').replace(/^\*\s*/, '');
      return `kubectl's kubeconfig is invalid${cause ? ` (${clip(cause, 120)})` : ''}: fix it, or choose another context with ${CHOOSE_CONTEXT}.`;
    },
  },
  {
    kind: 'unauthorised',
    read: (all) => {
      const plugin = /getting credentials: (exec: [^\n"]*)/.exec(all);
      if (plugin) return `kubectl could not get credentials from the credential plugin its kubeconfig names (${clip(plugin[1] as string, 120)}): install that plugin, or log in with it again.`;
      const loggedIn = /You must be logged in to the server(?: \(([^\n]*)\))?/.exec(all);
      if (loggedIn || /the server has asked for the client to provide credentials|\bUnauthorized\b/.test(all)) {
        const why = loggedIn?.[1] ?? 'Unauthorized';
        return `the cluster${at(serverOf(all))} did not accept kubectl's credentials (${why}): log in again, or refresh the credentials in your kubeconfig.`;
      }
      return undefined;
    },
  },
  {
    kind: 'forbidden',
    read: (all) => {
      const denied = /User "([^"]*)" cannot (\w+) resource "([^"]+)"(?: in API group "[^"]*")?(?: in the namespace "([^"]+)")?/.exec(all);
      if (denied) {
        const [, user, verb, resource, namespace] = denied as unknown as [string, string, string, string, string | undefined];
        return `user "${user}" may not ${action(verb, resource)}${namespace ? ` in namespace "${namespace}"` : ''}: ask your cluster admin for that permission, or use a context whose user has it.`;
      }
      const forbidden = /Error from server \(Forbidden\): ([^\n]*)/.exec(all);
      return forbidden ? `the cluster refused kubectl (${clip(forbidden[1] as string, 120)}): ask your cluster admin for that permission, or use another context.` : undefined;
    },
  },
  {
    kind: 'certificate',
    read: (all) => {
      const rejected = /remote error: (tls: [^\n"]*)/.exec(all);
      if (rejected) return `the cluster${at(serverOf(all))} rejected kubectl's client certificate (${rejected[1]}): refresh the credentials in your kubeconfig.`;
      // Go ≥ 1.20 says `tls: failed to verify certificate: x509: …`; older, `x509: …` alone.
      const x509 = /(x509: [^\n"]*)/.exec(all) ?? /\b(tls: [^\n"]*)/.exec(all);
      return x509 ? `kubectl does not trust the cluster${at(serverOf(all))} (${clip(x509[1] as string, 120)}): refresh the cluster's certificate data in your kubeconfig.` : undefined;
    },
  },
  {
    kind: 'timeout',
    read: (all) => {
      const why = /i\/o timeout|TLS handshake timeout|context deadline exceeded|Client\.Timeout exceeded[^\n"]*|connection timed out/.exec(all)?.[0] ?? (/Error from server \(Timeout\)/.test(all) ? 'Timeout' : undefined);
      return why === undefined ? undefined : `the cluster${at(serverOf(all))} did not answer kubectl in time (${why}): check your network or VPN, and that the cluster is running.`;
    },
  },
  {
    // Before `unreachable`: the container runtime's `dial tcp4 127.0.0.1:8080: connect: connection
    // refused` inside the pod is the pod's port, not the API server.
    kind: 'port-refused',
    read: (all) => {
      const forwarding = /an error occurred forwarding \d+ -> (\d+)/.exec(all);
      return forwarding ? `nothing listens on port ${forwarding[1]} in the pod, and kubectl's port-forward stopped on it: it reconnects on its own.` : undefined;
    },
  },
  {
    kind: 'unreachable',
    read: (all) => {
      const server = serverOf(all);
      if (/was refused - did you specify the right host or port\?|connect: connection refused/.test(all)) return unreachable(server, 'connection refused');
      const lookup = /dial tcp: lookup ([^\s:]+)[^\n]*?: no such host/.exec(all);
      if (lookup) return unreachable(server ?? lookup[1], `no host is named ${lookup[1]}`);
      const network = /connect: (no route to host|network is unreachable|host is down)/.exec(all);
      if (network) return unreachable(server, network[1] as string);
      if (/Error from server \(ServiceUnavailable\)/.test(all)) return `the cluster's API server${at(server)} is not ready (ServiceUnavailable): wait for it to start, then try again.`;
      const other = /Unable to connect to the server: ([^\n]*)/.exec(all);
      return other ? unreachable(server, clip(other[1] as string, 120)) : undefined;
    },
  },
  {
    kind: 'namespace-not-found',
    read: (all) => {
      const namespace = /namespaces "([^"]+)" not found/.exec(all)?.[1];
      return namespace === undefined ? undefined : `namespace "${namespace}" does not exist in the cluster: create it, or correct the manifest's metadata.namespace.`;
    },
  },
  {
    kind: 'pod-not-running',
    read: (all) => {
      const phase = /unable to forward port because pod is not running\. Current status=(\w+)/.exec(all)?.[1];
      return phase === undefined ? undefined : `kubectl cannot port-forward to a pod that is ${phase}, not Running: probing resumes once the pod runs.`;
    },
  },
  {
    kind: 'not-found',
    read: (all) => {
      const missing = /Error from server \(NotFound\): (\S+) "([^"]+)" not found/.exec(all);
      if (!missing) return undefined;
      return `the cluster has no ${singular(missing[1] as string)} "${missing[2]}": apply the manifest, or check the namespace it is looked for in.`;
    },
  },
];

function unreachable(server: string | undefined, why: string): string {
  return `kubectl cannot reach the cluster${at(server)} (${why}): check that the cluster is running and that kubectl's current context is the right one.`;
}

/**
 * The API server's address as the kubeconfig gives it: `The connection to the server HOST was
 * refused`, else the host of client-go's request URL (`Get "https://HOST/api?timeout=32s"`),
 * else the address dialled.
 */
function serverOf(all: string): string | undefined {
  const refused = /The connection to the server (\S+) was refused/.exec(all)?.[1];
  if (refused) return refused;
  const url = /(?:Get|Post) \\?"(https?:\/\/[^/"\\\s]+)/.exec(all)?.[1];
  if (url) {
    try {
      return new URL(url).host;
    } catch {
      // Not a URL after all: fall through to the dialled address.
    }
  }
  return /dial tcp (\[[^\]]+\]:\d+|[^\s:[]+:\d+)/.exec(all)?.[1];
}

function at(server: string | undefined): string {
  return server ? ` at ${server}` : '';
}

/**
 * RBAC's verb and resource as a person says it, the verb kept: a WebSocket stream needs `get`,
 * kubectl's SPDY `create`, so "may not port-forward" would be untrue of a user who may do one.
 */
function action(verb: string, resource: string): string {
  if (resource === 'pods/portforward') return `${verb} pods/portforward (port-forward to pods)`;
  if (resource === 'pods/exec') return `${verb} pods/exec (run commands in pods)`;
  return `${verb} ${resource}`;
}

function singular(resource: string): string {
  return resource.endsWith('s') ? resource.slice(0, -1) : resource;
}

/** A Go-quoted string's contents (`\"` `\\` `\n` `\t` `\uXXXX`); malformed escapes are kept as written. */
function unquoteGo(quoted: string): string {
  try {
    return JSON.parse(`"${quoted}"`) as string;
  } catch {
    return quoted.replace(/\\(["\\])/g, '$1');
  }
}
