import type { TextEdit } from '../rules/types';
import { compareRanges, type Position } from '../text/range';

/**
 * Line breaks as editors and the manifest reader (yamlFile.ts `countLines`) count them: `\r\n`,
 * `\n` and a lone `\r`. Positions made by the reader index into these lines.
 */
const LINE_BREAK = /\r\n|\n|\r/;

export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/** The file's own line break (its first one), so inserted lines match the rest; `\n` when it has none. */
export function lineBreakOf(text: string): string {
  return LINE_BREAK.exec(text)?.[0] ?? '\n';
}

/** Where each line starts, and where its content ends (before its line break). */
interface LineSpan {
  readonly start: number;
  readonly end: number;
}

function lineSpans(text: string): LineSpan[] {
  const spans: LineSpan[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    spans.push({ start, end: i });
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    start = i + 1;
  }
  spans.push({ start, end: text.length });
  return spans;
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
