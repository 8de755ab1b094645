import type { EffectiveProbe, PodSpecModel } from '../../manifest';

/**
 * The timing formulas of docs/spec/validation-rules.md §C. The kubelet's ticks run at a phase unrelated
 * to the container's start (W3, W6), so a probe that always fails trips its threshold somewhere
 * in `[d + (f−1)·p, d + f·p)`: the §C figure is the latest moment, the one documentation uses.
 */
export interface FailureWindow {
  /** Seconds after container start of the earliest possible thresholded failure. */
  readonly earliest: number;
  /** Seconds after container start of the latest one: `d + f × p`. */
  readonly latest: number;
}

export function failureWindow(probe: EffectiveProbe): FailureWindow {
  const d = Math.max(0, probe.initialDelaySeconds);
  return {
    earliest: d + (probe.failureThreshold - 1) * probe.periodSeconds,
    latest: d + probe.failureThreshold * probe.periodSeconds,
  };
}

/** L11 calls a startup budget under this "very small": a slow start would still be killed. */
export const MIN_STARTUP_BUDGET_SECONDS = 10;

/** `B_start = d + f × p`: how long the app may take to start before the startup probe kills it. */
export function startupBudgetSeconds(startup: EffectiveProbe): number {
  return failureWindow(startup).latest;
}

/** `K_live = d + f × p`: when a liveness probe that never succeeds first kills (no startupProbe). */
export function livenessKillSeconds(liveness: EffectiveProbe): number {
  return failureWindow(liveness).latest;
}

/** How long a probe must fail before the kubelet acts: `f × p` (deadlock detection, endpoint removal). */
export function toleranceSeconds(probe: EffectiveProbe): number {
  return probe.failureThreshold * probe.periodSeconds;
}

/** Time back into endpoints once readiness succeeds again: `s × p`. */
export function recoverySeconds(readiness: EffectiveProbe): number {
  return readiness.successThreshold * readiness.periodSeconds;
}

/** The grace period of a probe-triggered kill (K3): the probe's own value, else the pod's (default 30). */
export function killGraceSeconds(probe: EffectiveProbe, pod: Pick<PodSpecModel, 'terminationGracePeriodSeconds'>): number {
  return probe.terminationGracePeriodSeconds ?? pod.terminationGracePeriodSeconds;
}
