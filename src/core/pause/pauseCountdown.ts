import type { EffectiveProbe, HandlerType } from '../manifest';
import type { AttemptLine } from '../history/history';
import { countdownWords } from '../text/durations';

/**
 * The breakpoint guard's arithmetic (issue 12 §4): a debugger holds the app, so every probe that
 * needs the app to answer times out, and the cluster's kubelet counts those failures like any
 * other (W7) until the threshold restarts the container (K2). Given the probe, what a session saw
 * of its attempts, when the pause began and the time now: when that restart comes, and the words
 * that say so. Times are session seconds. Pure: the extension feeds it and draws it.
 */

/** What of a probe the countdown needs, after the API server's defaults (D1). */
export interface ProbeTiming {
  readonly handler: HandlerType | undefined;
  readonly initialDelaySeconds: number;
  readonly periodSeconds: number;
  readonly timeoutSeconds: number;
  readonly failureThreshold: number;
}

/**
 * A probe's attempts as a session saw them, folded (`noteAttempt`): its tick phase and its run of
 * counted failures, all the kubelet's threshold accounting depends on.
 */
export interface SeenRun {
  /**
   * The newest attempt: when it started (its tick) and when it ended (the attempt line's `t`).
   * Before the worker's first attempt, the tick before its first (`workerStarted`).
   */
  readonly lastStart: number;
  readonly lastEnd: number;
  /** The newest counted attempt succeeded or failed (`undefined`: none yet, or every one so far was discarded). */
  readonly lastCounted: 'success' | 'failure' | undefined;
  /** Consecutive counted failures up to the newest attempt (W7); 0 after a success or a threshold (W9). */
  readonly failures: number;
  /** When runs of failures reached the threshold (K2: the kubelet restarts there), the newest last, a few. */
  readonly thresholds: readonly number[];
}

/** A probe's timing as the API server leaves it (D1). */
export function probeTiming(probe: EffectiveProbe): ProbeTiming {
  const { initialDelaySeconds, periodSeconds, timeoutSeconds, failureThreshold } = probe;
  return { handler: probe.handler?.type, initialDelaySeconds, periodSeconds, timeoutSeconds, failureThreshold };
}

/** How many threshold times a `SeenRun` keeps: one pause rarely outlives more. */
const KEPT_THRESHOLDS = 4;

/** P3/P5: a prober error is discarded; `success` and `warning` count as success; `failure` and `unknown` as failure. */
export function countedOutcome(attempt: Pick<AttemptLine, 'outcome' | 'error'>): 'success' | 'failure' | 'discarded' {
  if (attempt.error !== undefined) return 'discarded';
  return attempt.outcome === 'success' || attempt.outcome === 'warning' ? 'success' : 'failure';
}

/**
 * W7, W9: one more attempt of a probe. A success ends the run; a failure lengthens it; the run
 * reaching `failureThreshold` is where the kubelet acts (a liveness or startup restart), and the
 * worker starts counting from nothing again. A discarded attempt moves only the phase. The run
 * carries over a new container instance (W10): the caller starts a fresh one for a new worker.
 */
export function noteAttempt(run: SeenRun | undefined, attempt: Pick<AttemptLine, 't' | 'durationMs' | 'outcome' | 'error'>, failureThreshold: number): SeenRun {
  const lastStart = attempt.t - attempt.durationMs / 1000;
  const counted = countedOutcome(attempt);
  const base = { lastStart, lastEnd: attempt.t, thresholds: run?.thresholds ?? [] };
  if (counted === 'discarded') return { ...base, lastCounted: run?.lastCounted, failures: run?.failures ?? 0 };
  if (counted === 'success') return { ...base, lastCounted: 'success', failures: 0 };
  const failures = (run?.failures ?? 0) + 1;
  if (failures < failureThreshold) return { ...base, lastCounted: 'failure', failures };
  return { ...base, lastCounted: 'failure', failures: 0, thresholds: [...base.thresholds, attempt.t].slice(-KEPT_THRESHOLDS) };
}

/**
 * W3: a worker that has not probed yet. Its loop's first tick is the moment it starts (a local
 * session's kubelet has been up too long for W4's jitter) and the ticks follow every period from
 * there, whether or not one probes (a container not started yet skips it). So its run stands as
 * if the tick before came a period earlier, with nothing counted: the countdown follows its phase
 * even when the pause comes before its first attempt.
 */
export function workerStarted(t: number, periodSeconds: number): SeenRun {
  return { lastStart: t - periodSeconds, lastEnd: t - periodSeconds, lastCounted: undefined, failures: 0, thresholds: [] };
}

/** One container as the countdown sees it. */
export interface PausedContainer {
  readonly name: string;
  /** Its probes that can restart it (readiness never does: K2). */
  readonly liveness: ProbeTiming | undefined;
  readonly startup: ProbeTiming | undefined;
  /** Running now; a container that is not has nothing to count down. */
  readonly running: boolean;
  /** S1: started (its startupProbe succeeded, or it has none). */
  readonly started: boolean;
  /** When the running instance started (W6: initialDelaySeconds counts from there), if known. */
  readonly startedAt: number | undefined;
  /**
   * What the session saw of those probes, when its ticks stand for the kubelet's (a local session
   * is the kubelet here); absent, the worst case is assumed.
   */
  readonly seen?: { readonly liveness?: SeenRun; readonly startup?: SeenRun };
}

/** Why no restart is coming. */
export type NoRestartReason =
  /** Started (or without a startupProbe) and without a livenessProbe: nothing restarts it (K2). */
  | 'no-liveness'
  /** A tcpSocket probe: the kernel completes the handshake of a paused process's listening socket (T1). */
  | 'tcp-holds'
  /** The session saw the probe succeed during the pause. */
  | 'seen-holding'
  | 'not-running';

export type PauseCountdown =
  | {
      readonly kind: 'restart';
      readonly container: string;
      /** The probe whose failures restart it: liveness once started, the startupProbe before (W5.9, K2). */
      readonly probe: 'liveness' | 'startup';
      readonly timing: ProbeTiming;
      readonly pausedSeconds: number;
      /** When the threshold would be reached (session seconds). */
      readonly restartAt: number;
      /** Seconds until then; negative: it would already have happened. */
      readonly secondsLeft: number;
      /** Counted on the session's own ticks and run, or the earliest the kubelet's could give. */
      readonly basis: 'seen' | 'worst-case';
      /** Failures counted before the first one the pause causes (a start-up still failing). */
      readonly failuresBefore: number;
    }
  | { readonly kind: 'none'; readonly container: string; readonly probe: 'liveness' | 'startup' | undefined; readonly reason: NoRestartReason; readonly pausedSeconds: number };

/** S1, W5.9, K2: the probe whose failures would restart the container now. */
export function restartingProbe(container: Pick<PausedContainer, 'liveness' | 'startup' | 'started'>): { readonly probe: 'liveness' | 'startup'; readonly timing: ProbeTiming } | undefined {
  if (container.startup && !container.started) return { probe: 'startup', timing: container.startup };
  return container.liveness ? { probe: 'liveness', timing: container.liveness } : undefined;
}

/**
 * Whether the probe still succeeds while the app is held: what the session saw since the pause
 * began says; before it saw anything, the handler does — a tcpSocket probe is answered by the
 * kernel, an HTTP or gRPC one waits for the app and times out (H6, G2), and an exec command is
 * assumed to need the app (the worst case).
 */
export function holdsWhilePaused(timing: ProbeTiming, seen: SeenRun | undefined, pausedAt: number): boolean {
  if (seen && seen.lastStart >= pausedAt && seen.lastCounted !== undefined) return seen.lastCounted === 'success';
  return timing.handler === 'tcpSocket';
}

/** How far ahead the prediction looks before it gives up: many hours of ticks. */
const MAX_PREDICTED_TICKS = 100_000;

/**
 * When the run of failures reaches the threshold if every attempt from the pause on fails, each
 * ending `timeoutSeconds` after it starts. Attempts start on the ticks of a fixed-rate ticker, an
 * overrun one right after the slow one (W3), none before `initialDelaySeconds` (W5.8). With a
 * seen run, the ticks follow its phase and its failures so far count; an attempt begun before
 * the pause and not answered yet is held by it too. Without one, the worst case: the kubelet's
 * tick comes the moment the pause begins.
 */
export function thresholdTime(timing: ProbeTiming, seen: SeenRun | undefined, pausedAt: number, startedAt: number | undefined): number {
  const { periodSeconds: period, timeoutSeconds: timeout, failureThreshold } = timing;
  const gate = startedAt === undefined ? -Infinity : startedAt + timing.initialDelaySeconds;
  let run = seen?.failures ?? 0;
  let prevEnd = seen?.lastEnd ?? -Infinity;
  let tick = seen ? seen.lastStart + period : Math.max(pausedAt, gate);
  // Unseen ticks that would have ended before the pause could hold them did not probe (the worker skipped them).
  if (seen && tick < pausedAt - timeout) tick += Math.ceil((pausedAt - timeout - tick) / period) * period;
  for (let i = 0; i < MAX_PREDICTED_TICKS; i++, tick += period) {
    if (tick < gate) continue;
    const start = Math.max(tick, prevEnd);
    // Ticks that came during an overrun coalesce into the one it starts on (W3).
    tick += Math.floor((start - tick) / period) * period;
    prevEnd = start + timeout;
    if (++run >= failureThreshold) return prevEnd;
  }
  return Infinity;
}

/**
 * The countdown for one container at `now`, its program held at a breakpoint since `pausedAt`.
 * `heldSince`: when the pauses it is part of began — a step lets the program run for a moment
 * between two pauses, too short for a probe to get through, so the kubelet's count goes on.
 */
export function pauseCountdown(container: PausedContainer, pausedAt: number, now: number, heldSince = pausedAt): PauseCountdown {
  const pausedSeconds = Math.max(0, now - heldSince);
  const none = (reason: NoRestartReason, probe?: 'liveness' | 'startup'): PauseCountdown => ({ kind: 'none', container: container.name, probe, reason, pausedSeconds });
  if (!container.running) return none('not-running');
  const restarting = restartingProbe(container);
  if (!restarting) return none('no-liveness');
  const { probe, timing } = restarting;
  const seen = container.seen?.[probe];
  // The pauses already tripped the threshold: the session saw the restart decided.
  const tripped = seen?.thresholds.find((t) => t >= heldSince);
  if (tripped === undefined && holdsWhilePaused(timing, seen, pausedAt)) return none(seen && seen.lastStart >= pausedAt ? 'seen-holding' : 'tcp-holds', probe);
  const restartAt = tripped ?? thresholdTime(timing, seen, heldSince, container.startedAt);
  return {
    kind: 'restart',
    container: container.name,
    probe,
    timing,
    pausedSeconds,
    restartAt,
    secondsLeft: restartAt - now,
    basis: seen ? 'seen' : 'worst-case',
    failuresBefore: seen && tripped === undefined && seen.lastStart < heldSince ? seen.failures : 0,
  };
}


const PROBE_FIELD = { liveness: 'livenessProbe', startup: 'startupProbe' } as const;

/**
 * Where a line goes: a plain-text surface (the status bar, a lens title), which would show a
 * backtick as it is, or Markdown (a tooltip, a hover), where the container's name is code.
 */
export type TextForm = 'plain' | 'markdown';

/**
 * The countdown in a line, where the user looks (status bar, the container's lens):
 * `paused 12 s — in the cluster liveness would restart api in 18 s (3 × 10 s)`, once past it
 * `… liveness would have restarted api 4 s ago (3 × 10 s)`; and when nothing would restart it,
 * nothing scary: `paused 12 s — api has no livenessProbe: the cluster would not restart it`.
 * In Markdown the name is code (`` `api` ``). The time left is rounded up (it reaches 0 at the
 * restart), the time paused and past down.
 */
export function pauseCountdownText(countdown: PauseCountdown, form: TextForm): string {
  const paused = `paused ${countdownWords(Math.floor(countdown.pausedSeconds))}`;
  const name = form === 'markdown' ? `\`${countdown.container}\`` : countdown.container;
  if (countdown.kind === 'none') {
    switch (countdown.reason) {
      case 'no-liveness':
        return `${paused} — ${name} has no livenessProbe: the cluster would not restart it`;
      case 'tcp-holds':
        return `${paused} — ${name}'s ${PROBE_FIELD[countdown.probe ?? 'liveness']} is a tcpSocket, which a paused process still accepts: the cluster would not restart it`;
      case 'seen-holding':
        return `${paused} — ${name}'s ${PROBE_FIELD[countdown.probe ?? 'liveness']} still succeeds while paused: the cluster would not restart it`;
      case 'not-running':
        return `${paused} — ${name} is not running`;
    }
  }
  const who = countdown.probe === 'liveness' ? 'liveness' : 'the startupProbe';
  const window = `(${countdown.timing.failureThreshold} × ${countdownWords(countdown.timing.periodSeconds)})`;
  if (!Number.isFinite(countdown.restartAt)) return `${paused} — ${name}'s ${PROBE_FIELD[countdown.probe]} would never reach its threshold`;
  if (countdown.secondsLeft > 0) return `${paused} — in the cluster ${who} would restart ${name} in ${countdownWords(Math.ceil(countdown.secondsLeft - 1e-9))} ${window}`;
  const ago = Math.floor(-countdown.secondsLeft);
  return `${paused} — in the cluster ${who} would have restarted ${name} ${ago === 0 ? 'just now' : `${countdownWords(ago)} ago`} ${window}`;
}

/** How the countdown was reached, for a tooltip: the probe's numbers, and what the time rests on. */
export function pauseCountdownDetail(countdown: PauseCountdown): string {
  if (countdown.kind === 'none') {
    switch (countdown.reason) {
      case 'no-liveness':
        return 'Without a livenessProbe the kubelet never restarts a running container for not answering; readiness (if any) only takes it out of its Services while it is paused.';
      case 'tcp-holds':
        return 'A tcpSocket probe only opens a connection, and the kernel completes it for a listening socket even while the process is held at a breakpoint: the probe keeps passing.';
      case 'seen-holding':
        return 'This session saw the probe succeed after the pause began: whatever it checks does not wait for the held process.';
      case 'not-running':
        return 'The container is not running: there is nothing to restart.';
    }
  }
  const { failureThreshold: f, periodSeconds: p, timeoutSeconds: timeout, handler } = countdown.timing;
  const field = PROBE_FIELD[countdown.probe];
  const what = handler === 'exec' ? `each attempt of the exec ${field} is assumed to need the held process and to time out after ${countdownWords(timeout)}` : `each attempt of the ${handler ? `${handler} ` : ''}${field} waits for the held process and times out after ${countdownWords(timeout)}`;
  const basis =
    countdown.basis === 'seen'
      ? `Counted on this session's own ticks (every ${countdownWords(p)})${countdown.failuresBefore > 0 ? `, after the ${countdown.failuresBefore} failure${countdown.failuresBefore === 1 ? '' : 's'} it had already counted` : ''}.`
      : `Worst case: the kubelet's next tick comes the moment the pause begins, so the ${ordinal(f)} failure ends ${f - 1} × ${countdownWords(p)} + ${countdownWords(timeout)} after it.`;
  return `While paused, ${what}; after ${f} failures in a row (failureThreshold ${f}, periodSeconds ${p}) the kubelet restarts the container. ${basis}`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}
