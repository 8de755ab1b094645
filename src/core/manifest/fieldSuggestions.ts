import { closestName } from '../text/closestName';
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
  const close = closestName(key, known);
  if (close) return { hint: ` (did you mean "${close}"?)`, suggestion: close };
  if (HANDLERS.includes(key) || PROBE_TIMING.includes(key)) return { hint: ': it belongs to the probe itself, one level up' };
  return { hint: '' };
}
