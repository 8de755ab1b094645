import { livenessKillSeconds, startupBudgetSeconds, toleranceSeconds } from '../rules/timing/formulas';
import type { EffectiveProbe, ProbeType } from '../manifest';
import type { FailureBurst, Latency } from '../history/measure';
import { secondsText } from '../text/durations';

/**
 * The sentences of a recommendation: why (the figures it rests on) and what it changes, in the
 * terms of docs/spec/validation-rules.md §C (`f × p`, `K_live = d + f × p`, `B_start = d + f × p`).
 */

export { secondsText } from '../text/durations';

export function msText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : secondsText(ms / 1000);
}

function times(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

export function probeKey(type: ProbeType): string {
  return `${type}Probe`;
}

export function latencyText(latency: Latency): string {
  return `p99 ${msText(latency.p99Ms)} over ${times(latency.answered, 'answered attempt')} (p50 ${msText(latency.p50Ms)}, max ${msText(latency.maxMs)})`;
}

export function timeoutReason(latency: Latency, headroom: number, needed: number, capped: { periodSeconds: number } | undefined, timeouts: number): string {
  const base = `${latencyText(latency)}; with ${headroom}× headroom an attempt needs ${secondsText(needed)}`;
  const cap = capped ? `, capped at periodSeconds (${capped.periodSeconds}): a longer timeout lets hanging attempts run into the next period (L12)` : '';
  const timedOut = timeouts > 0 ? `; ${times(timeouts, 'attempt')} after start-up timed out as well, slower than any of those` : '';
  return base + cap + timedOut;
}

export function timeoutChanges(type: ProbeType, probe: EffectiveProbe, to: number, slowestMs: number): string {
  const still = slowestMs > to * 1000 ? ` (the slowest answer seen, ${msText(slowestMs)}, would still time out)` : '';
  return `${probeKey(type)} answers taking up to ${secondsText(to)} count instead of failing after ${secondsText(probe.timeoutSeconds)}${still}; a hung app is noticed up to ${secondsText(to - probe.timeoutSeconds)} later (f × p + t = ${secondsText(toleranceSeconds(probe) + to)} instead of ${secondsText(toleranceSeconds(probe) + probe.timeoutSeconds)})`;
}

export function burstText(burst: FailureBurst): string {
  return `${times(burst.failures, 'failure')} in a row over ${secondsText(burst.seconds)} from t = ${secondsText(burst.from)}`;
}

export function livenessRaiseReason(longest: FailureBurst, needed: number, periodSeconds: number): string {
  const killed = longest.killed ? ', during which liveness announced a kill while the app went on and recovered by itself' : '';
  return `the longest failure burst after start-up was ${burstText(longest)}${killed}; riding it out with one failure to spare takes ${needed} × ${periodSeconds} s`;
}

export function livenessLowerReason(longest: FailureBurst | undefined, attempts: number, to: number, periodSeconds: number, startup: string | undefined): string {
  const seen = longest ? `the longest failure burst after start-up was ${burstText(longest)}` : 'liveness never failed after start-up';
  const start = startup ? `; without a startupProbe it must also cover the start-up: ${startup}` : '';
  return `${seen}, over ${times(attempts, 'counted attempt')}; ${to} × ${periodSeconds} s still rides that out with a failure to spare (and is no less than the default 3: one slow answer must not restart the app, L27)${start}`;
}

/** The bursts whose length is unknown, one sentence per way they ended. */
export function unknownBurstsText(bursts: readonly FailureBurst[]): string[] {
  const ways: readonly [FailureBurst['end'], string, string][] = [
    ['kill', 'a kill cut short', 'were cut short by a kill'],
    ['instance-end', 'the container stopped during', 'ended with their container'],
    ['recording-end', 'the recording ended during', 'were still going when the recording ended'],
  ];
  return ways.flatMap(([end, one, many]) => {
    const these = bursts.filter((b) => b.end === end);
    const longest = these.reduce<FailureBurst | undefined>((a, b) => (!a || b.failures > a.failures ? b : a), undefined);
    if (!longest) return [];
    if (these.length === 1) return [`${one} a burst of ${burstText(longest)}: how long it would have lasted is unknown`];
    return [`${these.length} failure bursts ${many}, the longest seen ${burstText(longest)}: how long they would have lasted is unknown`];
  });
}

export function livenessChanges(liveness: EffectiveProbe, to: number, hasStartupProbe: boolean): string {
  const after = { ...liveness, failureThreshold: to };
  const tolerance = `liveness would then kill after ${secondsText(toleranceSeconds(after))} of failures (${to} × ${liveness.periodSeconds} s) instead of ${secondsText(toleranceSeconds(liveness))} (${liveness.failureThreshold} × ${liveness.periodSeconds} s)`;
  if (hasStartupProbe) return tolerance;
  return `${tolerance}; a container that never answers is first killed ${secondsText(livenessKillSeconds(after))} after it starts instead of ${secondsText(livenessKillSeconds(liveness))} (K_live = d + f × p)`;
}

export function startupObservedText(seconds: number, instances: number, probe: ProbeType): string {
  return `the slowest start-up seen took ${secondsText(seconds)} to the first success (${probeKey(probe)}, ${times(instances, 'instance')})`;
}

export function startupRaiseReason(observed: string | undefined, margin: number, target: number, livenessFloor: number | undefined): string {
  const parts: string[] = [];
  if (observed) parts.push(`${observed}; with a ${margin}× margin the budget must reach ${secondsText(target)}`);
  if (livenessFloor !== undefined) parts.push(`the budget must stay above liveness's own ${secondsText(livenessFloor)}, or the startupProbe gives a slow start no more time (L11)`);
  return parts.join('; ');
}

export function startupChanges(startup: EffectiveProbe, to: number): string {
  const after = { ...startup, failureThreshold: to };
  return `the app gets ${secondsText(startupBudgetSeconds(after))} to start (B_start = d + f × p, ${to} × ${startup.periodSeconds} s) instead of ${secondsText(startupBudgetSeconds(startup))} before the startupProbe kills it`;
}

export function addStartupReason(observed: string, margin: number, target: number, liveness: EffectiveProbe): string {
  return `${observed}; liveness alone kills a container that has not answered ${secondsText(livenessKillSeconds(liveness))} after it starts (K_live = d + f × p), less than the ${secondsText(target)} the start-up needs with a ${margin}× margin`;
}

export function addStartupChanges(failureThreshold: number, periodSeconds: number, liveness: EffectiveProbe): string {
  return `adds a startupProbe with the livenessProbe's handler (${failureThreshold} × ${periodSeconds} s): the app gets ${secondsText(failureThreshold * periodSeconds)} to start instead of the ${secondsText(livenessKillSeconds(liveness))} liveness allows; liveness and readiness wait until it succeeds`;
}

/** What a recommendation sets, for people: `livenessProbe.timeoutSeconds: 1 → 2`, `startupProbe added: failureThreshold 5, periodSeconds 10`. */
export function recommendationTitle(recommendation: { readonly probe: ProbeType; readonly field: string; readonly from: number | null; readonly to: number | object }): string {
  const { to } = recommendation;
  if (typeof to !== 'number') return `${probeKey(recommendation.probe)} added: ${Object.entries(to).map(([field, value]) => `${field} ${String(value)}`).join(', ')}`;
  return `${probeKey(recommendation.probe)}.${recommendation.field}: ${recommendation.from ?? '(not set)'} → ${to}`;
}

/** How much the recording holds: `3 probes of 1 container, 1 225 attempts over 3 600 s`. */
export function dataText(measurements: readonly { readonly pod: string; readonly container: string; readonly attempts: number; readonly span: { readonly from: number; readonly to: number } | undefined }[]): string {
  const containers = new Set(measurements.map((m) => `${m.pod}/${m.container}`)).size;
  const attempts = measurements.reduce((n, m) => n + m.attempts, 0);
  const spans = measurements.flatMap((m) => (m.span ? [m.span] : []));
  const from = Math.min(...spans.map((s) => s.from));
  const to = Math.max(...spans.map((s) => s.to));
  const over = spans.length > 0 ? ` over ${secondsText(to - from)} (t = ${secondsText(from)} to ${secondsText(to)})` : '';
  return `${times(measurements.length, 'probe')} of ${times(containers, 'container')}, ${times(attempts, 'attempt')}${over}`;
}

export function livenessDelayReason(delay: number): string {
  return `with a startupProbe, liveness only runs once it has succeeded, and initialDelaySeconds counts from container start (W6): its ${secondsText(delay)} are redundant (L28)`;
}

export function livenessDelayChanges(delay: number): string {
  return `liveness may probe as soon as the startupProbe succeeds, instead of no sooner than ${secondsText(delay)} after the container started`;
}
