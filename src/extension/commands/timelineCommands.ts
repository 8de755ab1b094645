import * as vscode from 'vscode';
import { COMMANDS } from '../base/commandIds';
import type { Sessions } from '../sessions/sessions';
import type { TimelinePanel } from '../timeline/timelinePanel';
import type { TimelinePanels } from '../timeline/timelinePanels';
import { namedSession, readTarget } from './args';
import { pickSession } from './pickers';

/**
 * The timeline's commands: *Open Timeline from File…* and *Export Timeline…*. (`probeLens.openTimeline`
 * is a probing command: it opens a session's panel.)
 */
export function registerTimelineCommands(panels: TimelinePanels, sessions: Sessions): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.openTimelineFromFile, (...args: unknown[]) => openTimelineFromFile(panels, args)),
    vscode.commands.registerCommand(COMMANDS.exportTimeline, (...args: unknown[]) => exportTimeline(panels, sessions, args)),
  );
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
  const session = namedSession(target, sessions, 'running-or-ended');
  if (session) return panels.export(panels.forSession(session) ?? session, to);
  const active = panels.active;
  if (active) return panels.export(active, to);
  const picked = await pickSession(sessions.all, 'Export Timeline');
  if (picked) return panels.export(picked, to);
  if (sessions.all.length === 0) void vscode.window.showErrorMessage('Probe Lens: there is no timeline to export: start probing or a simulation, or open a timeline.');
  return undefined;
}
