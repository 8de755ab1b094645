import * as vscode from 'vscode';
import type { ManifestModels } from './documents/manifestModels';
import { LiveDiagnostics } from './editor/liveDiagnostics';
import { ExecConsent } from './safety/execConsent';
import { ProbingStatusBar } from './editor/statusBar';
import { PROBES_VIEW, ProbeTreeProvider } from './tree/probeTree';
import type { ProbeTreeNode } from './tree/nodes';
import { revealOnSelection } from './tree/revealOnSelection';
import { trackContextKeys } from './sessions/contextKeys';
import { SessionLauncher } from './sessions/launcher';
import { sweepOrphanedProxies } from './sessions/orphanSweep';
import { Sessions } from './sessions/sessions';

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
 * Everything about running probes, wired once: sessions, the Probes view, live
 * diagnostics, the status bar. Nothing here starts a session: only a command does. Disposing it
 * stops every session (no process, socket or timer is left) and unregisters the rest.
 */
export function registerProbing(context: vscode.ExtensionContext, models: ManifestModels, log: vscode.LogOutputChannel): { api: ProbingApi; disposable: vscode.Disposable } {
  const sessions = new Sessions();
  const execConsent = new ExecConsent(context.workspaceState);
  const launcher = new SessionLauncher(models, sessions, execConsent, log);
  const tree = new ProbeTreeProvider(sessions);
  const treeView = vscode.window.createTreeView(PROBES_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const liveDiagnostics = new LiveDiagnostics(sessions);
  const statusBar = new ProbingStatusBar(sessions);
  const disposable = vscode.Disposable.from(
    // Views go first, sessions last: a stopping session's last change reaches no one.
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
