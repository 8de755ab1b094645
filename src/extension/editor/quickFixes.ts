import * as vscode from 'vscode';
import { fixesOf, probeOfFinding, problemOf, type PublishedDiagnostic } from '../../core/editor/fixMatching';
import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import { declarePortObstacle } from '../../core/fixes/declarePort';
import { startupProbeObstacle } from '../../core/fixes/startupProbe';
import type { ProbeModel } from '../../core/manifest';
import { type AddStartupProbeArgs, livenessContainerAt } from '../commands/addStartupProbe';
import { type DeclarePortArgs, declarePortTitle } from '../commands/declarePort';
import { DIAGNOSTIC_SOURCE, type ReplacedFindings } from './diagnostics';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import { type PlacedContainer, workspaceEditOf } from '../commands/fixCommands';
import { COMMANDS } from '../base/commandIds';


/** L10: liveness can kill before the app is ready; its remedy is a startupProbe. */
const LIVENESS_KILLS_EARLY = 'L10';
/** L01: a named probe port the container does not declare. */
const UNDECLARED_PORT = 'L01';
const ADD_STARTUP_PROBE_TITLE = 'Add a startupProbe derived from the livenessProbe…';

/**
 * Quick fixes for probe-lens diagnostics: each finding's own fixes (unquote a port,
 * successThreshold → 1, `sh -c`, gRPC port number, did-you-mean rename, scheme case, use a
 * declared port, lower timeoutSeconds), curl/wget's own timeout (L21), "declare the port" (L01),
 * and "add a startupProbe" on L10 and on any livenessProbe key of a container without one.
 */
export class ProbeQuickFixes implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds: readonly vscode.CodeActionKind[] = [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.RefactorRewrite];

  /** The provider; the commands its actions run (declare a port, add a startupProbe) are registered in commands/. */
  static register(models: ManifestModels, replaced?: ReplacedFindings): vscode.Disposable {
    return vscode.languages.registerCodeActionsProvider({ language: 'yaml' }, new ProbeQuickFixes(models, replaced), {
      providedCodeActionKinds: ProbeQuickFixes.providedCodeActionKinds,
    });
  }

  constructor(
    private readonly models: ManifestModels,
    /** A rendered template's or patch's fixes come from its render (`RenderedQuickFixes`): the fragment's own would match its diagnostics twice. */
    private readonly replaced?: ReplacedFindings,
  ) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (this.replaced?.replaces(document)) return [];
    const snapshot = this.models.get(document);
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    const actions = [
      ...ours.flatMap((diagnostic) => ruleFixActions(document, snapshot, diagnostic)),
      ...ours.filter((d) => ruleOf(d) === UNDECLARED_PORT).flatMap((diagnostic) => declarePortActions(snapshot, document, diagnostic)),
      ...ours.filter((d) => ruleOf(d) === LIVENESS_KILLS_EARLY).flatMap((diagnostic) => startupProbeQuickFix(document, snapshot, diagnostic)),
      ...startupProbeRefactor(document, snapshot, range, ours),
    ];
    return actions.filter((action) => !context.only || (action.kind !== undefined && context.only.contains(action.kind)));
  }
}

/**
 * The fixes of the problem this diagnostic was published for: those of its finding, then of the
 * findings folded into it (L04's unquote on P06), in their order, the first preferred.
 */
function ruleFixActions(document: vscode.TextDocument, snapshot: ManifestSnapshot, diagnostic: vscode.Diagnostic): vscode.CodeAction[] {
  const problem = problemOf(snapshot, published(diagnostic));
  if (!problem) return [];
  return fixesOf(problem, snapshot, document.getText()).map((fix, index) => {
    const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    action.edit = workspaceEditOf(document.uri, fix.edits);
    action.diagnostics = [diagnostic];
    // A finding lists its likeliest correction first: the one "Auto Fix" may apply.
    action.isPreferred = index === 0;
    return action;
  });
}

/** L01: declaring the port needs its number, so the action is a command that asks for it. */
function declarePortActions(snapshot: ManifestSnapshot, document: vscode.TextDocument, diagnostic: vscode.Diagnostic): vscode.CodeAction[] {
  const finding = problemOf(snapshot, published(diagnostic))?.primary;
  const found = finding && probeOfFinding(snapshot, finding);
  const handler = found?.probe.effective.handler;
  if (!found || (handler?.type !== 'httpGet' && handler?.type !== 'tcpSocket') || typeof handler.port !== 'string') return [];
  const title = declarePortTitle(handler.port);
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  const obstacle = declarePortObstacle(found.probe.container);
  if (obstacle) action.disabled = { reason: obstacle };
  const args: DeclarePortArgs = [document.uri, diagnostic.range.start.line, handler.port];
  action.command = { command: COMMANDS.declarePort, title, arguments: args };
  action.diagnostics = [diagnostic];
  return [action];
}

/** A diagnostic as core's fix matching reads it. */
function published(diagnostic: vscode.Diagnostic): PublishedDiagnostic {
  const { start, end } = diagnostic.range;
  return { rule: ruleOf(diagnostic), message: diagnostic.message, range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } } };
}

function ruleOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** L10 tells the user to add a startupProbe: offer to, or say why it cannot be done here. */
function startupProbeQuickFix(document: vscode.TextDocument, snapshot: ManifestSnapshot, diagnostic: vscode.Diagnostic): vscode.CodeAction[] {
  if (!problemOf(snapshot, published(diagnostic))) return [];
  const found = livenessContainerAt(snapshot, diagnostic.range.start.line);
  if (!found) return [];
  const action = addStartupProbeAction(document, found, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  return [action];
}

/** On a livenessProbe key of a container without a startupProbe, when no L10 already offers it. */
function startupProbeRefactor(document: vscode.TextDocument, snapshot: ManifestSnapshot, range: vscode.Range, diagnostics: readonly vscode.Diagnostic[]): vscode.CodeAction[] {
  const found = livenessContainerAt(snapshot, range.start.line);
  const liveness = found?.container.probe('liveness');
  if (!found || !liveness || startupProbeObstacle(found.container)) return [];
  const keyRange = toVsRange(liveness.keyRange, found.placed);
  if (!keyRange.intersection(range)) return [];
  if (diagnostics.some((d) => ruleOf(d) === LIVENESS_KILLS_EARLY && d.range.isEqual(keyRange))) return [];
  return [addStartupProbeAction(document, found, vscode.CodeActionKind.RefactorRewrite)];
}

function addStartupProbeAction(document: vscode.TextDocument, found: PlacedContainer, kind: vscode.CodeActionKind): vscode.CodeAction {
  const action = new vscode.CodeAction(ADD_STARTUP_PROBE_TITLE, kind);
  const obstacle = startupProbeObstacle(found.container);
  // Shown greyed out with the reason: L10 said "add a startupProbe", so silence would puzzle.
  if (obstacle) action.disabled = { reason: obstacle };
  const line = toVsRange((found.container.probe('liveness') as ProbeModel).keyRange, found.placed).start.line;
  const args: AddStartupProbeArgs = [document.uri, line];
  action.command = { command: COMMANDS.addStartupProbe, title: ADD_STARTUP_PROBE_TITLE, arguments: args };
  return action;
}
