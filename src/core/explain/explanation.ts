import type { EngineEvent } from '../engine/events';
import type { KillMode } from '../session/snapshot';
import type { ContainerAt } from './explainView';
import { lineSummary } from './explainText';
import type { Cited } from '../history/history';
import type { TimeFormat } from '../history/timeFormat';

/**
 * Why a container is in its state at a moment of a recording: one sentence in the kubelet's terms
 * with its numbers, and the chain of causes behind it, each citing the lines it was read from.
 */
export interface Explanation {
  readonly pod: string;
  readonly container: string;
  /** The moment explained, in seconds since the recording began. */
  readonly t: number;
  readonly state: ExplainedState;
  /** `Not Ready since 12:03:40: readiness failed 3 times in a row (HTTP 503 at 12:03:20, :30, :40; failureThreshold 3).` */
  readonly sentence: string;
  /** The main cause first, then what else bears on it (earlier restarts, warnings, the debugger, the cluster). */
  readonly causes: readonly Cause[];
}

/**
 * `ready`, `not-ready`, `not-started` (running, its startupProbe not passed), `back-off`
 * (CrashLoopBackOff), `restarting` (a kill under way, or predicted in a cluster), `stopping` (its
 * pod is being deleted, or a kill that restarts nothing), `terminated`, `completed`,
 * `initializing` (waiting for init containers), `waiting` (another reason), `not-created`.
 */
export type ExplainedState = 'ready' | 'not-ready' | 'not-started' | 'back-off' | 'restarting' | 'stopping' | 'terminated' | 'completed' | 'initializing' | 'waiting' | 'not-created';

export interface Cause {
  /** A stable id (`readiness-failing`, `startup-budget`, `back-off`, `liveness-restarts`, …): README lists them. */
  readonly reason: string;
  readonly text: string;
  readonly evidence: readonly Evidence[];
}

/** A line the cause was read from. */
export interface Evidence {
  /** Index into the events (the header is not one). */
  readonly index: number;
  readonly t: number;
  readonly type: EngineEvent['type'];
  readonly summary: string;
}

/** What an explainer found: the state, the sentence, and its causes (the main one first). */
export interface Finding {
  readonly state: ExplainedState;
  readonly sentence: string;
  readonly causes: readonly Cause[];
}

/** What every explainer reads: the container as it stood, how to write times, and what became of kills. */
export interface Context {
  readonly view: ContainerAt;
  readonly time: TimeFormat;
  readonly kills: KillMode;
}

/** A cause citing `lines` (in the recording's order, each once). */
export function cause(reason: string, text: string, lines: readonly (Cited | undefined)[]): Cause {
  const seen = new Set<number>();
  const evidence: Evidence[] = [];
  for (const line of lines) {
    if (!line || seen.has(line.index)) continue;
    seen.add(line.index);
    evidence.push({ index: line.index, t: line.event.t, type: line.event.type, summary: lineSummary(line.event) });
  }
  evidence.sort((a, b) => a.index - b.index);
  return { reason, text, evidence };
}

/** At most `max` of many lines: the first ones, and the newest (a run of 8 640 attempts cites a few of them). */
export function sampled<T>(lines: readonly T[], max = 12): readonly T[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max - 1), lines.at(-1) as T];
}
