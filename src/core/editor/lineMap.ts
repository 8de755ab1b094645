import { splitLines } from '../text/lines';
import type { Position, Range } from '../text/range';

/**
 * Where the lines of a chunk's last readable text sit in its current text, which does not parse:
 * the lines before the first changed one are where they were, the lines after the last changed
 * one moved by as many lines as the change added, and a line inside the change stays inside it.
 * What lets the editor keep showing the last good model of a document while a key is half typed.
 */
export interface LineMap {
  /** The first line that differs (the same number in both texts). */
  readonly head: number;
  /** The first line of the unchanged tail, in the old text and in the new. */
  readonly oldTail: number;
  readonly newTail: number;
}

/** The lines a chunk placed in its file maps through: a plain shift, or a stale model's map too. */
export interface LinePlacement {
  /** The file line of the chunk's first line. */
  readonly lineOffset: number;
  /** Set when the model is the last readable version of a chunk whose current text does not parse. */
  readonly stale?: LineMap;
}

export function lineMapBetween(oldText: string, newText: string): LineMap {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const shorter = Math.min(oldLines.length, newLines.length);
  let head = 0;
  while (head < shorter && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (tail < shorter - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail++;
  return { head, oldTail: oldLines.length - tail, newTail: newLines.length - tail };
}

/** An old line's number in the new text. */
export function mapLine(map: LineMap, line: number): number {
  if (line < map.head) return line;
  if (line >= map.oldTail) return line + map.newTail - map.oldTail;
  // Inside the change: the same line while the new text still has it there, else its last line.
  return Math.min(line, Math.max(map.head, map.newTail - 1));
}

/** A new line's number in the old text: the inverse of `mapLine`, clamped the same way. */
export function unmapLine(map: LineMap, line: number): number {
  if (line < map.head) return line;
  if (line >= map.newTail) return line - map.newTail + map.oldTail;
  return Math.min(line, Math.max(map.head, map.oldTail - 1));
}

/** A chunk-relative range as a range of the file's current lines. */
export function placeRange(placement: LinePlacement, range: Range): Range {
  const { lineOffset, stale } = placement;
  const line = (n: number) => (stale ? mapLine(stale, n) : n) + lineOffset;
  if (lineOffset === 0 && !stale) return range;
  return { start: { line: line(range.start.line), character: range.start.character }, end: { line: line(range.end.line), character: range.end.character } };
}

/** A position of the file's current lines as a position in the chunk's model. */
export function chunkPosition(placement: LinePlacement, position: Position): Position {
  const local = position.line - placement.lineOffset;
  return { line: placement.stale ? unmapLine(placement.stale, local) : local, character: position.character };
}
