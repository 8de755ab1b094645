import { lineSpans, type LineSpan } from './lines';
import { compareRanges, type Position, type Range } from './range';

/** A replacement of a range of a text, as an editor's `TextEdit` and the LSP's. */
export interface TextEdit {
  readonly range: Range;
  readonly newText: string;
}

/** Offset of a position, clamped into the text as an editor clamps it. */
function offsetIn(spans: readonly LineSpan[], position: Position): number {
  const span = spans[Math.min(Math.max(0, position.line), spans.length - 1)] as LineSpan;
  if (position.line >= spans.length) return span.end;
  return span.start + Math.min(Math.max(0, position.character), span.end - span.start);
}

/** The offset of a 0-based line / UTF-16 character position. */
export function offsetAt(text: string, position: Position): number {
  return offsetIn(lineSpans(text), position);
}

/**
 * Applies edits whose ranges all refer to the original text, as a workspace edit does. They must
 * not overlap: VS Code refuses overlapping edits too, so no fix may produce them.
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const spans = lineSpans(text);
  const ordered = [...edits].sort((a, b) => compareRanges(a.range, b.range));
  let result = '';
  let consumed = 0;
  for (const edit of ordered) {
    const start = offsetIn(spans, edit.range.start);
    const end = offsetIn(spans, edit.range.end);
    if (start < consumed || end < start) throw new Error(`overlapping or inverted edit at ${edit.range.start.line}:${edit.range.start.character}`);
    result += text.slice(consumed, start) + edit.newText;
    consumed = end;
  }
  return result + text.slice(consumed);
}
