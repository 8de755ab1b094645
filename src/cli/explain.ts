import { parseArgs } from 'node:util';
import { type Explanation, type ExplainedState, explainContainer } from '../core/explain/explain';
import { buildHistory, type RecordingHistory, recordingLength } from '../core/history/history';
import { roundSeconds } from '../core/text/durations';
import { type TimeFormat, timeFormatFor } from '../core/history/timeFormat';
import { closestNameHint } from '../core/text/closestName';
import type { CliIo } from './io';
import { type Recording, readRecording, recordingArgument } from './recordingFile';
import { parseDuration, UsageError } from './usage';

/** The `--format json` schema; bumped only when a reader relying on the old one would break. */
const EXPLAIN_SCHEMA_VERSION = 1;

/**
 * `probe-lens explain RECORDING.jsonl [--at T] [--pod P] [--container C] [--format text|json]`:
 * why each container is in its state at T (the end of the recording by default), with the cause
 * chain and the lines of the file it was read from.
 */
export async function runExplain(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      at: { type: 'string' },
      pod: { type: 'string' },
      container: { type: 'string' },
      format: { type: 'string', default: 'text' },
    },
  });
  const file = recordingArgument('explain', positionals);
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format must be text or json, not "${values.format}"`);
  const recording = readRecording(file, io);
  const whole = buildHistory(recording.header, recording.events);
  const time = timeFormatFor(whole.startedAtMs);
  const end = recordingLength(recording.header, whole);
  const at = values.at === undefined ? end : momentOf(values.at, whole.startedAtMs, end, time);
  const history = at >= whole.end ? whole : buildHistory(recording.header, recording.events, { until: at });
  const chosen = containersOf(history, values.pod, values.container, recording.name);
  const explanations = chosen.flatMap(({ pod, container }) => explainContainer(history, pod, container, at, time) ?? []);
  if (values.format === 'json') io.stdout(`${JSON.stringify(jsonOutput(explanations, at, recording))}\n`);
  else io.stdout(textOutput(explanations, at, end, time, recording, io.color));
  return 0;
}

/**
 * `--at`: seconds (`90`), a duration (`90s`, `10m`), the virtual time explanations print
 * (`t+00:03:40`); for a recording on the wall clock also a time of day (`12:03:40`, in the local
 * time zone, the first such moment since it began) or an ISO time. Within the recording.
 */
export function momentOf(text: string, startedAtMs: number | undefined, end: number, time: TimeFormat): number {
  const t = secondsOf(text.trim(), startedAtMs);
  if (t < 0) throw new UsageError(`--at ${text} is before the recording began${startedAtMs === undefined ? '' : ` (${time.at(0)})`}`);
  if (t > end) throw new UsageError(`--at ${text} is after the recording's end (${time.at(end)}, t=${roundSeconds(end)} s)`);
  return t;
}

function secondsOf(text: string, startedAtMs: number | undefined): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const virtual = /^t\+(\d+):([0-5]\d):([0-5]\d)$/.exec(text);
  if (virtual) return Number(virtual[1]) * 3600 + Number(virtual[2]) * 60 + Number(virtual[3]);
  const clock = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(text);
  if (clock || /^\d{4}-\d\d-\d\dT/.test(text)) {
    if (startedAtMs === undefined) throw new UsageError(`--at ${text}: this recording has no wall-clock start (a simulation): give seconds since it began (90, 90s, 10m, t+00:01:30)`);
    if (!clock) {
      const ms = Date.parse(text);
      if (!Number.isFinite(ms)) throw new UsageError(`--at ${text} is not a time`);
      return (ms - startedAtMs) / 1000;
    }
    return (timeOfDayAfter(startedAtMs, Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)) - startedAtMs) / 1000;
  }
  if (/^\d+(\.\d+)?(ms|s|m|h)$/.test(text)) return parseDuration(text, '--at');
  throw new UsageError(`--at ${text} is not a moment: give seconds (90), a duration (90s, 10m), t+00:01:30, or for a recording on the wall clock 12:03:40 or an ISO time`);
}

/** The first moment at or after `fromMs` whose local time of day is h:m:s (a recording may run past midnight). */
function timeOfDayAfter(fromMs: number, h: number, m: number, s: number): number {
  const from = new Date(fromMs);
  const day = new Date(from.getFullYear(), from.getMonth(), from.getDate(), h, m, s).getTime();
  return day >= Math.floor(fromMs / 1000) * 1000 ? day : new Date(from.getFullYear(), from.getMonth(), from.getDate() + 1, h, m, s).getTime();
}

/** The containers asked for: all, a pod's, or one; a name the recording lacks is bad input, with a "did you mean". */
function containersOf(history: RecordingHistory, pod: string | undefined, container: string | undefined, file: string): { pod: string; container: string }[] {
  const pods = [...history.pods.values()];
  if (pod !== undefined && !history.pods.has(pod)) throw new UsageError(`no pod "${pod}" in ${file}; ${closestNameHint(pod, pods.map((p) => p.name))}`);
  const chosen = pods.filter((p) => pod === undefined || p.name === pod).flatMap((p) => [...p.containers.keys()].map((name) => ({ pod: p.name, container: name })));
  if (container === undefined) return chosen;
  const named = chosen.filter((c) => c.container === container);
  if (named.length === 0) {
    const where = pod === undefined ? file : `pod ${pod}`;
    throw new UsageError(`no container "${container}" in ${where}; ${closestNameHint(container, [...new Set(chosen.map((c) => c.container))])}`);
  }
  return named;
}

const STATE_WORDS: Readonly<Record<ExplainedState, string>> = {
  ready: 'Ready',
  'not-ready': 'Not Ready',
  'not-started': 'Not started',
  'back-off': 'CrashLoopBackOff',
  restarting: 'Restarting',
  stopping: 'Stopping',
  terminated: 'Terminated',
  completed: 'Completed',
  initializing: 'Waiting for init containers',
  waiting: 'Waiting',
  'not-created': 'Not created',
};

/** One paragraph per container: heading, sentence, then each cause with the lines it cites. */
function textOutput(explanations: readonly Explanation[], at: number, end: number, time: TimeFormat, recording: Recording, color: boolean): string {
  const bold = (text: string) => (color ? `\x1b[1m${text}\x1b[0m` : text);
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[0m` : text);
  const when = `${time.at(at)}${at >= end ? ', the end of the recording' : ''}`;
  const out = [`At ${when}: ${explanations.length} container${explanations.length === 1 ? '' : 's'}.`, ''];
  for (const explanation of explanations) {
    out.push(bold(`${explanation.pod}/${explanation.container} — ${STATE_WORDS[explanation.state]}`));
    out.push(`  ${explanation.sentence}`);
    for (const cause of explanation.causes) {
      out.push(`  · ${cause.reason}: ${cause.text}`);
      for (const e of cause.evidence) out.push(dim(`      line ${recording.lines[e.index]} ${time.at(e.t)} ${e.type} ${e.summary}`));
    }
    out.push('');
  }
  return out.join('\n');
}

function jsonOutput(explanations: readonly Explanation[], at: number, recording: Recording): unknown {
  return {
    schemaVersion: EXPLAIN_SCHEMA_VERSION,
    at,
    containers: explanations.map((e) => ({
      pod: e.pod,
      container: e.container,
      state: e.state,
      sentence: e.sentence,
      causes: e.causes.map((c) => ({ reason: c.reason, text: c.text, evidence: c.evidence.map((v) => ({ line: recording.lines[v.index], t: v.t, type: v.type, summary: v.summary })) })),
    })),
  };
}
