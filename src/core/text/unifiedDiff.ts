import type { TextEdit } from './edits';
import { lineSpans } from './lines';
import { compareRanges, type Position } from './range';

/**
 * A unified diff (the format `git diff` writes and `git apply` / `patch -p1` read) of a text and
 * the same text with edits applied. The edits say where the text changes, so no line matching is
 * needed: each run of edited lines is a hunk, with `context` unchanged lines around it, hunks
 * whose context would touch merged. Lines keep their own line breaks (a CRLF file's diff has
 * CRLF lines, as git's has), and a last line without one gets `\ No newline at end of file`.
 */

/** A line and the break that ends it (`''` for a last line without one). */
interface Line {
  readonly text: string;
  readonly end: string;
}

/** The text's lines as editors count them (lines.ts), each with its own break. */
function linesOf(text: string): Line[] {
  return lineSpans(text).map((span) => ({ text: text.slice(span.start, span.end), end: span.lineBreak }));
}

/** A run of whole lines replaced: `from`..`to` (inclusive) of the old text by `lines`. */
interface Change {
  readonly from: number;
  readonly to: number;
  readonly lines: readonly Line[];
}

export function unifiedDiff(oldName: string, newName: string, text: string, edits: readonly TextEdit[], context = 3): string {
  const lines = linesOf(text);
  const changes = changesOf(lines, edits);
  if (changes.length === 0) return '';
  const out = [`--- ${oldName}\n`, `+++ ${newName}\n`];
  let delta = 0;
  for (const hunk of hunksOf(changes, context, lines.length)) {
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    const emit = (prefix: string, line: Line) => {
      body.push(`${prefix}${line.text}${line.end === '' ? '\n\\ No newline at end of file\n' : line.end.endsWith('\n') ? line.end : `${line.end}\n`}`);
    };
    let at = hunk.from;
    for (const change of hunk.changes) {
      for (; at < change.from; at++, oldCount++, newCount++) emit(' ', lines[at] as Line);
      for (let i = change.from; i <= change.to; i++) {
        if (isPhantom(lines, i)) continue;
        emit('-', lines[i] as Line);
        oldCount++;
      }
      for (const [i, line] of change.lines.entries()) {
        // The empty "line" after a final line break is no line of the file.
        if (line.text === '' && line.end === '' && i === change.lines.length - 1 && isPhantom(lines, change.to)) continue;
        emit('+', line);
        newCount++;
      }
      at = change.to + 1;
    }
    for (; at <= hunk.to; at++) {
      if (isPhantom(lines, at)) continue;
      emit(' ', lines[at] as Line);
      oldCount++;
      newCount++;
    }
    const oldStart = oldCount === 0 ? hunk.from : hunk.from + 1;
    const newStart = newCount === 0 ? hunk.from + delta : hunk.from + 1 + delta;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n`, ...body);
    delta += newCount - oldCount;
  }
  return out.join('');
}

/** The empty last "line" of a text that ends with a line break. */
function isPhantom(lines: readonly Line[], index: number): boolean {
  return index === lines.length - 1 && (lines[index] as Line).text === '' && (lines[index] as Line).end === '' && index > 0;
}

/** The edits as whole-line changes, edits on the same or adjacent lines together. */
function changesOf(lines: readonly Line[], edits: readonly TextEdit[]): Change[] {
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => compareRanges(a.edit.range, b.edit.range) || a.index - b.index);
  const groups: { from: number; to: number; edits: TextEdit[] }[] = [];
  for (const { edit } of ordered) {
    const from = clampLine(lines, edit.range.start.line);
    const to = clampLine(lines, edit.range.end.line);
    const last = groups.at(-1);
    if (last && from <= last.to) {
      last.to = Math.max(last.to, to);
      last.edits.push(edit);
    } else groups.push({ from, to, edits: [edit] });
  }
  return groups.map((group) => {
    const changed = linesOf(applyToBlock(lines, group.from, group.to, group.edits));
    // The block ends with its last line's break: what follows it is no line.
    if ((lines[group.to] as Line).end !== '') changed.pop();
    return trimmed(lines, { from: group.from, to: group.to, lines: changed });
  }).filter((change) => change.from <= change.to || change.lines.length > 0);
}

/**
 * A change without the lines it leaves as they were at its start and end (an insertion after a
 * line's end rewrites that line to itself): only what differs is `-` and `+`.
 */
function trimmed(lines: readonly Line[], change: Change): Change {
  const same = (a: Line | undefined, b: Line | undefined) => a !== undefined && b !== undefined && a.text === b.text && a.end === b.end;
  let { from, to } = change;
  let first = 0;
  let last = change.lines.length - 1;
  while (from <= to && first <= last && same(lines[from], change.lines[first])) {
    from++;
    first++;
  }
  while (to >= from && last >= first && same(lines[to], change.lines[last])) {
    to--;
    last--;
  }
  return { from, to, lines: change.lines.slice(first, last + 1) };
}

/** The lines `from`..`to` as one text (their breaks included, but the last one's), with the edits applied. */
function applyToBlock(lines: readonly Line[], from: number, to: number, edits: readonly TextEdit[]): string {
  const starts: number[] = [];
  let block = '';
  for (let i = from; i <= to; i++) {
    starts.push(block.length);
    const line = lines[i] as Line;
    block += line.text + (i < to ? line.end : '');
  }
  const offset = (p: Position) => {
    const line = clampLine(lines, p.line);
    return (starts[line - from] as number) + Math.min(Math.max(0, p.character), (lines[line] as Line).text.length);
  };
  let result = '';
  let consumed = 0;
  for (const edit of edits) {
    const start = offset(edit.range.start);
    const end = offset(edit.range.end);
    if (start < consumed || end < start) throw new Error(`overlapping or inverted edit at ${edit.range.start.line}:${edit.range.start.character}`);
    result += block.slice(consumed, start) + edit.newText;
    consumed = end;
  }
  return result + block.slice(consumed) + (lines[to] as Line).end;
}

function clampLine(lines: readonly Line[], line: number): number {
  return Math.min(Math.max(0, line), lines.length - 1);
}

/** Changes gathered into hunks: each with `context` lines around, merged where their context meets. */
function hunksOf(changes: readonly Change[], context: number, lineCount: number): { from: number; to: number; changes: Change[] }[] {
  const hunks: { from: number; to: number; changes: Change[] }[] = [];
  for (const change of changes) {
    const from = Math.max(0, change.from - context);
    const to = Math.min(lineCount - 1, change.to + context);
    const last = hunks.at(-1);
    if (last && from <= last.to + 1) {
      last.to = to;
      last.changes.push(change);
    } else hunks.push({ from, to, changes: [change] });
  }
  return hunks;
}
