import * as vscode from 'vscode';
import { FindingsDiagnostics } from './diagnostics';
import { ManifestModels } from './documents/manifestModels';
import { ProbeCodeLenses } from './editor/codeLenses';
import { ProbeHovers } from './editor/hovers';
import { ProbeQuickFixes, registerAddStartupProbeCommand } from './quickFixes';
import { registerRuleDocs } from './ruleDocs';
import { type ProbingApi, registerProbing } from './sessions/registerProbing';
import { registerTimeline } from './timeline/registerTimeline';
import { SavedTimelines } from './timeline/savedTimelines';
import { registerWalkthrough } from './walkthrough';
import { TimelinePanels } from './timeline/timelinePanels';

/** What `activate()` returns: the pieces extension-host tests look into (the UI has no API for them). */
export interface ProbeLensApi {
  readonly models: ManifestModels;
  readonly diagnostics: FindingsDiagnostics;
  readonly log: vscode.LogOutputChannel;
  readonly probing: ProbingApi;
  readonly timeline: TimelinePanels;
}

/**
 * Composition root: wires core to VS Code and nothing else. Two scopes: what lives as long as the
 * extension (registered here), and each probing session (owned by the session registry).
 */
export function activate(context: vscode.ExtensionContext): ProbeLensApi {
  const log = vscode.window.createOutputChannel('Probe Lens', { log: true });
  const models = new ManifestModels();
  const diagnostics = new FindingsDiagnostics(models);
  const saved = new SavedTimelines(context.storageUri ?? context.globalStorageUri);
  const timeline = new TimelinePanels({ extensionUri: context.extensionUri, models, saved, log });
  const probing = registerProbing(context, models, log, timeline);
  const live = probing.api.sessions;
  // Disposed in this order: sessions stop first, while the models and the log they use still work
  // (a stopping session's timeline panel saves its events then, for a window reload to revive).
  context.subscriptions.push(
    probing.disposable,
    registerTimeline({ panels: timeline, sessions: live, treeView: probing.api.treeView }, saved),
    timeline,
    diagnostics,
    ProbeCodeLenses.register(models, live),
    ProbeHovers.register(models, live),
    ProbeQuickFixes.register(models),
    registerAddStartupProbeCommand(models),
    registerRuleDocs(context),
    registerWalkthrough(context),
    models,
    log,
  );
  return { models, diagnostics, log, probing: probing.api, timeline };
}

export function deactivate(): void {}
