import * as vscode from 'vscode';
import { FindingsDiagnostics } from './diagnostics';
import { ManifestModels } from './documents/manifestModels';
import { ProbeCodeLenses } from './editor/codeLenses';
import { ProbeHovers } from './editor/hovers';
import { ProbeQuickFixes, registerAddStartupProbeCommand } from './quickFixes';
import { type ProbingApi, registerProbing } from './sessions/registerProbing';

/** What `activate()` returns: the pieces extension-host tests look into (the UI has no API for them). */
export interface ProbeLensApi {
  readonly models: ManifestModels;
  readonly diagnostics: FindingsDiagnostics;
  readonly log: vscode.LogOutputChannel;
  readonly probing: ProbingApi;
}

/**
 * Composition root: wires core to VS Code and nothing else. Two scopes: what lives as long as the
 * extension (registered here), and each probing session (owned by the session registry).
 */
export function activate(context: vscode.ExtensionContext): ProbeLensApi {
  const log = vscode.window.createOutputChannel('Probe Lens', { log: true });
  const models = new ManifestModels();
  const rulesDoc = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules.md');
  const diagnostics = new FindingsDiagnostics(models, rulesDoc);
  const probing = registerProbing(context, models, log);
  const live = probing.api.sessions;
  // Disposed in this order: sessions stop first, while the models and the log they use still work.
  context.subscriptions.push(
    probing.disposable,
    diagnostics,
    ProbeCodeLenses.register(models, live),
    ProbeHovers.register(models, live),
    ProbeQuickFixes.register(models),
    registerAddStartupProbeCommand(models),
    models,
    log,
  );
  return { models, diagnostics, log, probing: probing.api };
}

export function deactivate(): void {}
