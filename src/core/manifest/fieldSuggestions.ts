import type { Schema } from './schema';

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const PROBE_TIMING = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold', 'terminationGracePeriodSeconds'];

/** Fields people put one level off inside a probe, and where they belong. */
const MISPLACED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Probe: {
    sleep: 'probes have no sleep handler: `sleep` exists only in lifecycle hooks (postStart, preStop)',
    port: 'the port belongs inside the handler (httpGet.port, tcpSocket.port or grpc.port)',
    path: 'the path belongs inside httpGet (httpGet.path)',
    command: 'the command belongs inside exec (exec.command)',
    host: 'the host belongs inside the handler (httpGet.host or tcpSocket.host)',
    httpHeaders: 'headers belong inside httpGet (httpGet.httpHeaders)',
    scheme: 'the scheme belongs inside httpGet (httpGet.scheme)',
    tcp: 'the TCP handler is called tcpSocket',
    http: 'the HTTP handler is called httpGet',
    httpGetAction: 'the HTTP handler is called httpGet',
  },
  TCPSocketAction: {
    path: 'tcpSocket only opens a connection; for an HTTP check use httpGet',
    httpHeaders: 'tcpSocket sends nothing; for an HTTP check use httpGet',
  },
  GRPCAction: {
    host: 'gRPC probes always go to the pod IP: there is no host field',
    path: 'gRPC probes call grpc.health.v1.Health/Check; select a service with `service`',
  },
  ExecAction: {
    args: 'exec has only `command`: put the arguments in the same list',
  },
};

export interface FieldSuggestion {
  /** Appended to the decode error: ` (did you mean "failureThreshold"?)`, or "". */
  readonly hint: string;
  /** The field the key most likely meant, when a rename fixes it. */
  readonly suggestion?: string;
}

export function suggestField(key: string, schema: Extract<Schema, { type: 'object' }>): FieldSuggestion {
  const misplaced = Object.hasOwn(MISPLACED, schema.goName) ? MISPLACED[schema.goName]?.[key] : undefined;
  if (misplaced) return { hint: `: ${misplaced}` };
  const known = Object.keys(schema.fields);
  const sameLetters = known.find((name) => name.toLowerCase() === key.toLowerCase());
  if (sameLetters) return { hint: ` (did you mean "${sameLetters}"? field names are case-sensitive)`, suggestion: sameLetters };
  const close = closest(key, known);
  if (close) return { hint: ` (did you mean "${close}"?)`, suggestion: close };
  if (HANDLERS.includes(key) || PROBE_TIMING.includes(key)) return { hint: ': it belongs to the probe itself, one level up' };
  return { hint: '' };
}

function closest(key: string, candidates: readonly string[]): string | undefined {
  const budget = key.length <= 4 ? 1 : key.length <= 10 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = budget + 1;
  for (const candidate of candidates) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), stopping at `cap`. */
export function editDistance(a: string, b: string, cap = Infinity): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let twoBack = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (twoBack[j - 2] as number) + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    twoBack = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
