import type * as vscode from 'vscode';
import { type PausedContainer, type PauseCountdown, pauseCountdown, pauseCountdownDetail, pauseCountdownText, probeTiming } from '../../core/pause/pauseCountdown';
import { PROBING_CONTAINERS } from '../../core/manifest';
import type { ProbingSession } from '../sessions/probingSession';
import type { Hold, PauseLedger } from './pauseLedger';

/** One container of a probing session whose program a debugger holds: its countdown, in words. */
export interface ContainerCountdown {
  readonly session: ProbingSession;
  /** The manifest's pod (as `desiredPodsOf` names it), whatever cluster pod it is probed through. */
  readonly pod: string;
  readonly container: string;
  readonly countdown: PauseCountdown;
  /** `paused 12 s — in the cluster liveness would restart api in 18 s (3 × 10 s)`: plain, for the status bar and a lens title. */
  readonly text: string;
  /** The same in Markdown (the container's name as code), for a tooltip. */
  readonly markdown: string;
  /** How it was reached, for a tooltip. */
  readonly detail: string;
  /** The restart would already have happened. */
  readonly overdue: boolean;
}

/** What the status bar and the lenses draw from while a debugger holds a probed program. */
export interface PauseCountdowns {
  /** A hold began or ended, or a second passed while one lasts. */
  readonly onDidChange: vscode.Event<void>;
  /** Every container of every held session, the most urgent first. */
  all(): readonly ContainerCountdown[];
  /** A manifest's container, by the manifest's pod name: the most urgent of the pods it runs as. */
  forContainer(uri: vscode.Uri, pod: string, container: string): ContainerCountdown | undefined;
}

/**
 * The countdowns of one held session's containers, now. A local session is the kubelet here: its
 * own ticks and runs make the time exact. A cluster's kubelet ticks at a phase the session does
 * not see, so there the worst case is given.
 */
export function sessionCountdowns(session: ProbingSession, ledger: PauseLedger, hold: Hold): ContainerCountdown[] {
  const now = session.elapsedSeconds;
  const exact = session.kind === 'local';
  const countdowns: ContainerCountdown[] = [];
  for (const pod of session.state.pods.values()) {
    const manifestPod = pod.clusterPod?.manifestPod ?? pod.name;
    const spec = session.placement(manifestPod)?.spec;
    for (const model of spec?.containers ?? []) {
      if (!PROBING_CONTAINERS.includes(model.kind)) continue;
      const state = pod.containers.get(model.name);
      const liveness = model.probe('liveness');
      const startup = model.probe('startup');
      const seen = (probe: 'liveness' | 'startup') => ledger.seen(pod.name, model.name, probe);
      const container: PausedContainer = {
        name: model.name,
        liveness: liveness && probeTiming(liveness.effective),
        startup: startup && probeTiming(startup.effective),
        running: state?.state === 'running',
        // S1: without a startupProbe a running container is started.
        started: state?.started === true || startup === undefined,
        startedAt: state?.startedAt,
        ...(exact ? { seen: { liveness: seen('liveness'), startup: seen('startup') } } : {}),
      };
      const countdown = pauseCountdown(container, hold.pausedAt, now, hold.heldSince);
      countdowns.push({
        session,
        pod: manifestPod,
        container: model.name,
        countdown,
        text: pauseCountdownText(countdown, 'plain'),
        markdown: pauseCountdownText(countdown, 'markdown'),
        detail: pauseCountdownDetail(countdown),
        overdue: countdown.kind === 'restart' && countdown.secondsLeft <= 0,
      });
    }
  }
  return countdowns;
}

/** The most urgent first: restarts by time left, then the containers nothing would restart. */
export function byUrgency(a: ContainerCountdown, b: ContainerCountdown): number {
  return urgency(a) - urgency(b);
}

function urgency(c: ContainerCountdown): number {
  return c.countdown.kind === 'restart' ? c.countdown.secondsLeft : Infinity;
}
