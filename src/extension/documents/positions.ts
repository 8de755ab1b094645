import * as vscode from 'vscode';
import { type LinePlacement, placeRange } from '../../core/editor/lineMap';
import type { Range } from '../../core/text/range';

/**
 * A core range as a VS Code range in the file: chunk-relative when placed (a placed pod spec,
 * whose stale model maps its lines onto the current text), or lines further down by a number.
 */
export function toVsRange(range: Range, placement: number | LinePlacement = 0): vscode.Range {
  const { start, end } = placeRange(typeof placement === 'number' ? { lineOffset: placement } : placement, range);
  return new vscode.Range(start.line, start.character, end.line, end.character);
}
