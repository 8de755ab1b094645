import type * as vscode from 'vscode';
import type { KubectlError } from '../../core/k8s/kubectlErrors';
import { type TunnelChange, tunnelText } from '../../core/targets/portForward';
import { kubectlRemedy, notify, remedyActions, stderrBlock } from './notices';

/**
 * A cluster session's port-forwards, told to people: every change to the log (a drop with
 * kubectl's whole stderr), and a drop to the user once per pod and kind of trouble — the tunnel
 * retries on its own, so the same failure again is news to no one. A pod refusing the forwarded
 * port is the probe's own failure, reported as such, not here.
 */
export class TunnelNotices {
  private readonly told = new Set<string>();

  constructor(
    private readonly name: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  changed(pod: string, change: TunnelChange): void {
    if (change.state === 'up') {
      this.log.info(`[${this.name}] ${tunnelText(pod, change)}`);
      return;
    }
    this.log.warn(`[${this.name}] ${tunnelText(pod, change)}${stderrBlock(change.stderr)}`);
    const key = `${pod}\u0000${change.error.kind}`;
    if (change.error.kind === 'port-refused' || this.told.has(key)) return;
    this.told.add(key);
    void notify('warning', downText(pod, change.error), remedyActions(kubectlRemedy(change.error), this.log));
  }
}

/**
 * A pod that is gone was replaced (a rollout) or deleted: the session is bound to it by name,
 * so only a new start finds the manifest's pod again.
 */
function downText(pod: string, error: KubectlError): string {
  if (error.kind === 'not-found') return `pod ${pod} is gone from the cluster (replaced or deleted): start probing in the cluster again to find the manifest's pod anew`;
  return `port-forward to pod ${pod} is down: ${error.sentence}`;
}
