import * as vscode from 'vscode';
import type { NextEvent } from '../../core/session/playback';
import { virtualTime } from '../../core/text/durations';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';
import { readTarget, sessionOf } from './args';
import { pickSession } from './pickers';
import { notify } from '../sessions/notices';
import { stepText } from '../../core/text/durations';
import { COMMANDS } from '../base/commandIds';

/** Virtual seconds per real second the speed picker offers. */
const SIMULATION_SPEEDS: readonly number[] = [1, 10, 60, 600, 3600];

/**
 * A simulation's controls: pause, resume, change speed, step to the next event. Each takes a row
 * of the Probes view, `{sessionId | uri}`, or nothing (the active manifest's simulation, else one
 * picked), resolves with what it did (`undefined` when it did nothing). Its effect shows at once
 * in the Probes view and the status bar (the session publishes a snapshot), and in the lenses as
 * soon as VS Code asks for them again.
 */
export function registerSimulationCommands(sessions: Sessions): vscode.Disposable {
  const register = (id: string, run: (session: ProbingSession, args: readonly unknown[]) => unknown, title: string) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      const session = await simulationOf(sessions, args, title);
      return session ? run(session, args) : undefined;
    });
  return vscode.Disposable.from(
    register(COMMANDS.pauseSimulation, (session) => playing(session, false), 'Pause Simulation'),
    register(COMMANDS.resumeSimulation, (session) => playing(session, true), 'Resume Simulation'),
    register(COMMANDS.setSimulationSpeed, (session, args) => setSpeed(session, readTarget(args).speed), 'Set Simulation Speed'),
    register(COMMANDS.nextSimulationEvent, (session) => nextEvent(session), 'Next Simulation Event'),
  );
}

/** `pauseSimulation` / `resumeSimulation([row | {sessionId | uri}])` → whether it is paused now. */
function playing(session: ProbingSession, play: boolean): boolean | undefined {
  const controls = session.simulation;
  if (!controls) return undefined;
  if (play) controls.resume();
  else controls.pause();
  return controls.paused;
}

/** `setSimulationSpeed([row | {sessionId | uri, speed}])` → the speed now playing; picked when not given. */
async function setSpeed(session: ProbingSession, given: number | undefined): Promise<number | undefined> {
  const controls = session.simulation;
  if (!controls) return undefined;
  const speed = given ?? (await pickSpeed(controls.speed));
  if (speed === undefined) return undefined;
  if (!controls.setSpeed(speed)) return fail(`the speed must be a positive number of virtual seconds per real second, not ${speed}`);
  return speed;
}

/** `nextSimulationEvent([row | {sessionId | uri}])` → the jump (`at`: virtual ms); the simulation stays paused there. */
function nextEvent(session: ProbingSession): NextEvent | undefined {
  const jumped = session.simulation?.nextEvent();
  if (jumped && !jumped.ok) void notify('info', `${session.label} stays at ${virtualTime(session.elapsedSeconds)}: ${jumped.reason}.`);
  return jumped;
}

async function pickSpeed(current: number): Promise<number | undefined> {
  const items = SIMULATION_SPEEDS.map((speed) => ({
    label: `${speed}×`,
    description: `${speed === current ? 'now · ' : ''}${speed === 1 ? 'real time' : `a minute in ${stepText(60 / speed)}`}`,
    speed,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title: 'Simulation speed', placeHolder: `Virtual seconds per real second (now ${current}×)` });
  return chosen?.speed;
}


/** The simulation a command is about: the row's, the one named, the active manifest's, else one picked. */
async function simulationOf(sessions: Sessions, args: readonly unknown[], title: string): Promise<ProbingSession | undefined> {
  const target = readTarget(args);
  const named = sessionOf(target, sessions);
  const simulations = sessions.all.filter((s) => s.simulation !== undefined);
  // Named by the command's arguments: that one. Otherwise the active manifest's, if a simulation, or one picked.
  const given = target.node !== undefined || target.sessionId !== undefined || target.uri !== undefined;
  const session = given || named?.simulation ? named : await pickSession(simulations, title);
  if (!session || session.isStopped || !session.simulation) return fail(`${title} needs a running simulation: start one with Probe Lens: Simulate…`);
  return session;
}

function fail(reason: string): undefined {
  void notify('error', reason);
  return undefined;
}
