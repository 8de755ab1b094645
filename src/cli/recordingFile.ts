import { type ParsedTimeline, parseJsonLines } from '../core/timeline/jsonl';
import { type CliIo, readInput } from './io';
import { UsageError } from './usage';

/**
 * A recording (`probe-lens simulate|run --format jsonl`, or a panel's export) for a command that
 * reads one: unreadable, or without a single event, is bad input (exit 2); lines that are not
 * events are skipped, and said on stderr, as the timeline panel does.
 */
export function readRecording(file: string, io: CliIo): ParsedTimeline {
  const parsed = parseJsonLines(readInput(file, io, 'recording '));
  const name = file === '-' ? 'standard input' : file;
  if (parsed.events.length === 0) {
    const why = parsed.problems[0] ? ` (line ${parsed.problems[0].line}: ${parsed.problems[0].message})` : '';
    throw new UsageError(`${name}: not a recording: no event line${why}; write one with 'probe-lens simulate FILE --format jsonl' or 'probe-lens run FILE --format jsonl'`);
  }
  if (parsed.skipped > 0) {
    const first = parsed.problems[0];
    io.stderr(`probe-lens: note: ${name}: ${parsed.skipped} line${parsed.skipped === 1 ? '' : 's'} skipped${first ? ` (line ${first.line}: ${first.message})` : ''}\n`);
  }
  return parsed;
}
