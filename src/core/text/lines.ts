/**
 * Lines as editors count them: a line ends at `\r\n`, `\n` or a lone `\r`, and a text that ends in
 * a break has an empty last line. The manifest reader's positions, the quick fixes' edits, the
 * patches and the stale-model line maps all index into these lines, so they are split here once.
 */
const LINE_BREAK = /\r\n|\n|\r/;

/** One line: where it starts, where its content ends, and the break after it (`''` for the last). */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
  readonly lineBreak: '' | '\n' | '\r\n' | '\r';
}

export function lineSpans(text: string): LineSpan[] {
  const spans: LineSpan[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    const crlf = c === 13 && text.charCodeAt(i + 1) === 10;
    spans.push({ start, end: i, lineBreak: crlf ? '\r\n' : c === 10 ? '\n' : '\r' });
    if (crlf) i++;
    start = i + 1;
  }
  spans.push({ start, end: text.length, lineBreak: '' });
  return spans;
}

export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/** The file's own line break (its first one), so inserted lines match the rest; `\n` when it has none. */
export function lineBreakOf(text: string): string {
  return LINE_BREAK.exec(text)?.[0] ?? '\n';
}
