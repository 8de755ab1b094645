import * as vscode from 'vscode';
import type { Sessions } from './sessions';

/**
 * For menus' `when` clauses: `probeLens.probing` (any session runs), `probeLens.simulating` (a
 * simulation runs), `probeLens.simulationPlaying` / `probeLens.simulationPaused` (one plays / one
 * is paused), `probeLens.endedSession` (an ended session is kept to be reviewed). Each is set
 * only when it changes.
 */
export function trackContextKeys(sessions: Sessions): vscode.Disposable {
  const set = new Map<string, boolean>();
  const put = (key: string, value: boolean) => {
    if (set.get(key) === value) return;
    set.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  };
  const update = () => {
    const all = sessions.all;
    const simulations = all.filter((s) => s.simulation !== undefined);
    put('probeLens.probing', all.length > 0);
    put('probeLens.simulating', simulations.length > 0);
    put('probeLens.simulationPlaying', simulations.some((s) => s.simulation?.paused === false));
    put('probeLens.simulationPaused', simulations.some((s) => s.simulation?.paused === true));
    put('probeLens.endedSession', sessions.ended !== undefined);
  };
  update();
  return sessions.onDidChange(update);
}
