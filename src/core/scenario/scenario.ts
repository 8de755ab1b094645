import type { ProbeType } from '../manifest';

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
  /** The process exits by itself (exit code 1). */
  readonly exitAfter?: number;
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
