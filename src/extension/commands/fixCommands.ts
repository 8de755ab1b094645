import * as vscode from 'vscode';
import type { PlacedPodSpec } from '../../core/editor/incrementalChecker';
import type { ContainerModel } from '../../core/manifest';
import type { TextEdit } from '../../core/text/edits';
import { toVsRange } from '../documents/positions';

/** What the commands behind quick fixes share (`probeLens.addStartupProbe`, `probeLens.declarePort`). */

/** A container of the file, with the pod spec that places its chunk-relative ranges in the file. */
export interface PlacedContainer {
  readonly placed: PlacedPodSpec;
  readonly container: ContainerModel;
}

/** The first of `candidates` whose text holds `line`: the cursor anywhere in a container will do. */
export function containerHoldingLine<T extends PlacedContainer>(candidates: readonly T[], line: number): T | undefined {
  return candidates.find(({ placed, container }) => {
    const range = toVsRange(container.range, placed);
    return range.start.line <= line && line <= range.end.line;
  });
}

export function workspaceEditOf(uri: vscode.Uri, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(uri, toVsRange(e.range), e.newText);
  return edit;
}

/** Why the command does nothing, as a warning starting with a capital; the command resolves to `false`. */
export function refuse(reason: string): false {
  void vscode.window.showWarningMessage(reason.charAt(0).toUpperCase() + reason.slice(1));
  return false;
}
