import type { EngineEvent } from '../core/engine/events';
import { type LineProblem, parseJsonLines, type RunHeader } from '../core/timeline/jsonl';
import { type CliIo, readInput } from './io';
import { UsageError } from './usage';

/** A recording read for a command that cites it: its lines, and where in the file each event is. */
export interface RecordingInput {
  readonly header: RunHeader | undefined;
  readonly events: readonly EngineEvent[];
  /** The 1-based line of the file each event is on (`lines[i]` for `events[i]`). */
  readonly lines: readonly number[];
  /** Lines that are not events (a newer writer's types, hand edits): how many, and the first few. */
  readonly skipped: number;
  readonly problems: readonly LineProblem[];
}

const MAX_PROBLEMS = 5;

/**
 * A `.jsonl` recording (`simulate`/`run --format jsonl`, or the panel's export), read as
 * `parseJsonLines` reads it, one line at a time so each event keeps its line number. A file
 * with no event and no header is not a recording: bad input (exit 2).
 */
export function readRecording(file: string, io: CliIo): RecordingInput {
  const text = readInput(file, io, 'recording ');
  let header: RunHeader | undefined;
  const events: EngineEvent[] = [];
  const lines: number[] = [];
  const problems: LineProblem[] = [];
  let skipped = 0;
  let lineNumber = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    lineNumber++;
    if (line.trim() === '') continue;
    const parsed = parseJsonLines(line);
    const event = parsed.events[0];
    if (event) {
      events.push(event);
      lines.push(lineNumber);
    } else if (parsed.header && header === undefined && events.length === 0) header = parsed.header;
    else {
      skipped++;
      const message = parsed.header ? 'a second run header (one recording per file)' : (parsed.problems[0]?.message ?? 'not an event');
      if (problems.length < MAX_PROBLEMS) problems.push({ line: lineNumber, message });
    }
  }
  const name = file === '-' ? 'standard input' : file;
  if (!header && events.length === 0) throw new UsageError(`${name} is not a Probe Lens recording: ${problems[0] ? `line ${problems[0].line}: ${problems[0].message}` : 'it is empty'} (write one with 'probe-lens simulate FILE --format jsonl')`);
  if (events.length === 0) throw new UsageError(`${name} is a recording without a single event`);
  return { header, events, lines, skipped, problems };
}
