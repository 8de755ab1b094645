import * as vscode from 'vscode';
import { COMMANDS } from '../base/commandIds';
import type { ManifestModels } from '../documents/manifestModels';
import type { ExecConsent } from '../safety/execConsent';
import type { SessionLauncher } from '../sessions/launcher';
import type { Sessions } from '../sessions/sessions';
import type { TimelinePanels } from '../timeline/timelinePanels';
import { registerAddStartupProbeCommand } from './addStartupProbe';
import { registerDeclarePortCommand } from './declarePort';
import { registerProbingCommands } from './probingCommands';
import { registerRenderedCommands } from './renderedCommands';
import type { RenderedModels } from '../rendering/renderedModels';
import { registerRuleDocs } from './ruleDocs';
import { registerSimulationCommands } from './simulationCommands';
import { registerTimelineCommands } from './timelineCommands';
import { registerWalkthrough } from './walkthrough';
import { registerWhatIf } from './whatIf';

/** What the commands act on. */
export interface CommandDeps {
  readonly context: vscode.ExtensionContext;
  readonly models: ManifestModels;
  readonly log: vscode.LogOutputChannel;
  readonly launcher: SessionLauncher;
  readonly sessions: Sessions;
  readonly consent: ExecConsent;
  readonly timelines: TimelinePanels;
  readonly rendered: RenderedModels;
}

/**
 * Every command of base/commandIds.ts, registered here and nowhere else (a test holds the table,
 * package.json and these registrations together).
 */
export function registerCommands(deps: CommandDeps): vscode.Disposable {
  const { context, models, log, launcher, sessions, consent, timelines, rendered } = deps;
  return vscode.Disposable.from(
    registerProbingCommands({ launcher, sessions, consent, log, timelines }),
    registerSimulationCommands(sessions),
    vscode.commands.registerCommand(COMMANDS.clearEndedSession, () => sessions.clearEnded()),
    registerTimelineCommands(timelines, sessions),
    registerWhatIf({ sessions, panels: timelines, log }),
    registerDeclarePortCommand(models),
    registerAddStartupProbeCommand(models),
    registerRuleDocs(context),
    registerWalkthrough(context),
    registerRenderedCommands(rendered),
  );
}
