/**
 * Notifications, input boxes and quick picks, seen and answered from inside the extension host.
 * The workbench has no API to read a toast back, so the `vscode.window` functions are wrapped
 * while a test runs (the extension and the suites share one `vscode` API object: both live
 * under the extension's folder): each call is recorded and the notification still shown, and the
 * test answers it as a click would.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './harness';

type Severity = 'error' | 'warning' | 'info';

export interface Shown {
  readonly severity: Severity;
  readonly message: string;
  readonly buttons: readonly string[];
}

/** What a test answers a notification with: a button's title, or `undefined` (dismissed). */
type Answer = (shown: Shown) => string | undefined;

export interface Capture {
  readonly shown: Shown[];
  /** Resolves with the first notification whose text `matches`. */
  next(matches: RegExp | string, timeoutMs?: number): Promise<Shown>;
  restore(): void;
}

const WINDOW = vscode.window as unknown as Record<string, (...args: unknown[]) => unknown>;
const SHOW_FUNCTIONS: Readonly<Record<Severity, string>> = { error: 'showErrorMessage', warning: 'showWarningMessage', info: 'showInformationMessage' };

/**
 * Records every notification while it runs, still showing it (so it can be seen and
 * photographed), and answers it with `answer` as if its button had been clicked.
 */
export function captureMessages(answer: Answer = () => undefined): Capture {
  const shown: Shown[] = [];
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const [severity, name] of Object.entries(SHOW_FUNCTIONS) as [Severity, string][]) {
    const original = WINDOW[name] as (...args: unknown[]) => unknown;
    originals.set(name, original);
    WINDOW[name] = (message: unknown, ...rest: unknown[]) => {
      const buttons = rest.filter((r): r is string => typeof r === 'string');
      const entry = { severity, message: String(message), buttons };
      shown.push(entry);
      void Promise.resolve(original.call(vscode.window, message, ...rest));
      return Promise.resolve(answer(entry));
    };
  }
  const text = (m: RegExp | string, s: Shown) => (typeof m === 'string' ? s.message === m : m.test(s.message));
  return {
    shown,
    next: (matches, timeoutMs = 15_000) => waitFor(() => shown.find((s) => text(matches, s)), timeoutMs, () => `a notification ${String(matches)} (shown: ${JSON.stringify(shown.map((s) => s.message))})`),
    restore: () => {
      for (const [name, original] of originals) WINDOW[name] = original;
    },
  };
}

/** Answers the next input box with what `reply` returns for its options (it may try `validateInput` first). */
export function answerInputBox(reply: (options: vscode.InputBoxOptions) => Promise<string | undefined> | string | undefined): { asked: vscode.InputBoxOptions[]; restore: () => void } {
  const original = WINDOW['showInputBox'] as (...args: unknown[]) => unknown;
  const asked: vscode.InputBoxOptions[] = [];
  WINDOW['showInputBox'] = (options: unknown) => {
    asked.push(options as vscode.InputBoxOptions);
    return Promise.resolve(reply(options as vscode.InputBoxOptions));
  };
  return { asked, restore: () => (WINDOW['showInputBox'] = original) };
}

/** Answers the next quick picks with the item `choose` returns (by label), recording what each offered. */
export function answerQuickPick(choose: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined): { offered: (readonly vscode.QuickPickItem[])[]; restore: () => void } {
  const original = WINDOW['showQuickPick'] as (...args: unknown[]) => unknown;
  const offered: (readonly vscode.QuickPickItem[])[] = [];
  WINDOW['showQuickPick'] = async (items: unknown) => {
    const list = (await Promise.resolve(items)) as readonly vscode.QuickPickItem[];
    offered.push(list);
    return choose(list);
  };
  return { offered, restore: () => (WINDOW['showQuickPick'] = original) };
}

/** The Settings editor is the active tab (what *Open Settings* opens). */
export function settingsEditorActive(): boolean {
  return vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Settings';
}

/** The Probe Lens output channel is showing, and holds `text`. */
export function outputShows(text: string | RegExp): boolean {
  const holds = (shown: string) => (typeof text === 'string' ? shown.includes(text) : text.test(shown));
  return vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'output' && /Probe Lens/.test(e.document.uri.path) && holds(e.document.getText()));
}

/** No editor and no panel: what a button opens is then its doing. */
export async function clearWorkbench(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closePanel');
  await closeAllEditors();
  assert.ok(!settingsEditorActive() && !vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'output'), 'neither the Settings editor nor the output is showing yet');
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor(() => vscode.window.tabGroups.all.every((g) => g.tabs.length === 0), 5_000, 'every editor closed');
}

/** Records the commands run through `vscode.commands.executeCommand` (still running them). */
export function recordCommands(): { calls: { command: string; args: unknown[] }[]; restore: () => void } {
  const commands = vscode.commands as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = commands['executeCommand'] as (...args: unknown[]) => unknown;
  const calls: { command: string; args: unknown[] }[] = [];
  commands['executeCommand'] = (command: unknown, ...args: unknown[]) => {
    calls.push({ command: String(command), args });
    return original.call(vscode.commands, command, ...args);
  };
  return { calls, restore: () => (commands['executeCommand'] = original) };
}

/**
 * The command *Open Settings* should run for a `machine`-scoped setting: in a remote window
 * (code-server is one) the Settings editor lists those only on its Remote tab.
 */
export function openMachineSettingCall(setting: string): { command: string; args: unknown[] } {
  return vscode.env.remoteName !== undefined ? { command: 'workbench.action.openRemoteSettings', args: [{ query: setting }] } : { command: 'workbench.action.openSettings', args: [setting] };
}
