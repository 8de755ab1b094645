import * as vscode from 'vscode';
import { type Range, shiftRange } from '../../core/text/range';

/** A core range (chunk-relative when `lineOffset` is given) as a VS Code range in the file. */
export function toVsRange(range: Range, lineOffset = 0): vscode.Range {
  const { start, end } = shiftRange(range, lineOffset);
  return new vscode.Range(start.line, start.character, end.line, end.character);
}
