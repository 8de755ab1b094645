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

/** The back-off a `CrashLoopBackOff` message (`crashLoopMessage`) names, in ms; `undefined` for another text. */
export function crashLoopDelayMs(message: string): number | undefined {
  const delay = /^back-off (\S+) restarting failed container=/.exec(message)?.[1];
  if (delay === undefined || !/^(\d+(\.\d+)?(h|m|s|ms))+$/.test(delay)) return undefined;
  const unitMs: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let ms = 0;
  for (const [, value, unit] of delay.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) ms += Number(value) * (unitMs[unit as string] as number);
  return ms;
}
