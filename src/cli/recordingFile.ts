import type { EngineEvent } from '../core/engine/events';
import { parseJsonLines, type RunHeader } from '../core/timeline/jsonl';
import { type CliIo, readInput } from './io';
import { UsageError } from './usage';

/** A recording as the commands that read one (explain, recommend, scenario, replay) take it. */
export interface Recording {
  /** The file as messages name it (`standard input` for `-`). */
  readonly name: string;
  readonly header: RunHeader | undefined;
  readonly events: readonly EngineEvent[];
  /** The 1-based line of the file each event is on (`lines[i]` for `events[i]`): what `explain` cites. */
  readonly lines: readonly number[];
}

/** `explain RECORDING.jsonl`, `scenario …`, `replay …`: the one recording a command takes. */
export function recordingArgument(command: string, positionals: readonly string[]): string {
  if (positionals.length !== 1) throw new UsageError(`${command} needs exactly one RECORDING.jsonl`);
  return positionals[0] as string;
}

/**
 * A recording (`probe-lens simulate|run --format jsonl`, or a panel's export) for a command that
 * reads one. Unreadable, not a recording, or without a single event is bad input (exit 2); lines
 * that are not events are skipped, and said on stderr, as the timeline panel does.
 */
export function readRecording(file: string, io: CliIo): Recording {
  const parsed = parseJsonLines(readInput(file, io, 'recording '), { lineNumbers: true });
  const name = file === '-' ? 'standard input' : file;
  const first = parsed.problems[0];
  const firstProblem = first ? `line ${first.line}: ${first.message}` : undefined;
  if (parsed.events.length === 0 && !parsed.header) {
    throw new UsageError(`${name} is not a Probe Lens recording: ${firstProblem ?? 'it is empty'} (write one with 'probe-lens simulate|run FILE --format jsonl')`);
  }
  if (parsed.events.length === 0) throw new UsageError(`${name} is a recording without a single event${firstProblem ? ` (${firstProblem})` : ''}`);
  if (parsed.skipped > 0) {
    const lines = parsed.skipped === 1 ? '1 line that is not an event' : `${parsed.skipped} lines that are not events`;
    io.stderr(`probe-lens: note: ${name}: skipped ${lines}${firstProblem ? ` (${firstProblem})` : ''}\n`);
  }
  return { name, header: parsed.header, events: parsed.events, lines: parsed.lines };
}
