import type { Finding } from './types';

/**
 * One problem as a person meets it in the editor or the CLI's text: a first line in plain words
 * that makes sense alone (Error Lens shows only that), naming the container; the API server's
 * exact text and full field path beside it. A finding that only explains another (L04 says why
 * P06 rejects a quoted port) is folded into it: one problem, one message.
 */
export interface Problem {
  /** The finding whose rule, severity and range the problem carries (the API error, if any). */
  readonly primary: Finding;
  /** Findings folded into it: those explaining the primary one. */
  readonly folded: readonly Finding[];
  readonly headline: string;
  /** The API server's exact words for it, with the full field path (none for Probe Lens's own rules). */
  readonly apiText?: { readonly message: string; readonly path: string };
}

/** The API server's words as shown beside the headline, with the full field path when its text lacks it (decoding errors). */
export function apiLine(apiText: NonNullable<Problem['apiText']>): string {
  const { message, path } = apiText;
  return message.includes(path) ? `API server: ${message}` : `API server: ${message} (at ${path})`;
}

/** Which rules only explain another rule's finding at the same place. */
const EXPLAINS: Readonly<Record<string, readonly string[]>> = {
  L04: ['P06'],
  L05: ['D02'],
  L24: ['P14'],
};

/** The problems of a list of findings, in their order; folded explanations leave no problem of their own. */
export function presentFindings(findings: readonly Finding[]): Problem[] {
  const explainedBy = new Map<Finding, Finding[]>();
  const folded = new Set<Finding>();
  for (const explainer of findings) {
    const explains = EXPLAINS[explainer.rule];
    const primary = explains && findings.find((f) => explains.includes(f.rule) && f.doc === explainer.doc && f.file === explainer.file && sameStart(f, explainer));
    if (!primary) continue;
    explainedBy.set(primary, [...(explainedBy.get(primary) ?? []), explainer]);
    folded.add(explainer);
  }
  return findings.filter((f) => !folded.has(f)).map((f) => problemOf(f, explainedBy.get(f) ?? []));
}

function problemOf(primary: Finding, folded: readonly Finding[]): Problem {
  const { container } = primary;
  const words = primary.kind ? apiHeadline(primary, folded) : primary.message;
  const headline = container === undefined || startsWithContainer(words, container) ? words : `container "${container}": ${words}`;
  return { primary, folded, headline, ...(primary.kind ? { apiText: { message: primary.message, path: primary.path } } : {}) };
}

/** The words already begin by naming the container (`init container "migrate" runs…`). */
function startsWithContainer(words: string, container: string): boolean {
  return /^(?:init |sidecar )?container "/.test(words) && words.includes(`container "${container}"`);
}

function sameStart(a: Finding, b: Finding): boolean {
  return a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character;
}

/** The probe (`liveness`) and the field inside it (`httpGet.port`) a path names, if any. */
function probeFieldOf(path: string): { readonly probe?: string; readonly field: string } {
  const match = /(liveness|readiness|startup)Probe(?:\.(.+))?$/.exec(path);
  if (match) return { probe: match[1], field: match[2] ?? '' };
  const container = /(?:containers|initContainers|ephemeralContainers)\[\d+\]\.(.+)$/.exec(path);
  return { field: container?.[1] ?? path.split('.').pop() ?? path };
}

/** "the readiness probe's httpGet.port", "the liveness probe", "ports[0].name". */
function fieldWords(path: string): string {
  const { probe, field } = probeFieldOf(path);
  if (!probe) return field;
  return field ? `the ${probe} probe's ${field}` : `the ${probe} probe`;
}

/** What follows `Invalid value: ` in the API's text: the value as the API server printed it. */
function invalidValue(finding: Finding): string {
  const body = finding.message.slice(finding.path.length + 2);
  const match = /^(?:Invalid value|Unsupported value): ("(?:[^"\\]|\\.)*"|[^:]*)/.exec(body);
  return match?.[1] ?? '';
}

/** The API server's detail after the value (`must be 1`). */
function detailOf(finding: Finding): string {
  const body = finding.message.slice(finding.path.length + 2);
  const value = invalidValue(finding);
  const at = value ? body.indexOf(value) + value.length : body.indexOf(': ');
  return body.slice(at).replace(/^: /, '').replace(/^(?:Required value|Forbidden)(?::\s*)?/, '');
}

/** A Go type from a decoding error, as the value a user should write. */
function goTypeWords(type: string): string {
  if (/^u?int|^float/.test(type)) return 'a number';
  if (type === 'string') return 'a string';
  if (type === 'bool') return 'true or false';
  if (type.startsWith('[]')) return 'a list';
  return 'a mapping';
}

const REJECTED = 'the API server rejects it';

/** Plain words for an API server error, one rule each; the exact text goes beside it (`apiText`). */
function apiHeadline(finding: Finding, folded: readonly Finding[]): string {
  const where = fieldWords(finding.path);
  const { probe, field } = probeFieldOf(finding.path);
  const value = invalidValue(finding);
  const explainer = folded[0];
  switch (finding.rule) {
    case 'D01': {
      // The remark after the field (`(did you mean "failureThreshold"?)`, the version that added it) is kept as written.
      const unknown = /unknown field "([^"]+)"(.*)$/.exec(finding.message);
      const name = unknown?.[1]?.split('.').pop() ?? field;
      const inside = probe ? ` in the ${probe} probe` : '';
      return `unknown field "${name}"${inside}${unknown?.[2] ?? ''}: ${REJECTED}`;
    }
    case 'D02': {
      if (explainer) {
        const advice = /: (use .+)$/.exec(explainer.message)?.[1] ?? /, and container "[^"]*" (.+)$/.exec(explainer.message)?.[1]?.replace(/^/, 'the container ');
        return `${where} is a name, but a gRPC probe takes a port number only: ${REJECTED}${advice ? `; ${advice}` : ''}`;
      }
      const types = /cannot unmarshal (\w+) into .* of type (\S+)/.exec(finding.message);
      return types ? `${where} must be ${goTypeWords(types[2]!)}, not ${types[1] === 'number' ? 'a number' : `a${/^[aeiou]/.test(types[1]!) ? 'n' : ''} ${types[1]}`}: ${REJECTED}` : `${where} has the wrong type: ${REJECTED}`;
    }
    case 'P01':
      return `the ${probe} probe has no handler: give it one of exec, httpGet, tcpSocket or grpc`;
    case 'P02':
      return `the ${probe} probe has more than one handler: ${REJECTED}; keep only one (${field} is extra)`;
    case 'P03':
      return `the ${probe} probe's exec command is empty: ${REJECTED}`;
    case 'P04':
      return `the ${probe} probe's httpGet.path is empty: ${REJECTED}`;
    case 'P05':
      return `${where} ${value} is out of range: a port must be between 1 and 65535`;
    case 'P06':
      return explainer
        ? `${probe} port ${value} is a string, so the API server reads it as a port name and rejects it: write ${JSON.parse(value)} without quotes`
        : `${where} ${value} is not a valid port name (${detailOf(finding)}): ${REJECTED}`;
    case 'P07':
      return `${where} ${value} is not supported: write HTTP or HTTPS, in capitals`;
    case 'P08':
      return `HTTP header name ${value} in the ${probe} probe has characters a header name cannot have (letters, digits and "-" only): ${REJECTED}`;
    case 'P09':
      return `${where} is ${value}: it must not be negative (0 means the default)`;
    case 'P10':
      return `${where} is ${value}: it must be greater than 0`;
    case 'P11':
      return `a readiness probe cannot set terminationGracePeriodSeconds: ${REJECTED}`;
    case 'P12':
    case 'P13':
      return `${where} is ${value}, but ${probe} needs 1: ${REJECTED}`;
    case 'P14':
      return `probes are not allowed on a plain init container: ${REJECTED}; it runs to completion before the app starts, so to keep it running beside the app make it a sidecar (restartPolicy: Always)`;
    case 'P16':
      return `probes are not allowed on ephemeral containers: ${REJECTED}`;
    case 'P17':
      return `ephemeral containers cannot be written in a Pod's manifest or a pod template: ${REJECTED}`;
    default:
      return `${where}: ${detailOf(finding)}; ${REJECTED}`;
  }
}
