import * as vscode from 'vscode';
import { readForwardRefusal } from '../../core/cluster/clusterTarget';
import { notify, remedyActions } from './notices';
import type { ProbingSession } from './probingSession';

/** `user "dev" may not get pods/portforward …`: the cluster's RBAC said no. */
const RBAC_DENIAL = /^user "[^"]*" may not /;

/**
 * A cluster session's port-forwards that the cluster refuses (a pod gone, the API server
 * away), told to people once per pod and reason: every attempt meets the same refusal, and each
 * is in the log already as an errored probe. A pod refusing the forwarded port is the probe's
 * own failure, reported as such, not here.
 */
export function forwardNotices(session: ProbingSession, name: string, log: vscode.LogOutputChannel): vscode.Disposable {
  const told = new Set<string>();
  return session.onDidRecord((event) => {
    if (event.type !== 'attempt' || event.error === undefined) return;
    const refused = readForwardRefusal(event.error);
    // RBAC's refusal (403) ends the session, which says so in words of its own.
    if (!refused || told.has(event.error) || RBAC_DENIAL.test(refused.why)) return;
    told.add(event.error);
    log.warn(`[${name}] ${event.error}`);
    void notify('warning', `port-forward to pod ${refused.pod} is refused: ${refused.why}`, remedyActions({ output: true }, log));
  });
}
