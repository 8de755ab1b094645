import { goDuration } from '../probers/goFormat';

/**
 * The kubelet's texts for a container waiting out its restart back-off (B2, `doBackOff` in
 * kuberuntime_manager.go). `pod` is `format.Pod`: `name_namespace(uid)`.
 */

/** The `BackOff` event, recorded on every pod sync that finds the container still backing off. */
export function backOffEventMessage(container: string, pod: string): string {
  return `Back-off restarting failed container ${container} in pod ${pod}`;
}

/** The `CrashLoopBackOff` waiting message; the delay in Go's duration format (`10s`, `1m20s`, `5m0s`). */
export function crashLoopMessage(delayMs: number, container: string, pod: string): string {
  return `back-off ${goDuration(delayMs)} restarting failed container=${container} pod=${pod}`;
}
