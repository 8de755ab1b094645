/** The kubelet never gives a kill less than this (K3, `minimumGracePeriodInSeconds`). */
const MINIMUM_GRACE_SECONDS = 2;

/** 128 + SIGKILL: a container killed at the end of its grace period. */
export const SIGKILL_EXIT_CODE = 137;
/** 128 + SIGTERM: how the runtime reports an app that let SIGTERM end it. */
export const SIGTERM_EXIT_CODE = 143;

/**
 * K3 (`setTerminationGracePeriod`): the grace a kill is given. A deleted pod's grace wins;
 * otherwise the failing probe's own `terminationGracePeriodSeconds`, else the pod's (what
 * rules/timing/formulas' `killGraceSeconds` shows for a probe); never below 2 s.
 */
export function graceGivenSeconds(podGraceSeconds: number, probeGraceSeconds: number | undefined, deleting: boolean): number {
  return Math.max(MINIMUM_GRACE_SECONDS, deleting ? podGraceSeconds : (probeGraceSeconds ?? podGraceSeconds));
}

/**
 * After SIGTERM the container ends by itself once the app has stopped, if that comes within the
 * grace period; otherwise the runtime SIGKILLs it when the grace period runs out.
 */
export function stopOutcome(graceMs: number, stopAfterMs: number | undefined): { readonly afterMs: number; readonly exitCode: number } {
  if (stopAfterMs !== undefined && stopAfterMs < graceMs) return { afterMs: stopAfterMs, exitCode: SIGTERM_EXIT_CODE };
  return { afterMs: graceMs, exitCode: SIGKILL_EXIT_CODE };
}
