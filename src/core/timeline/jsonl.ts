import type { EngineEvent } from '../engine/events';

/** The `schemaVersion` of the first line; bumped only when a reader relying on the old one would break. */
export const TIMELINE_SCHEMA_VERSION = 1;

/** The first line of a recording: what ran, and when (docs/design.md §3). */
export interface RunHeader {
  readonly type: 'run';
  readonly schemaVersion: number;
  readonly t: 0;
  /** `simulate`, `run` (CLI) or `session` (exported from the panel). */
  readonly mode?: string;
  /** The manifest, as the writer named it. */
  readonly file?: string;
  /** Wall-clock time of t = 0 (ISO 8601) for real-time runs; absent for simulations. */
  readonly startedAt?: string;
  readonly [field: string]: unknown;
}

export function runHeader(fields: Record<string, unknown>): RunHeader {
  return { type: 'run', schemaVersion: TIMELINE_SCHEMA_VERSION, t: 0, ...fields } as RunHeader;
}

/** One line per event, the header first; what `--format jsonl` writes and *Export…* saves. */
export function toJsonLines(header: RunHeader, events: Iterable<EngineEvent>): string {
  const lines = [JSON.stringify(header)];
  for (const event of events) lines.push(JSON.stringify(event));
  return `${lines.join('\n')}\n`;
}

export interface LineProblem {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

export interface ParsedTimeline {
  readonly header: RunHeader | undefined;
  readonly events: EngineEvent[];
  /** With `lineNumbers`: the 1-based line of the text each event is on (`lines[i]` for `events[i]`). */
  readonly lines?: number[];
  /** The first `MAX_PROBLEMS` lines that were not events, with why. */
  readonly problems: readonly LineProblem[];
  /** Lines skipped in all: malformed, or of a type this version does not know (a newer writer's). */
  readonly skipped: number;
}

const MAX_PROBLEMS = 20;
const PROBE_TYPES = new Set(['startup', 'readiness', 'liveness']);
const OUTCOMES = new Set(['success', 'warning', 'failure', 'unknown']);
const RESULTS = new Set(['Success', 'Failure', 'Unknown']);
const STATES = new Set(['waiting', 'running', 'terminated']);

type Check = (value: Record<string, unknown>) => string | undefined;

const isString = (v: unknown) => typeof v === 'string';
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isBoolean = (v: unknown) => typeof v === 'boolean';

function fields(spec: Record<string, (v: unknown) => boolean>): Check {
  // Listed once, not per line: a recording can have millions of lines.
  const entries = Object.entries(spec);
  return (value) => {
    for (const [name, valid] of entries) if (!valid(value[name])) return `field ${name} is ${value[name] === undefined ? 'missing' : `not valid (${JSON.stringify(value[name])?.slice(0, 40)})`}`;
    return undefined;
  };
}

const inSet = (set: Set<string>) => (v: unknown) => typeof v === 'string' && set.has(v);
const optional = (valid: (v: unknown) => boolean) => (v: unknown) => v === undefined || valid(v);

/** What each line type must hold to be drawn; other fields pass through untouched (a round trip loses nothing). */
const CHECKS: Readonly<Record<EngineEvent['type'], Check>> = {
  attempt: fields({ t: isNumber, pod: isString, container: isString, probe: inSet(PROBE_TYPES), containerId: isString, outcome: inSet(OUTCOMES), output: isString, error: optional(isString), durationMs: isNumber, paused: optional((v) => v === true) }),
  result: fields({ t: isNumber, pod: isString, container: isString, probe: inSet(PROBE_TYPES), containerId: isString, value: inSet(RESULTS) }),
  event: fields({ t: isNumber, pod: isString, container: optional(isString), reason: isString, message: isString, probe: optional(inSet(PROBE_TYPES)) }),
  container: fields({ t: isNumber, pod: isString, container: isString, containerId: isString, state: inSet(STATES), restartCount: isNumber, reason: optional(isString) }),
  status: fields({ t: isNumber, pod: isString, container: isString, started: isBoolean, ready: isBoolean }),
  pod: fields({ t: isNumber, pod: isString, ready: isBoolean }),
  tunnel: fields({ t: isNumber, pod: isString, state: inSet(new Set(['up', 'down'])), local: isString, remote: isString }),
  worker: fields({ t: isNumber, pod: isString, container: isString, probe: inSet(PROBE_TYPES), handler: isString, periodSeconds: isNumber, failureThreshold: isNumber, successThreshold: isNumber }),
  kubelet: fields({ t: isNumber, pod: isString, container: optional(isString), started: optional(isBoolean), ready: isBoolean, restartCount: optional(isNumber) }),
  prediction: fields({ t: isNumber, pod: isString, container: isString, probe: inSet(new Set(['liveness', 'startup'])), containerId: isString, state: inSet(new Set(['pending', 'confirmed', 'missed'])), message: isString }),
  clusterEvent: fields({ t: isNumber, pod: isString, container: optional(isString), reason: isString, message: isString, eventType: inSet(new Set(['Normal', 'Warning'])), count: isNumber }),
  disagreement: fields({ t: isNumber, pod: isString, container: isString, state: inSet(new Set(['open', 'resolved'])), ours: isBoolean, kubelet: isBoolean, cause: isString, message: isString }),
  pause: fields({ t: isNumber, pod: isString, state: inSet(new Set(['paused', 'continued'])), debugSession: isString }),
  target: fields({ t: isNumber, pod: isString, manifestPod: isString, clusterPod: isString, namespace: isString, podIP: optional(isString) }),
};

export interface ParseOptions {
  /** Keep each event's line number, for a reader that cites the file (`probe-lens explain`). */
  readonly lineNumbers?: boolean;
}

/**
 * Reads a recording: `probe-lens simulate|run --format jsonl`, or an export from the panel. Never
 * throws: a line that is not an event is skipped and said (up to `MAX_PROBLEMS`), so a truncated
 * or hand-edited file still shows what it holds. Line types from a newer writer are skipped.
 */
export function parseJsonLines(text: string, options: ParseOptions & { readonly lineNumbers: true }): ParsedTimeline & { readonly lines: number[] };
export function parseJsonLines(text: string, options?: ParseOptions): ParsedTimeline;
export function parseJsonLines(text: string, options: ParseOptions = {}): ParsedTimeline {
  let header: RunHeader | undefined;
  const events: EngineEvent[] = [];
  const eventLines: number[] | undefined = options.lineNumbers ? [] : undefined;
  const problems: LineProblem[] = [];
  let skipped = 0;
  const skip = (line: number, message: string) => {
    skipped++;
    if (problems.length < MAX_PROBLEMS) problems.push({ line, message });
  };
  let lineNumber = 0;
  for (const line of lines(text)) {
    lineNumber++;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      skip(lineNumber, `not JSON: ${(error as Error).message}`);
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      skip(lineNumber, 'not a JSON object');
      continue;
    }
    const record = value as Record<string, unknown>;
    if (record['type'] === 'run') {
      if (header === undefined && events.length === 0) header = record as unknown as RunHeader;
      else skip(lineNumber, 'a second run header (one recording per file)');
      continue;
    }
    const check = typeof record['type'] === 'string' ? CHECKS[record['type'] as EngineEvent['type']] : undefined;
    if (!check) {
      skip(lineNumber, `unknown line type ${JSON.stringify(record['type'])}`);
      continue;
    }
    const problem = check(record);
    if (problem) skip(lineNumber, `${record['type']}: ${problem}`);
    else {
      events.push(record as unknown as EngineEvent);
      eventLines?.push(lineNumber);
    }
  }
  return eventLines ? { header, events, lines: eventLines, problems, skipped } : { header, events, problems, skipped };
}

/** Lines without copying the text into an array of them first (a recording can be hundreds of MB). */
function* lines(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    yield text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    start = end + 1;
  }
}
