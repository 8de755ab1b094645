import type { ContainerHistory, InstanceHistory } from './history';
import { roundSeconds, secondsText } from '../text/durations';

/**
 * How a container's instances ended, as a scenario says it: the app exited by itself
 * (`exitAfter`, `exitCode`), and how long it took to stop after SIGTERM (`stopAfter`) — from a
 * recording whose kills were carried out (a simulation): a local run's never reached the process,
 * and a cluster's are not in our events.
 */
export interface InstanceEnds {
  readonly exit: ScriptedExitSeen | undefined;
  readonly stopAfter: number | undefined;
}

export function instanceEnds(container: ContainerHistory, spans: readonly number[], notes: string[]): InstanceEnds {
  return killedEnds(container, exitOf(container, spans, notes), notes);
}

export interface ScriptedExitSeen {
  readonly after: number;
  readonly code: number;
}

/**
 * The app exited by itself (no `Killing` before its `terminated` line): when, from the first
 * instance that reached that moment, and with what code (`Completed` is 0, else 1). An exit
 * during a kill's grace period hides behind the kill: killed instances that all ended at the same
 * moment since their start, however long after their SIGTERM, exited then.
 */
function exitOf(container: ContainerHistory, spans: readonly number[], notes: string[]): ScriptedExitSeen | undefined {
  let chosen: (ScriptedExitSeen & { instance: number }) | undefined;
  let coveredBefore = 0;
  const otherwise: string[] = [];
  for (const [index, instance] of container.instances.entries()) {
    const exitAt = exitTime(instance);
    const endAt = endTime(instance);
    if (exitAt !== undefined && chosen === undefined && exitAt >= coveredBefore) {
      chosen = { after: exitAt, code: exitCodeOf(instance), instance: index };
    } else if (chosen !== undefined && index > chosen.instance) {
      const ranPast = exitAt === undefined && (spans[index] ?? 0) > chosen.after + 1 && endAt !== chosen.after;
      if (ranPast || (exitAt !== undefined && Math.abs(exitAt - chosen.after) > 1)) otherwise.push(`restart ${index}: ${exitAt === undefined ? `ran ${secondsText(spans[index] ?? 0)}` : `exited after ${secondsText(exitAt)}`}`);
    } else if (exitAt !== undefined) {
      otherwise.push(`restart ${index}: exited after ${secondsText(exitAt)}, earlier than the first instance that ran that long`);
    }
    coveredBefore = Math.max(coveredBefore, spans[index] ?? 0);
  }
  if (otherwise.length > 0) notes.push(`exits differ between instances (${otherwise.slice(0, 3).join('; ')}${otherwise.length > 3 ? '; …' : ''})${chosen ? `: exitAfter ${secondsText(chosen.after)} is the first instance's to get there` : ''}`);
  return chosen === undefined ? undefined : { after: chosen.after, code: chosen.code };
}

function exitCodeOf(instance: InstanceHistory): number {
  return instance.end?.terminated.event.reason === 'Completed' ? 0 : 1;
}

/** The grace period the API gives a pod by default (terminationGracePeriodSeconds). */
const DEFAULT_GRACE_SECONDS = 30;

/**
 * What ended the instances the kubelet killed (a failed probe, the pod's deletion): each ends at
 * its SIGTERM plus the app's `stopAfter`, or at its own exit if that comes first. So the longest
 * wait after SIGTERM is `stopAfter` — none when it is the default grace period or more (the app
 * ignores SIGTERM until SIGKILL) — and shorter waits are an exit during the grace period, when
 * they all came at one moment since their start. A shorter grace period run out looks the same
 * as a `stopAfter`: the note says so.
 */
function killedEnds(container: ContainerHistory, exit: ScriptedExitSeen | undefined, notes: string[]): { exit: ScriptedExitSeen | undefined; stopAfter: number | undefined } {
  const killed = container.instances.filter((i) => i.end?.killing !== undefined);
  if (killed.length === 0) return { exit, stopAfter: undefined };
  const waits = killed.map(waitAfterSigterm);
  const longest = Math.max(...waits);
  const early = killed.filter((_, i) => (waits[i] as number) < longest - 0.5);
  const earlyEnds = new Set(early.map(endTime));
  let foundExit = exit;
  if (early.length > 0 && earlyEnds.size === 1 && (exit === undefined || earlyEnds.has(exit.after))) foundExit ??= { after: endTime(early[0] as InstanceHistory) as number, code: exitCodeOf(early[0] as InstanceHistory) };
  else if (early.length > 0) notes.push(`the app ended ${secondsText(Math.min(...waits))} to ${secondsText(longest)} after SIGTERM: the scenario takes ${secondsText(longest)}`);
  if (longest >= DEFAULT_GRACE_SECONDS) return { exit: foundExit, stopAfter: undefined };
  notes.push(`the app ended ${secondsText(longest)} after SIGTERM: stopAfter (had a grace period that short run out instead, a longer one would not stop it as soon)`);
  return { exit: foundExit, stopAfter: longest };
}

function waitAfterSigterm(instance: InstanceHistory): number {
  return roundSeconds((instance.end?.terminated.event.t ?? 0) - (instance.end?.killing?.event.t ?? 0));
}

/** Seconds since its start at which an instance ended, if it did. */
function endTime(instance: InstanceHistory): number | undefined {
  return instance.end === undefined ? undefined : roundSeconds(instance.end.terminated.event.t - instance.startedAt);
}

function exitTime(instance: InstanceHistory): number | undefined {
  return instance.end?.cause === 'exit' ? endTime(instance) : undefined;
}
