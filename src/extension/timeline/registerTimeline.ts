import * as vscode from 'vscode';
import { TIMELINE_VIEW_TYPE } from '../../shared/protocol';
import type { ProbeTreeNode } from '../tree/nodes';
import { lanesOf } from './manifestLanes';
import type { SavedTimelines } from './savedTimelines';
import type { TimelinePanels } from './timelinePanels';

/** Cursor moves come in bursts (typing, arrow keys): highlight where it settles. */
const SETTLE_MS = 100;
/** Saved timelines are pruned this long after activation: revived panels have claimed theirs by then. */
const PRUNE_AFTER_MS = 15_000;

export interface TimelineWiring {
  readonly panels: TimelinePanels;
  readonly treeView: vscode.TreeView<ProbeTreeNode>;
}

/**
 * What the timeline panels need from the workbench: the serializer that revives them after a
 * window reload, the editor's and the Probes view's selection highlighting lanes, and the pruning
 * of old saved timelines. (Their commands are in commands/timelineCommands.ts.)
 */
export function registerTimeline({ panels, treeView }: TimelineWiring, saved: SavedTimelines): vscode.Disposable {
  let settle: NodeJS.Timeout | undefined;
  const prune = setTimeout(() => void saved.prune(panels.savedInUse()), PRUNE_AFTER_MS);
  prune.unref?.();
  return vscode.Disposable.from(
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => panels.deserialize(panel, state) }),
    vscode.window.onDidChangeTextEditorSelection((event) => {
      clearTimeout(settle);
      const position = event.selections[0]?.active;
      if (!position || panels.count === 0) return;
      const document = event.textEditor.document;
      settle = setTimeout(() => panels.highlightAt(document, position), SETTLE_MS);
    }),
    treeView.onDidChangeSelection((event) => {
      const node = event.selection[0];
      const panel = node && panels.forSession(node.session);
      if (!node || !panel) return;
      panel.highlight(node.kind === 'session' ? [] : lanesOf(node.session.snapshot, node.pod, node.kind === 'pod' ? undefined : node.container, node.kind === 'probe' ? node.probe : undefined));
    }),
    new vscode.Disposable(() => {
      clearTimeout(settle);
      clearTimeout(prune);
    }),
  );
}
