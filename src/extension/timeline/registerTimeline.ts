import * as vscode from 'vscode';
import { TIMELINE_VIEW_TYPE } from '../../shared/protocol';
import { readTarget } from '../commands/args';
import { pickSession } from '../commands/pickers';
import type { Sessions } from '../sessions/sessions';
import { notify } from '../sessions/notices';
import type { ProbeTreeNode } from '../tree/nodes';
import { readComparisonRequest } from './comparisonTimeline';
import { lanesOf } from './manifestLanes';
import type { SavedTimelines } from './savedTimelines';
import type { TimelinePanel } from './timelinePanel';
import type { TimelinePanels } from './timelinePanels';
import { COMMANDS } from '../base/commandIds';

/** Cursor moves come in bursts (typing, arrow keys): highlight where it settles. */
const SETTLE_MS = 100;
/** Saved timelines are pruned this long after activation: revived panels have claimed theirs by then. */
const PRUNE_AFTER_MS = 15_000;

export interface TimelineWiring {
  readonly panels: TimelinePanels;
  readonly sessions: Sessions;
  readonly treeView: vscode.TreeView<ProbeTreeNode>;
}

/**
 * The timeline's commands (*Open Timeline from File…*, *Export Timeline…*, and the internal
 * `probeLens.timeline.showComparison` *What if…* opens its result with), the serializer that
 * revives panels after a window reload, the editor's and the Probes view's selection highlighting
 * lanes, and the pruning of old saved timelines. (`probeLens.openTimeline` is a probing command:
 * it opens a session's panel.)
 */
export function registerTimeline({ panels, sessions, treeView }: TimelineWiring, saved: SavedTimelines): vscode.Disposable {
  let settle: NodeJS.Timeout | undefined;
  const prune = setTimeout(() => void saved.prune(panels.savedInUse()), PRUNE_AFTER_MS);
  prune.unref?.();
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.openTimelineFromFile, (...args: unknown[]) => openTimelineFromFile(panels, args)),
    vscode.commands.registerCommand(COMMANDS.exportTimeline, (...args: unknown[]) => exportTimeline(panels, sessions, args)),
    vscode.commands.registerCommand('probeLens.timeline.showComparison', (request: unknown) => showComparison(panels, request)),
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

/**
 * `probeLens.timeline.showComparison({title, recorded: {header, events}, replayed: {header, events}})`
 * → the panel: the recorded run above its replay with the edited manifest. Internal (not in the
 * palette): *What if…* calls it.
 */
function showComparison(panels: TimelinePanels, request: unknown): TimelinePanel | undefined {
  const read = readComparisonRequest(request);
  if (typeof read === 'string') {
    void notify('error', `the comparison cannot be shown: ${read}.`);
    return undefined;
  }
  return panels.openComparison(read);
}

/** `openTimelineFromFile([uri])` → the panel; without a URI, the user picks a `.jsonl`. */
async function openTimelineFromFile(panels: TimelinePanels, args: readonly unknown[]): Promise<TimelinePanel | undefined> {
  const given = readTarget(args).uri;
  const uri =
    given ??
    (
      await vscode.window.showOpenDialog({
        title: 'Open Timeline from File',
        openLabel: 'Open Timeline',
        canSelectMany: false,
        filters: { 'Timeline (JSON Lines)': ['jsonl'], 'All files': ['*'] },
        ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
      })
    )?.[0];
  return uri ? panels.openFile(uri) : undefined;
}

/**
 * `exportTimeline([row | {sessionId | uri, to}])` → the file written: a session's events (the
 * row's, the one named, else the active panel's, else one picked) as JSON Lines, to `to` or where
 * the user says.
 */
async function exportTimeline(panels: TimelinePanels, sessions: Sessions, args: readonly unknown[]): Promise<vscode.Uri | undefined> {
  const target = readTarget(args);
  const fields = (args[0] !== null && typeof args[0] === 'object' ? args[0] : {}) as Record<string, unknown>;
  const to = fields['to'] instanceof vscode.Uri ? fields['to'] : typeof fields['to'] === 'string' ? vscode.Uri.parse(fields['to']) : undefined;
  const session = target.node?.session ?? (target.sessionId ? sessions.byId(target.sessionId) : target.uri ? sessions.forDocument(target.uri) : undefined);
  if (session) return panels.export(panels.forSession(session) ?? session, to);
  const active = panels.active;
  if (active) return panels.export(active, to);
  const picked = await pickSession(sessions.all, 'Export Timeline');
  if (picked) return panels.export(picked, to);
  if (sessions.all.length === 0) void vscode.window.showErrorMessage('Probe Lens: there is no timeline to export: start probing or a simulation, or open a timeline.');
  return undefined;
}
