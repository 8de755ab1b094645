import * as vscode from 'vscode';
import { SECTION } from '../base/settings';
import { commandKey, type ExecCommand } from './execCommands';
import type { ExecConsent, ExecDecision } from './execConsent';
import type { ExecGate } from './execGate';

const EXEC_SETTING = `${SECTION}.exec.probes`;

/**
 * Keeps a local session's exec gate in step with the user's consent while the manifest changes:
 * commands agreed to (now or earlier in this workspace) are let through; a new or edited command
 * is asked about once; one refused in this session is not asked about again until the next start.
 * Turning `probeLens.exec.probes` to `never` closes the gate at once.
 */
export class SessionExecGuard implements vscode.Disposable {
  private readonly refused = new Set<string>();
  private asking = false;
  private queued: readonly ExecCommand[] | undefined;
  private latest: readonly ExecCommand[] = [];
  private readonly subscription: vscode.Disposable;
  private disposed = false;

  constructor(
    private readonly manifest: vscode.Uri,
    private readonly gate: ExecGate,
    private readonly consent: ExecConsent,
    private readonly setting: () => 'ask' | 'never',
  ) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(EXEC_SETTING)) return;
      if (this.setting() === 'never') this.gate.revokeAll();
      else void this.review(this.latest);
    });
  }

  /** `commands`: every exec probe of the manifest now. Resolves once the gate reflects the answer. */
  async review(commands: readonly ExecCommand[]): Promise<ExecDecision | 'pending'> {
    this.latest = commands;
    if (commands.length === 0) return 'none';
    if (this.setting() === 'never') return 'disabled';
    if (this.disposed) return 'refused';
    if (this.asking) {
      this.queued = commands;
      return 'pending';
    }
    const unseen = commands.filter((c) => !this.gate.isAllowed(c.argv) && !this.refused.has(commandKey(c.argv)));
    if (unseen.length === 0) return commands.every((c) => this.gate.isAllowed(c.argv)) ? 'allowed' : 'refused';
    this.asking = true;
    let decision: ExecDecision;
    try {
      decision = await this.consent.decide(this.manifest, commands, this.setting());
    } finally {
      this.asking = false;
    }
    // The session may have stopped, or the setting changed, while the question was open.
    if (!this.disposed && decision === 'allowed' && this.setting() !== 'never') for (const c of commands) this.gate.allow(c.argv);
    if (decision === 'refused') for (const c of unseen) this.refused.add(commandKey(c.argv));
    const queued = this.queued;
    this.queued = undefined;
    if (queued && !this.disposed) void this.review(queued);
    return decision;
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
  }
}
