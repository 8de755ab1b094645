import { trailingFailures } from './outcomes';
import type { ContainerSnapshot, KillMode, PodSnapshot, ProbeSnapshot, SessionClock, SessionSnapshot } from './snapshot';
import { virtualTime } from '../text/durations';

/**
 * The worst thing in a session, in a few words, for the status bar and the session's row:
 * `web: CrashLoopBackOff · 7 restarts (liveness)`, `pod web-0 NotReady · web: readiness failing
 * 1/3`, `pod web-0 Ready`. Pure: every wording is a table test (test/core/session/headline.test.ts).
 */

/** How bad a container's condition is; a larger rank wins the headline. */
export const RANK = {
  completed: 0,
  ready: 1,
  starting: 2,
  notReady: 3,
  kubeletDisagrees: 4,
  livenessFailing: 5,
  startupFailing: 6,
  terminated: 7,
  restarting: 8,
  crashLoop: 9,
} as const;

export type Severity = 'error' | 'warning' | 'pending' | 'ok';

export interface Condition {
  readonly rank: number;
  readonly severity: Severity;
  /** `CrashLoopBackOff · 7 restarts (liveness)`, `readiness failing 1/3`, `ready`. */
  readonly text: string;
}

export interface Headline extends Condition {
  /** The pod and container it is about (the first of the worst), if any. */
  readonly pod?: string;
  readonly container?: string;
}

/**
 * What a kill under way is called, on every surface: `stopping` when nothing restarts the
 * container (restartPolicy Never), `would restart now` where Probe Lens only reports the kubelet's
 * kills (local and cluster sessions), `restarting` where the simulation carries them out.
 */
export function killingWord(killing: NonNullable<ContainerSnapshot['killing']>, kills: KillMode): string {
  if (!killing.restarts) return 'stopping';
  return kills === 'carried-out' ? 'restarting' : 'would restart now';
}

/** One container's condition: what is worst about it now. */
export function containerCondition(container: ContainerSnapshot, kills: KillMode): Condition {
  const restarts = restartsText(container, kills);
  if (container.state === 'waiting' && container.reason === 'CrashLoopBackOff') return condition('crashLoop', `CrashLoopBackOff · ${restarts}`);
  if (container.killing && container.state !== 'waiting') {
    if (!container.killing.restarts) return condition('restarting', `${killingWord(container.killing, kills)} (${container.killing.probe} failed)`);
    if (kills === 'reported') return condition('restarting', `would restart now · ${container.restarts}×${causeText(container)}`);
    return condition('restarting', `${killingWord(container.killing, kills)} · ${restarts}`);
  }
  if (container.state === 'terminated') {
    return container.reason === 'Completed' ? condition('completed', 'completed') : condition('terminated', `terminated (${container.reason ?? 'Error'})${container.restarts > 0 ? ` · ${restarts}` : ''}`);
  }
  if (container.state === 'waiting') return condition('starting', container.reason ? `waiting (${container.reason})` : 'waiting');
  const startup = failing(container.probes.get('startup'));
  if (!container.started && startup) return condition('startupFailing', `startup failing ${startup}`);
  const liveness = failing(container.probes.get('liveness'));
  if (liveness) return condition('livenessFailing', `liveness failing ${liveness}`);
  // In a cluster: our readiness and the kubelet's have differed long enough to say so.
  const disagreement = container.disagreement;
  if (disagreement) return condition('kubeletDisagrees', `kubelet says ${disagreement.kubelet ? 'ready' : 'not ready'}, ours ${disagreement.ours ? 'ready' : 'not ready'}`);
  if (container.ready) return condition('ready', 'ready');
  const readiness = failing(container.probes.get('readiness'));
  if (readiness) return condition('notReady', `readiness failing ${readiness}`);
  return container.started ? condition('notReady', 'not ready') : condition('starting', 'starting');
}

/**
 * A pod's headline: a container in trouble (`web: liveness failing 2/3`) by its name, else the
 * pod's readiness (`pod web-0 NotReady · web: starting`, `pod web-0 Ready`). `prefix` names the
 * pod before a container where the session has several.
 */
export function podHeadline(pod: PodSnapshot, kills: KillMode, prefix = false): Headline {
  let worst: { name: string; condition: Condition } | undefined;
  for (const container of pod.containers.values()) {
    const found = containerCondition(container, kills);
    if (!worst || found.rank > worst.condition.rank) worst = { name: container.name, condition: found };
  }
  if (!worst) return { ...condition('starting', `pod ${pod.name} starting`), pod: pod.name };
  const { name, condition: found } = worst;
  const who = prefix ? `${pod.name}/${name}` : name;
  if (found.rank >= RANK.kubeletDisagrees) return { ...found, text: `${who}: ${found.text}`, pod: pod.name, container: name };
  if (!pod.ready && found.rank !== RANK.completed) return { ...found, text: `pod ${pod.name} NotReady · ${who}: ${found.text}`, pod: pod.name, container: name };
  const restarts = [...pod.containers.values()].reduce((sum, c) => sum + c.restarts, 0);
  const text = `pod ${pod.name} ${pod.ready ? 'Ready' : found.text}${restarts > 0 ? ` · ${kills === 'reported' ? `would restart ${restarts}×` : plural(restarts, 'restart')}` : ''}`;
  return { ...found, text, pod: pod.name };
}

/** The session's headline: its worst pod's (the first of them); all Ready: `3 pods Ready`. */
export function sessionHeadline(snapshot: SessionSnapshot): Headline {
  const pods = [...snapshot.pods.values()];
  if (pods.length === 0) return condition('starting', 'starting');
  const several = pods.length > 1;
  let worst: Headline | undefined;
  for (const pod of pods) {
    const found = podHeadline(pod, snapshot.kills, several);
    if (!worst || found.rank > worst.rank) worst = found;
  }
  const headline = worst as Headline;
  if (several && headline.rank === RANK.ready && pods.every((p) => p.ready)) return { ...headline, text: `${pods.length} pods Ready` };
  return headline;
}


/** A simulation's clock as its row says it: `t+00:03:20 · 60×`, `t+00:03:20 · paused`; nothing on the wall clock. */
export function clockText(clock: SessionClock, t: number): string | undefined {
  if (clock.kind === 'wall') return undefined;
  return `${virtualTime(t)} · ${clock.paused ? 'paused' : `${clock.speed}×`}`;
}

/** `7 restarts (liveness)`, `1 restart (exited)`; where kills are only reported, `would restart 2× (liveness)`. */
export function restartsText(container: ContainerSnapshot, kills: KillMode): string {
  const count = kills === 'reported' && container.restarts > 0 ? `would restart ${container.restarts}×` : plural(container.restarts, 'restart');
  return `${count}${causeText(container)}`;
}

/** A row's or lens's `restarts 7 (liveness)`; where kills are only reported, `would restart 2× (liveness)` (and `restarts 0` before any). */
export function restartsLabel(container: ContainerSnapshot, kills: KillMode): string {
  const count = kills === 'reported' && container.restarts > 0 ? `would restart ${container.restarts}×` : `restarts ${container.restarts}`;
  return `${count}${causeText(container)}`;
}

/** ` (liveness)`, ` (exited)`: what ended the last instance, once there was a restart. */
function causeText(container: ContainerSnapshot): string {
  if (container.lastRestartCause === undefined || container.restarts === 0) return '';
  return ` (${container.lastRestartCause === 'exit' ? 'exited' : container.lastRestartCause})`;
}

/** Failures in a row toward the threshold (`2/3`) of the current instance, if any. */
function failing(probe: ProbeSnapshot | undefined): string | undefined {
  if (!probe) return undefined;
  const run = trailingFailures(probe.recent);
  if (run === 0) return undefined;
  const threshold = probe.failureThreshold;
  return threshold === undefined ? `${run}×` : `${Math.min(run, threshold)}/${threshold}`;
}

function condition(name: keyof typeof RANK, text: string): Condition {
  const rank = RANK[name];
  return { rank, severity: SEVERITY[name], text };
}

const SEVERITY: Readonly<Record<keyof typeof RANK, Severity>> = {
  completed: 'ok',
  ready: 'ok',
  starting: 'pending',
  notReady: 'warning',
  kubeletDisagrees: 'warning',
  livenessFailing: 'warning',
  startupFailing: 'error',
  terminated: 'error',
  restarting: 'error',
  crashLoop: 'error',
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
