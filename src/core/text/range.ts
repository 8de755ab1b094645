/** Zero-based line and UTF-16 character, as in the Language Server Protocol and VS Code. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export function compareRanges(a: Range, b: Range): number {
  return a.start.line - b.start.line || a.start.character - b.start.character;
}

/** Whether a position lies within a range, both ends included. */
export function containsPosition(range: Range, position: Position): boolean {
  const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(range.start, position) && before(position, range.end);
}
