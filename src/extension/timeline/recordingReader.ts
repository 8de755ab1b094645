import type { EngineEvent } from '../../core/engine/events';
import { type LineProblem, parseJsonLines, type RunHeader } from '../../core/timeline/jsonl';
import { TimelineStore } from '../../core/timeline/store';

/**
 * Larger recordings are refused. Memory is bounded by the store whatever the size (a file is
 * streamed), so this bounds the wait: about a minute at the measured read rate (README).
 */
export const MAX_RECORDING_BYTES = 4 * 1024 ** 3;
/** A file system that is not the disk hands over the whole file at once: that must fit in memory. */
export const MAX_BUFFERED_RECORDING_BYTES = 1024 ** 3;
/** A line longer than this is no event line (the longest, an attempt with a 10 KiB output excerpt, is ~11 KB). */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;
/** Problems said, in all (`parseJsonLines` says at most as many per call). */
const MAX_PROBLEMS = 20;

/** What a recording holds once read: its events as bounded as a session's, and the lines that were not events. */
export interface Recording {
  readonly header: RunHeader | undefined;
  readonly store: TimelineStore;
  readonly problems: readonly LineProblem[];
  readonly skipped: number;
  /** The latest `t` of its events (0 if none): where its timeline ends. */
  readonly end: number;
}

/**
 * Reads a JSON Lines recording as it streams in, chunk by chunk (bytes of any size, cut
 * anywhere, even inside a UTF-8 character): never the whole file as one string. Each run of
 * whole lines goes through `parseJsonLines`; its events go into a `TimelineStore` of the given
 * capacity, so memory stays bounded by the cap and the largest line. Line numbers in problems are
 * the file's. Pure: no editor API, no I/O.
 */
export class RecordingReader {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly store: TimelineStore;
  private header: RunHeader | undefined;
  private readonly problems: LineProblem[] = [];
  private skipped = 0;
  private events = 0;
  private end = 0;
  /** Lines read so far (the next line is `lines + 1`). */
  private lines = 0;
  /** The last, unfinished line. */
  private pending = '';
  /** Inside a line already reported too long: its rest is skipped up to the next newline. */
  private skippingLongLine = false;

  constructor(capacity: number) {
    this.store = new TimelineStore(capacity);
  }

  feed(bytes: Uint8Array): void {
    this.text(this.decoder.decode(bytes, { stream: true }));
  }

  finish(): Recording {
    this.text(this.decoder.decode());
    if (this.skippingLongLine) this.skippingLongLine = false;
    else if (this.pending !== '') this.parse(this.pending);
    this.pending = '';
    return { header: this.header, store: this.store, problems: this.problems, skipped: this.skipped, end: this.end };
  }

  private text(chunk: string): void {
    if (chunk === '') return;
    const lastNewline = chunk.lastIndexOf('\n');
    if (lastNewline < 0) {
      this.append(chunk);
      return;
    }
    const firstNewline = chunk.indexOf('\n');
    // Finish the pending line with the chunk's first line, then parse the chunk's whole lines in one go.
    this.append(chunk.slice(0, firstNewline));
    if (this.skippingLongLine) {
      this.skippingLongLine = false;
      this.lines++;
    } else this.parse(`${this.pending}\n`);
    this.pending = '';
    if (lastNewline > firstNewline) this.parse(chunk.slice(firstNewline + 1, lastNewline + 1));
    this.append(chunk.slice(lastNewline + 1));
  }

  private append(part: string): void {
    if (this.skippingLongLine) return;
    this.pending += part;
    if (this.pending.length <= MAX_LINE_CHARS) return;
    this.pending = '';
    this.skippingLongLine = true;
    this.problem({ line: this.lines + 1, message: `longer than ${MAX_LINE_CHARS / 1024 / 1024} MiB: not an event line` });
  }

  /** `text`: whole lines (the last one without its newline only at the end of the file). */
  private parse(text: string): void {
    const parsed = parseJsonLines(text);
    const first = this.lines;
    this.lines += countLines(text);
    if (parsed.header) {
      // parseJsonLines takes a run line before any event of *this* text as the header; only the file's first one is.
      if (this.header === undefined && this.events === 0) this.header = parsed.header;
      else this.problem({ line: first + runLineIndex(text), message: 'a second run header (one recording per file)' });
    }
    for (const problem of parsed.problems) if (this.problems.length < MAX_PROBLEMS) this.problems.push({ line: first + problem.line, message: problem.message });
    this.skipped += parsed.skipped;
    const events: EngineEvent[] = parsed.events;
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as EngineEvent;
      this.store.push(event);
      if (event.t > this.end) this.end = event.t;
    }
    this.events += events.length;
  }

  private problem(problem: LineProblem): void {
    this.skipped++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(problem);
  }
}

/** Reads a whole text (a recording that came as one string). */
export function readRecordingText(text: string, capacity: number): Recording {
  const reader = new RecordingReader(capacity);
  reader.feed(new TextEncoder().encode(text));
  return reader.finish();
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return text.length === 0 || text.endsWith('\n') ? count : count + 1;
}

/** 1-based line of the first `run` line of `text` (it comes before any event of it). */
function runLineIndex(text: string): number {
  let line = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    try {
      const value = JSON.parse(text.slice(start, end)) as { type?: unknown } | null;
      if (value !== null && typeof value === 'object' && value.type === 'run') return line;
    } catch {
      // not this line
    }
    start = end + 1;
  }
  return 1;
}
