import * as vscode from 'vscode';
import { registerProbingCommands } from '../commands/probingCommands';
import { registerSimulationCommands } from '../commands/simulationCommands';
import type { ManifestModels } from '../documents/manifestModels';
import { LiveDiagnostics } from '../liveDiagnostics';
import { ExecConsent } from '../safety/execConsent';
import { ProbingStatusBar } from '../statusBar';
import { PROBES_VIEW, ProbeTreeProvider } from '../tree/probeTree';
import type { TimelinePanels } from '../timeline/timelinePanels';
import type { ProbeTreeNode } from '../tree/nodes';
import { revealOnSelection } from '../tree/revealOnSelection';
import { trackContextKeys } from './contextKeys';
import { SessionLauncher } from './launcher';
import { sweepOrphanedProxies } from './orphanSweep';
import { Sessions } from './sessions';
import { COMMANDS } from '../base/commandIds';

/** What extension-host tests look into: the registry, the tree, the live diagnostics and the consent store. */
export interface ProbingApi {
  readonly sessions: Sessions;
  readonly launcher: SessionLauncher;
  readonly tree: ProbeTreeProvider;
  readonly treeView: vscode.TreeView<ProbeTreeNode>;
  readonly liveDiagnostics: LiveDiagnostics;
  readonly statusBar: ProbingStatusBar;
  readonly execConsent: ExecConsent;
}

/**
 * Everything about running probes, wired once: sessions, commands, the Probes view, live
 * diagnostics, the status bar. Nothing here starts a session: only a command does. Disposing it
 * stops every session (no process, socket or timer is left) and unregisters the rest.
 */
export function registerProbing(context: vscode.ExtensionContext, models: ManifestModels, log: vscode.LogOutputChannel, timelines: TimelinePanels): { api: ProbingApi; disposable: vscode.Disposable } {
  const sessions = new Sessions();
  const execConsent = new ExecConsent(context.workspaceState);
  const launcher = new SessionLauncher(models, sessions, execConsent, log);
  const tree = new ProbeTreeProvider(sessions);
  const treeView = vscode.window.createTreeView(PROBES_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const liveDiagnostics = new LiveDiagnostics(sessions);
  const statusBar = new ProbingStatusBar(sessions);
  const disposable = vscode.Disposable.from(
    // Commands and views go first, sessions last: a stopping session's last change reaches no one.
    registerProbingCommands({ launcher, sessions, consent: execConsent, log, timelines }),
    registerSimulationCommands(sessions),
    vscode.commands.registerCommand(COMMANDS.clearEndedSession, () => sessions.clearEnded()),
    sweepOrphanedProxies(log),
    revealOnSelection(treeView, tree, sessions),
    trackContextKeys(sessions),
    treeView,
    tree,
    liveDiagnostics,
    statusBar,
    sessions,
  );
  return { api: { sessions, launcher, tree, treeView, liveDiagnostics, statusBar, execConsent }, disposable };
}
