import * as vscode from 'vscode';
import { BreakpointGuard } from './debug/breakpointGuard';
import { FindingsDiagnostics } from './editor/diagnostics';
import { ManifestModels } from './documents/manifestModels';
import { ProbeCodeLenses } from './editor/codeLenses';
import { ProbeHovers } from './editor/hovers';
import { MeasuredRecommendations, RecommendActions } from './editor/recommendActions';
import { ProbeQuickFixes } from './editor/quickFixes';
import { type ProbingApi, registerProbing } from './registerProbing';
import { registerTimeline } from './timeline/registerTimeline';
import { SavedTimelines } from './timeline/savedTimelines';
import { TimelinePanels } from './timeline/timelinePanels';
import { registerCommands } from './commands/registerCommands';
import { RenderedModels } from './rendering/renderedModels';
import { RenderedOutput } from './rendering/renderedOutput';
import { RenderedCodeLenses } from './editor/renderedCodeLenses';
import { RenderedDiagnostics } from './editor/renderedDiagnostics';
import { RenderedQuickFixes } from './editor/renderedQuickFixes';
import { RenderedHovers } from './editor/renderedHovers';

/** What `activate()` returns: the pieces extension-host tests look into (the UI has no API for them). */
export interface ProbeLensApi {
  readonly models: ManifestModels;
  readonly diagnostics: FindingsDiagnostics;
  readonly log: vscode.LogOutputChannel;
  readonly probing: ProbingApi;
  readonly timeline: TimelinePanels;
  readonly breakpointGuard: BreakpointGuard;
  /** What recordings and sessions of each manifest recommend (the code action's and the hover's source). */
  readonly recommendations: MeasuredRecommendations;
  /** The code lenses' provider: tests watch when it tells VS Code to ask again. */
  readonly codeLenses: ProbeCodeLenses;
  /** Charts and overlays of open files, rendered; and their findings as published. */
  readonly rendered: RenderedModels;
  readonly renderedDiagnostics: RenderedDiagnostics;
}

/**
 * Composition root: wires core to VS Code and nothing else. Two scopes: what lives as long as the
 * extension (registered here), and each probing session (owned by the session registry).
 */
export function activate(context: vscode.ExtensionContext): ProbeLensApi {
  const log = vscode.window.createOutputChannel('Probe Lens', { log: true });
  const models = new ManifestModels();
  const rendered = new RenderedModels(log);
  const renderedDiagnostics = new RenderedDiagnostics(rendered, models);
  const diagnostics = new FindingsDiagnostics(models, renderedDiagnostics);
  const saved = new SavedTimelines(context.storageUri ?? context.globalStorageUri);
  const timeline = new TimelinePanels({ extensionUri: context.extensionUri, models, saved, log });
  const probing = registerProbing(context, models, log);
  const live = probing.api.sessions;
  const recommendations = new MeasuredRecommendations(live, timeline);
  const breakpointGuard = new BreakpointGuard(live);
  const codeLenses = ProbeCodeLenses.register(models, live, breakpointGuard, renderedDiagnostics);
  // Disposed in this order: sessions stop first, while the models and the log they use still work
  // (a stopping session's timeline panel saves its events then, for a window reload to revive).
  const { sessions, launcher, execConsent } = probing.api;
  context.subscriptions.push(
    // Commands go first: nothing can start while the rest is disposed.
    registerCommands({ context, models, log, launcher, sessions, consent: execConsent, timelines: timeline, rendered }),
    probing.disposable,
    breakpointGuard,
    probing.api.statusBar.showPauses(breakpointGuard),
    registerTimeline({ panels: timeline, treeView: probing.api.treeView }, saved),
    timeline,
    diagnostics,
    renderedDiagnostics,
    new RenderedOutput(rendered),
    RenderedCodeLenses.register(rendered, models, renderedDiagnostics),
    RenderedQuickFixes.register(rendered),
    RenderedHovers.register(rendered),
    codeLenses,
    ProbeHovers.register(models, live, recommendations, renderedDiagnostics),
    ProbeQuickFixes.register(models, renderedDiagnostics),
    RecommendActions.register(models, recommendations),
    models,
    rendered,
    log,
  );
  return { models, diagnostics, log, probing: probing.api, timeline, breakpointGuard, recommendations, codeLenses, rendered, renderedDiagnostics };
}

export function deactivate(): void {}
