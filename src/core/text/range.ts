/** Zero-based line and UTF-16 character, as in the Language Server Protocol and VS Code. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/** By where they start. */
export function compareRanges(a: Range, b: Range): number {
  return comparePositions(a.start, b.start);
}

/** Whether a position lies within a range, both ends included. */
export function containsPosition(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}

/** The same range `lines` further down (a document's ranges placed in its file). */
export function shiftRange(range: Range, lines: number): Range {
  if (lines === 0) return range;
  return { start: { line: range.start.line + lines, character: range.start.character }, end: { line: range.end.line + lines, character: range.end.character } };
}
