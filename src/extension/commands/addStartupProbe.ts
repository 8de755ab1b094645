import * as vscode from 'vscode';
import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import { deriveStartupProbe, parseBudgetSeconds, startupBudgetProblem, startupFailureThreshold, startupProbeObstacle } from '../../core/fixes/startupProbe';
import type { ProbeModel } from '../../core/manifest';
import { livenessKillSeconds } from '../../core/rules/timing/formulas';
import { COMMANDS } from '../base/commandIds';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import { containerHoldingLine, type PlacedContainer, refuse, workspaceEditOf } from './fixCommands';

/**
 * The container a command or action on `line` is about: the one whose livenessProbe key is on
 * that line, else the one whose text holds the line (so the cursor anywhere in a container will
 * do). Several containers on one line (flow style) resolve to the first.
 */
export function livenessContainerAt(snapshot: ManifestSnapshot, line: number): PlacedContainer | undefined {
  const all = snapshot.podSpecs.flatMap((placed) => placed.spec.containers.map((container) => ({ placed, container })));
  const onKey = all.find(({ placed, container }) => {
    const liveness = container.probe('liveness');
    return liveness !== undefined && toVsRange(liveness.keyRange, placed).start.line === line;
  });
  return onKey ?? containerHoldingLine(all, line);
}

/**
 * Arguments of `probeLens.addStartupProbe`, all optional:
 * - `uri` (a `vscode.Uri` or its string form): the manifest; default the active editor's.
 * - `line`: 0-based line of the container's `livenessProbe` key, or any line inside the container;
 *   default the active editor's cursor line.
 * - `budgetSeconds`: how long the app may take to start; without it the user picks one.
 * It resolves to `true` when the startupProbe was inserted, `false` otherwise (cancelled, or the
 * reason shown as a warning).
 *
 *     await vscode.commands.executeCommand('probeLens.addStartupProbe', uri, 19, 120)
 */
export type AddStartupProbeArgs = [uri?: vscode.Uri | string, line?: number, budgetSeconds?: number];

export function registerAddStartupProbeCommand(models: ManifestModels): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.addStartupProbe, (...args: AddStartupProbeArgs) => addStartupProbe(models, args));
}

async function addStartupProbe(models: ManifestModels, [uri, line, budgetSeconds]: AddStartupProbeArgs): Promise<boolean> {
  const target = await targetOf(uri, line);
  if (!target) return refuse('Open a Kubernetes manifest and put the cursor on a livenessProbe first.');
  const found = livenessContainerAt(models.get(target.document), target.line);
  if (!found) return refuse(`No container at line ${target.line + 1} of ${vscode.workspace.asRelativePath(target.document.uri)}.`);
  const obstacle = startupProbeObstacle(found.container);
  if (obstacle) return refuse(obstacle);
  const budget = budgetSeconds ?? (await pickBudget(found.container.probe('liveness') as ProbeModel));
  if (budget === undefined) return false;
  // The text may have changed while the user was choosing: derive from the current version.
  const current = livenessContainerAt(models.get(target.document), target.line);
  if (!current) return refuse('The container changed while the budget was being chosen; try again.');
  if (current.placed.stale) return refuse('The manifest does not parse as it is now; fix the YAML first.');
  const derived = deriveStartupProbe(current.container, target.document.getText(), budget, current.placed.lineOffset);
  if (!derived.ok) return refuse(derived.reason);
  return vscode.workspace.applyEdit(workspaceEditOf(target.document.uri, [derived.probe.edit]));
}

async function targetOf(uri: vscode.Uri | string | undefined, line: number | undefined): Promise<{ document: vscode.TextDocument; line: number } | undefined> {
  const editor = vscode.window.activeTextEditor;
  const resolved = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
  const document = resolved ? await vscode.workspace.openTextDocument(resolved) : editor?.document;
  const at = line ?? (editor && document === editor.document ? editor.selection.active.line : undefined);
  return document && at !== undefined ? { document, line: at } : undefined;
}

/** The budgets offered first: common start-up times, from a quick service to a slow JVM or migration. */
const BUDGET_CHOICES_SECONDS = [30, 60, 120, 300, 600] as const;

interface BudgetItem extends vscode.QuickPickItem {
  /** `undefined` for "Custom…". */
  readonly budgetSeconds: number | undefined;
}

/** Asks how long the app may take to start; only budgets that make the startupProbe worth having. */
async function pickBudget(liveness: ProbeModel): Promise<number | undefined> {
  const period = liveness.effective.periodSeconds;
  const items: BudgetItem[] = BUDGET_CHOICES_SECONDS.filter((seconds) => !startupBudgetProblem(liveness, seconds)).map((seconds) => ({
    label: `${seconds} s`,
    description: `failureThreshold ${startupFailureThreshold(seconds, period)} × periodSeconds ${period}`,
    budgetSeconds: seconds,
  }));
  items.push({ label: 'Custom…', description: 'type a duration: 90, 90s, 2m', budgetSeconds: undefined });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Add a startupProbe',
    placeHolder: `How long may the app take to start? Liveness alone kills after ${livenessKillSeconds(liveness.effective)} s.`,
  });
  if (!picked) return undefined;
  return picked.budgetSeconds ?? askBudget(liveness);
}

async function askBudget(liveness: ProbeModel): Promise<number | undefined> {
  const typed = await vscode.window.showInputBox({
    title: 'Add a startupProbe',
    prompt: 'How long may the app take to start?',
    placeHolder: '90s, 5m',
    validateInput: (text) => budgetInputProblem(liveness, text),
  });
  return typed === undefined ? undefined : parseBudgetSeconds(typed);
}

function budgetInputProblem(liveness: ProbeModel, text: string): string | undefined {
  const seconds = parseBudgetSeconds(text);
  if (seconds === undefined) return 'A duration such as 90, 90s, 2m or 1h';
  return startupBudgetProblem(liveness, seconds);
}
