import * as vscode from 'vscode';
import { baseName } from '../documents/fileNames';
import { commandKey, commandsHash, type ExecCommand } from './execCommands';

/** Asks the user whether a manifest's exec probes may run; `true` means yes. */
export type ConsentPrompt = (manifest: vscode.Uri, commands: readonly ExecCommand[]) => Thenable<boolean>;

/**
 * `none`: no exec probes to ask about; `disabled`: `probeLens.exec.probes` is `never`;
 * `allowed`: agreed now or before; `refused`: the user said no (or dismissed the question).
 */
export type ExecDecision = 'none' | 'disabled' | 'allowed' | 'refused';

/** workspaceState key: manifest URI → digests of the command sets the user agreed to. */
const STATE_KEY = 'probeLens.execConsent';
/** Digests kept per manifest: switching between a few versions of a command asks once each. */
const KEPT_PER_MANIFEST = 10;
const RUN = 'Run Exec Probes';
const LISTED = 20;

type Consents = Record<string, string[]>;

/**
 * Exec probes run the manifest's commands on this machine, so they run only after the user
 * agreed, once per manifest and set of commands, remembered for the workspace: an edited command
 * asks again. Refusals are not remembered — the next explicit start asks again.
 */
export class ExecConsent {
  private prompt: ConsentPrompt;

  constructor(
    private readonly state: vscode.Memento,
    prompt: ConsentPrompt = askModal,
  ) {
    this.prompt = prompt;
  }

  async decide(manifest: vscode.Uri, commands: readonly ExecCommand[], setting: 'ask' | 'never'): Promise<ExecDecision> {
    if (commands.length === 0) return 'none';
    if (setting === 'never') return 'disabled';
    if (this.isRemembered(manifest, commands)) return 'allowed';
    if (!(await this.prompt(manifest, commands))) return 'refused';
    await this.remember(manifest, commands);
    return 'allowed';
  }

  isRemembered(manifest: vscode.Uri, commands: readonly ExecCommand[]): boolean {
    return (this.consents()[manifest.toString()] ?? []).includes(commandsHash(commands));
  }

  /** Forgets one manifest's answers, or every answer; resolves with how many manifests were forgotten. */
  async forget(manifest?: vscode.Uri): Promise<number> {
    const consents = this.consents();
    const keys = manifest ? [manifest.toString()].filter((k) => k in consents) : Object.keys(consents);
    for (const key of keys) delete consents[key];
    await this.state.update(STATE_KEY, Object.keys(consents).length > 0 ? consents : undefined);
    return keys.length;
  }

  /** Tests answer the question instead of a person; disposing restores the real prompt. */
  overridePrompt(prompt: ConsentPrompt): vscode.Disposable {
    const previous = this.prompt;
    this.prompt = prompt;
    return new vscode.Disposable(() => {
      this.prompt = previous;
    });
  }

  private async remember(manifest: vscode.Uri, commands: readonly ExecCommand[]): Promise<void> {
    const consents = this.consents();
    const key = manifest.toString();
    const digests = (consents[key] ?? []).filter((d) => d !== commandsHash(commands));
    consents[key] = [...digests, commandsHash(commands)].slice(-KEPT_PER_MANIFEST);
    await this.state.update(STATE_KEY, consents);
  }

  private consents(): Consents {
    const stored = this.state.get<unknown>(STATE_KEY);
    if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return {};
    const consents: Consents = {};
    for (const [key, value] of Object.entries(stored)) if (Array.isArray(value)) consents[key] = value.filter((d): d is string => typeof d === 'string');
    return consents;
  }
}

/** The modal question, listing each distinct command line once with the probes that run it. */
async function askModal(manifest: vscode.Uri, commands: readonly ExecCommand[]): Promise<boolean> {
  const byLine = new Map<string, string[]>();
  for (const command of commands) {
    const key = commandKey(command.argv);
    byLine.set(key, [...(byLine.get(key) ?? []), `${command.pod}/${command.container} ${command.probe}`]);
  }
  const lines = [...byLine].slice(0, LISTED).map(([argv, probes]) => `${argv}\n    (${probes.join(', ')})`);
  if (byLine.size > LISTED) lines.push(`… and ${byLine.size - LISTED} more`);
  const name = baseName(manifest);
  const detail = `They run these commands on this machine, as you, with your environment, every period of each probe:\n\n${lines.join('\n')}\n\nThe answer is remembered for this workspace until a command changes (Probe Lens: Forget Exec Probe Consent).`;
  const answer = await vscode.window.showWarningMessage(`Run exec probes from ${name} on this machine?`, { modal: true, detail }, RUN);
  return answer === RUN;
}
