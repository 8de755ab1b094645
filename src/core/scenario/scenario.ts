import type { ContainerKind, ProbeType } from '../manifest';

export type ScriptedOutcome = 'success' | 'failure' | 'warning';

/** An override for one probe: outcome by time since the container started, or one per attempt. */
export type ProbeScript =
  | { readonly kind: 'timed'; readonly steps: readonly { readonly from: number; readonly outcome: ScriptedOutcome }[] }
  | { readonly kind: 'attempts'; readonly outcomes: readonly ScriptedOutcome[] };

/** How one container's app behaves, in seconds since *that* container started (a restart replays it). */
export interface ContainerScript {
  /** Every probe fails (the app is not listening yet) before this. */
  readonly readyAfter: number;
  /** From this on, probes hang until their timeout (a deadlock). */
  readonly failAfter?: number;
  /**
   * The process exits by itself, with `exitCode`. A plain init container exits at 0 s unless
   * told otherwise: finishing is what it is for.
   */
  readonly exitAfter?: number;
  /** The code of that exit: 1 by default (a crash), 0 for a plain init container (its work done). */
  readonly exitCode?: number;
  /** Seconds from SIGTERM to exit; absent, the app ignores SIGTERM and runs out the grace period (K3). */
  readonly stopAfter?: number;
  /** Seconds each probe takes; above timeoutSeconds it is a timeout. */
  readonly latency: number;
  readonly probes: Readonly<Partial<Record<ProbeType, ProbeScript>>>;
}

export interface Scenario {
  readonly containers: Readonly<Record<string, ContainerScript>>;
  /** A5: seconds until the pod gets its deletion timestamp. */
  readonly deleteAfter?: number;
  /** Seconds the kubelet has been up when the run begins; less than a period turns on start-up jitter (W4). */
  readonly kubeletStartedAgo: number;
}

/** A container the scenario does not mention: up at once, always healthy, instant answers. */
const HEALTHY: ContainerScript = { readyAfter: 0, latency: 0, probes: {} };

export const DEFAULT_SCENARIO: Scenario = { containers: {}, kubeletStartedAgo: 3600 };

export function scriptFor(scenario: Scenario, container: string): ContainerScript {
  return Object.hasOwn(scenario.containers, container) ? (scenario.containers[container] as ContainerScript) : HEALTHY;
}

/** When and how a container's process ends by itself, if it does. */
export interface ScriptedExit {
  readonly afterSeconds: number;
  readonly exitCode: number;
}

/**
 * The scenario's exit for a container of this kind: an app container or sidecar runs until its
 * `exitAfter` and then crashes (code 1); a plain init container does its work and exits 0 — at
 * once unless the scenario gives it time, so a pod whose init containers the scenario does not
 * mention starts its app containers at t = 0, where the timing rules (docs/spec/validation-rules.md §C)
 * put them.
 */
export function scriptedExit(script: ContainerScript, kind: ContainerKind): ScriptedExit | undefined {
  const plainInit = kind === 'init';
  const afterSeconds = script.exitAfter ?? (plainInit ? 0 : undefined);
  if (afterSeconds === undefined) return undefined;
  return { afterSeconds, exitCode: script.exitCode ?? (plainInit ? 0 : 1) };
}

/**
 * The outcome an attempt gets at `seconds` since its container started, `attempt` being its
 * 0-based number on this container instance. `hang` means the app does not answer at all.
 */
export function scriptedOutcome(script: ContainerScript, type: ProbeType, seconds: number, attempt: number): ScriptedOutcome | 'not-listening' | 'hang' {
  const override = script.probes[type];
  if (override?.kind === 'attempts' && override.outcomes.length > 0) {
    return override.outcomes[Math.min(attempt, override.outcomes.length - 1)] as ScriptedOutcome;
  }
  if (override?.kind === 'timed') {
    let chosen: ScriptedOutcome | undefined;
    for (const step of override.steps) if (step.from <= seconds) chosen = step.outcome;
    if (chosen !== undefined) return chosen;
  }
  if (seconds < script.readyAfter) return 'not-listening';
  if (script.failAfter !== undefined && seconds >= script.failAfter) return 'hang';
  return 'success';
}
