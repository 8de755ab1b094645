import * as vscode from 'vscode';
import type { KubectlError } from '../../core/kubeclient/kubectlErrors';
import { sentenceEnd } from '../../core/text/sentence';

/** Every notification of the extension starts so: VS Code shows no sender for a toast. */
export const PREFIX = 'Probe Lens: ';

const OPEN_SETTINGS = 'Open Settings';
const SHOW_OUTPUT = 'Show Output';
const MANAGE_TRUST = 'Manage Workspace Trust';

/**
 * What can be done about a failure, besides reading it: each becomes a button. Carried with the
 * failure (`Outcome`), so whoever shows it offers the way out that fits.
 */
export interface Remedy {
  /** A setting that fixes it (`probeLens.kubectlPath`): *Open Settings* opens the Settings editor at it. */
  readonly setting?: string;
  /** The log holds more than the sentence (kubectl's whole stderr): *Show Output*. */
  readonly output?: boolean;
  /** Trusting the workspace fixes it: *Manage Workspace Trust*. */
  readonly trust?: boolean;
}

/** A button and what it does when clicked. */
export interface NoticeAction {
  readonly title: string;
  readonly run: () => unknown;
}

export type Severity = 'error' | 'warning' | 'info';

const SHOW: Readonly<Record<Severity, (message: string, ...items: string[]) => Thenable<string | undefined>>> = {
  error: (message, ...items) => vscode.window.showErrorMessage(message, ...items),
  warning: (message, ...items) => vscode.window.showWarningMessage(message, ...items),
  info: (message, ...items) => vscode.window.showInformationMessage(message, ...items),
};

/**
 * Shows `text` as one sentence with its buttons and runs the one clicked. Resolves once that has
 * run (or the toast was dismissed); callers do not wait for it — a toast can stay up for ever.
 */
export async function notify(severity: Severity, text: string, actions: readonly NoticeAction[] = []): Promise<void> {
  const chosen = await SHOW[severity](noticeText(text), ...actions.map((a) => a.title));
  await actions.find((a) => a.title === chosen)?.run();
}

/** `Probe Lens: ` and the text as a sentence (a full stop at its end); a text that names the product already keeps its own start. */
function noticeText(text: string): string {
  const sentence = sentenceEnd(text);
  return sentence.startsWith('Probe Lens') ? sentence : PREFIX + sentence;
}

/** The buttons of a remedy, in the order people look for them: the fix, then the details. */
export function remedyActions(remedy: Remedy | undefined, log: vscode.LogOutputChannel): NoticeAction[] {
  if (!remedy) return [];
  const actions: NoticeAction[] = [];
  if (remedy.trust) actions.push({ title: MANAGE_TRUST, run: () => vscode.commands.executeCommand('workbench.trust.manage') });
  if (remedy.setting) actions.push(openSettingAction(remedy.setting));
  if (remedy.output) actions.push({ title: SHOW_OUTPUT, run: () => log.show(true) });
  return actions;
}

/**
 * The settings *Open Settings* may open that are `machine`-scoped (package.json): in a remote
 * window (SSH, a container, code-server) the Settings editor lists them only on its Remote tab,
 * and its User tab would say "No Settings Found".
 */
const MACHINE_SETTINGS: ReadonlySet<string> = new Set(['probeLens.kubectlPath', 'probeLens.helm.path', 'probeLens.kustomize.path', 'probeLens.local.allowedHosts', 'probeLens.exec.probes']);

/** *Open Settings*: the Settings editor, searched for `setting`, on the tab that shows it. */
export function openSettingAction(setting: string): NoticeAction {
  const remote = vscode.env.remoteName !== undefined && MACHINE_SETTINGS.has(setting);
  return {
    title: OPEN_SETTINGS,
    run: () => (remote ? vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: setting }) : vscode.commands.executeCommand('workbench.action.openSettings', setting)),
  };
}

/**
 * kubectl that cannot be run is fixed in the setting that names it; anything kubectl itself said
 * is fixed outside Probe Lens (the kubeconfig, the cluster, RBAC), and its whole stderr is in the log.
 */
export function kubectlRemedy(error: KubectlError): Remedy {
  return error.kind === 'kubectl-missing' ? { setting: 'probeLens.kubectlPath' } : { output: true };
}

/** How kubectl is named in the extension, for the sentence when it cannot be found. */
export const KUBECTL_NAMED_BY = 'the probeLens.kubectlPath setting';

/** kubectl's stderr on lines under the log line that names it, indented so it reads as one entry; '' when it wrote nothing. */
export function stderrBlock(stderr: string): string {
  const text = stderr.trim();
  return text ? `\n${text.split('\n').map((line) => `    ${line}`).join('\n')}` : '';
}
