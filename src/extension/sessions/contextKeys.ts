import * as vscode from 'vscode';
import type { Sessions } from './sessions';

/** `probeLens.probing` (any session) and `probeLens.simulating` (a simulated one), for menus' `when` clauses. */
export function trackContextKeys(sessions: Sessions): vscode.Disposable {
  let probing: boolean | undefined;
  let simulating: boolean | undefined;
  const update = () => {
    const all = sessions.all;
    const nowProbing = all.length > 0;
    const nowSimulating = all.some((s) => s.kind === 'simulated');
    if (nowProbing !== probing) void vscode.commands.executeCommand('setContext', 'probeLens.probing', (probing = nowProbing));
    if (nowSimulating !== simulating) void vscode.commands.executeCommand('setContext', 'probeLens.simulating', (simulating = nowSimulating));
  };
  update();
  return sessions.onDidChange(update);
}
