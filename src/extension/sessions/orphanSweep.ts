import * as vscode from 'vscode';
import { reapOrphanedProxies } from '../../core/kubeclient/orphanProxies';

/**
 * Once the extension has activated, and off its path: the `kubectl proxy` processes an extension
 * host that was killed left behind (each proxy's private directory names its host) are ended,
 * and the log says which. Ending our own leftovers starts nothing, so it needs no trust.
 */
export function sweepOrphanedProxies(log: vscode.LogOutputChannel): vscode.Disposable {
  const timer = setTimeout(() => {
    const reaped = reapOrphanedProxies();
    if (reaped.length > 0) log.info(`ended ${reaped.length} kubectl proxy process${reaped.length === 1 ? '' : 'es'} (pid ${reaped.join(', ')}) left running by a Probe Lens that was stopped without ending them`);
  }, 0);
  return new vscode.Disposable(() => clearTimeout(timer));
}
