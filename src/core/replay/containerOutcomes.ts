import type { EngineEvent } from '../engine/events';
import type { KillMode } from '../session/snapshot';
import { roundSeconds } from '../text/durations';

/**
 * What a run did to each container, in the figures a replay compares: the same function reads the
 * recording (what happened) and the replay (what the other configuration would have done), so
 * the two sides can only differ by what happened in them.
 */
export interface ContainerOutcome {
  readonly pod: string;
  readonly container: string;
  /** New container instances after the first (the engine's restarts, carried out or "would restart"). */
  readonly restarts: number;
  /** Seconds since the run began when it was first Ready; `null` if never. */
  readonly timeToReady: number | null;
  /** Seconds not Ready from its first start to the end of the run; `null` if it never started. */
  readonly timeNotReady: number | null;
  /** The kubelet's kills for a failed probe (K2), by probe. */
  readonly kills: KillCounts;
}

export interface KillCounts {
  readonly liveness: number;
  readonly startup: number;
}

export interface OutcomeOptions {
  /** Seconds since the run began at which it ends (time not Ready counts up to here). */
  readonly until: number;
  /**
   * In a cluster recording our kills are predictions; the kills that happened are those the
   * cluster confirmed. Elsewhere they are the `Killing` events (carried out, or reported).
   */
  readonly kills: KillMode;
}

interface Tally {
  pod: string;
  container: string;
  lastId: string | undefined;
  starts: number;
  firstStart: number | undefined;
  firstReady: number | undefined;
  ready: boolean;
  /** When the current not-Ready stretch began (since the first start). */
  notReadySince: number | undefined;
  notReady: number;
  liveness: number;
  startup: number;
}

/** Per `pod/container`, in the order the run first names them. */
export function containerOutcomes(events: Iterable<EngineEvent>, options: OutcomeOptions): Map<string, ContainerOutcome> {
  const tallies = new Map<string, Tally>();
  const tally = (pod: string, container: string): Tally => {
    const key = outcomeKey(pod, container);
    let found = tallies.get(key);
    if (!found) tallies.set(key, (found = { pod, container, lastId: undefined, starts: 0, firstStart: undefined, firstReady: undefined, ready: false, notReadySince: undefined, notReady: 0, liveness: 0, startup: 0 }));
    return found;
  };
  for (const event of events) {
    if (event.t > options.until) break;
    switch (event.type) {
      case 'container':
        if (event.state === 'running' && event.containerId !== '') started(tally(event.pod, event.container), event.containerId, event.t);
        break;
      case 'status':
        readiness(tally(event.pod, event.container), event.ready, event.t);
        break;
      case 'event':
        if (options.kills !== 'cluster' && event.reason === 'Killing' && event.container !== undefined && (event.probe === 'liveness' || event.probe === 'startup')) tally(event.pod, event.container)[event.probe]++;
        break;
      case 'prediction':
        if (options.kills === 'cluster' && event.state === 'confirmed') tally(event.pod, event.container)[event.probe]++;
        break;
      default:
        break;
    }
  }
  const outcomes = new Map<string, ContainerOutcome>();
  for (const [key, t] of tallies) {
    const open = t.notReadySince === undefined ? 0 : Math.max(0, options.until - t.notReadySince);
    outcomes.set(key, {
      pod: t.pod,
      container: t.container,
      restarts: Math.max(0, t.starts - 1),
      timeToReady: t.firstReady === undefined ? null : roundSeconds(t.firstReady),
      timeNotReady: t.firstStart === undefined ? null : roundSeconds(t.notReady + open),
      kills: { liveness: t.liveness, startup: t.startup },
    });
  }
  return outcomes;
}

export function outcomeKey(pod: string, container: string): string {
  return `${pod}/${container}`;
}

function started(t: Tally, containerId: string, at: number): void {
  if (containerId === t.lastId) return;
  t.lastId = containerId;
  t.starts++;
  if (t.firstStart !== undefined) return;
  t.firstStart = at;
  // Not Ready from its start until a status says otherwise.
  if (!t.ready) t.notReadySince = at;
}

function readiness(t: Tally, ready: boolean, at: number): void {
  if (ready && t.firstReady === undefined) t.firstReady = at;
  if (ready === t.ready) return;
  t.ready = ready;
  if (t.firstStart === undefined) return;
  if (ready && t.notReadySince !== undefined) {
    t.notReady += at - t.notReadySince;
    t.notReadySince = undefined;
  } else if (!ready) t.notReadySince = at;
}
