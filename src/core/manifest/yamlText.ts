import { parse } from 'yaml';
import type { TextEdit } from '../text/edits';
import type { Position, Range } from '../text/range';

/**
 * Small edits that add to YAML as it is written: an entry to a map, an item to a sequence, in
 * the block or flow style the text already uses, at its indentation. Positions are file
 * positions into `lines` (`splitLines` of the whole text).
 */

/**
 * A string as a YAML scalar that reads back as that same string: plain when it can be (`http`,
 * `--max-time`), JSON-quoted otherwise (`"1"` would be a number, `on` a boolean in YAML 1.1,
 * which Kubernetes reads).
 */
export function yamlScalar(value: string): string {
  // Only characters with no meaning to YAML in block or flow context, and read back unchanged.
  if (/^[A-Za-z0-9_./-]+$/.test(value) && readsAsString(value)) return value;
  return JSON.stringify(value);
}

function readsAsString(value: string): boolean {
  try {
    return parse(value, { version: '1.1' }) === value;
  } catch {
    return false;
  }
}

/** The collection at `range` is written in flow style (`{…}`, `[…]`). */
export function isFlowAt(lines: readonly string[], position: Position): boolean {
  const c = lines[position.line]?.charAt(position.character);
  return c === '{' || c === '[';
}

/**
 * New lines after line `line` (after anything on it, a comment included). Inserted at the end of
 * that line, each new line led by the line break, so it works on the file's last line too.
 */
export function linesAfter(lines: readonly string[], lineBreak: string, line: number, newLines: readonly string[]): TextEdit {
  const at = { line, character: (lines[line] ?? '').length };
  return { range: { start: at, end: at }, newText: newLines.map((l) => lineBreak + l).join('') };
}

export function insertAt(position: Position, newText: string): TextEdit {
  return { range: { start: position, end: position }, newText };
}

/**
 * Entries appended to a map: on lines after a block map, aligned with its keys; after the last
 * entry (`lastValueEnd`) of a flow map, or inside an empty one.
 */
export function appendToMap(lines: readonly string[], lineBreak: string, map: Range, lastValueEnd: Position | undefined, entries: readonly string[]): TextEdit {
  if (isFlowAt(lines, map.start)) {
    if (!lastValueEnd) return insertAt({ line: map.start.line, character: map.start.character + 1 }, entries.join(', '));
    return insertAt(lastValueEnd, entries.map((e) => `, ${e}`).join(''));
  }
  const pad = ' '.repeat(map.start.character);
  return linesAfter(lines, lineBreak, map.end.line, entries.map((e) => pad + e));
}

/**
 * An entry added before the first key of a map (`firstKey`): on a line of its own in a block
 * map, the first key then moved to the next line at its column; inline in a flow map.
 */
export function prependToMap(lines: readonly string[], lineBreak: string, map: Range, firstKey: Position, entry: string): TextEdit {
  if (isFlowAt(lines, map.start)) return insertAt(firstKey, `${entry}, `);
  return insertAt(firstKey, `${entry}${lineBreak}${' '.repeat(firstKey.character)}`);
}

/**
 * Items added to a sequence right after `item`, one of its items: inline after it in a flow
 * sequence; in a block sequence on lines of their own, dashes aligned with the sequence's.
 * `blockItems` are the new items' lines in block style, each item's lines relative to its dash
 * (`['- name: x', '  containerPort: 1']`); `flowItems` the same items written inline.
 */
export function insertIntoSequenceAfter(
  lines: readonly string[],
  lineBreak: string,
  sequence: Range,
  item: Range,
  flowItems: readonly string[],
  blockItems: readonly (readonly string[])[],
): TextEdit {
  if (isFlowAt(lines, sequence.start)) return insertAt(item.end, flowItems.map((i) => `, ${i}`).join(''));
  // A block sequence's range starts at its first dash; every dash is in that column.
  const pad = ' '.repeat(sequence.start.character);
  return linesAfter(lines, lineBreak, item.end.line, blockItems.flatMap((itemLines) => itemLines.map((l) => pad + l)));
}

/** The text of a range of `lines` (lines joined by `\n`), and the file position of each of its offsets. */
export function textOf(lines: readonly string[], range: Range): { readonly text: string; positionAt(offset: number): Position } {
  /** Where each line's part begins in `text`. */
  const lineStarts: number[] = [];
  let text = '';
  for (let line = range.start.line; line <= range.end.line; line++) {
    if (line > range.start.line) text += '\n';
    lineStarts.push(text.length);
    const from = line === range.start.line ? range.start.character : 0;
    text += (lines[line] ?? '').slice(from, line === range.end.line ? range.end.character : undefined);
  }
  const positionAt = (offset: number): Position => {
    let i = lineStarts.length - 1;
    while (i > 0 && (lineStarts[i] as number) > offset) i--;
    const column = offset - (lineStarts[i] as number);
    return { line: range.start.line + i, character: i === 0 ? range.start.character + column : column };
  };
  return { text, positionAt };
}
