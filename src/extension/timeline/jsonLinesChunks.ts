import type { EngineEvent } from '../../core/engine/events';
import type { RunHeader } from '../../core/timeline/jsonl';

/** About this many characters a piece: large enough for few writes, small enough to never make one huge string. */
const CHUNK_CHARS = 1 << 20;

/**
 * `toJsonLines(header, events)` in pieces of about `CHUNK_CHARS`: joined, they are exactly its
 * text. A store at its cap is a few hundred MB of JSON; one string of it would be a spike of as
 * much memory, near V8's limit on string length. Pure.
 */
export function* jsonLinesChunks(header: RunHeader, events: Iterable<EngineEvent>, chunkChars = CHUNK_CHARS): Generator<string> {
  let lines: string[] = [JSON.stringify(header)];
  let size = (lines[0] as string).length;
  for (const event of events) {
    const line = JSON.stringify(event);
    lines.push(line);
    size += line.length + 1;
    if (size >= chunkChars) {
      yield `${lines.join('\n')}\n`;
      lines = [];
      size = 0;
    }
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}
