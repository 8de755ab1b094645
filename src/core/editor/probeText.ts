import { killingWord, restartsLabel } from '../session/headline';
import { trailingFailures } from '../session/outcomes';
import type { ContainerSnapshot, KillMode } from '../session/snapshot';
import type { ProbeSummary } from '../session/summary';
import type { ProbeModel } from '../manifest';
import type { Range } from '../text/range';
import type { NeverActs } from './neverActs';
import { livenessKillSeconds, startupBudgetSeconds, toleranceSeconds } from '../rules/timing/formulas';
import { shortDuration } from '../text/durations';

/**
 * The words the editor shows for a probe or a container: code-lens titles and hover text. Pure
 * (no editor API) so every title is tested on plain values.
 */

/**
 * `startup budget 310 s`, `liveness kills after 30 s`, `unready after 30 s failing`; for a probe
 * that can never act (`whyNeverActs`), why instead of timings it will never have.
 */
export function staticProbeTitle(probe: ProbeModel, never?: NeverActs): string {
  switch (never?.kind) {
    case 'rejected':
      return `never runs: the API server rejects it (${never.finding.rule})`;
    case 'no-handler':
      return 'never runs: no handler';
    case 'undeclared-port':
      return `never counts: port ${never.port} is not declared`;
    case 'init':
    case 'ephemeral':
      return 'never runs: probes are not allowed here';
  }
  const effective = probe.effective;
  switch (probe.type) {
    case 'startup':
      return `startup budget ${seconds(startupBudgetSeconds(effective))}`;
    case 'liveness':
      // Behind a startupProbe, liveness only begins once the container has started (W7).
      return probe.container.probe('startup')
        ? `liveness kills after ${seconds(toleranceSeconds(effective))} failing`
        : `liveness kills after ${seconds(livenessKillSeconds(effective))}`;
    case 'readiness':
      return `unready after ${seconds(toleranceSeconds(effective))} failing`;
  }
}

/** `● ready · 12/12 ok · 4 ms`, `✖ failing 2/3`, `○ waiting`, `… 1 error`. */
export function liveProbeTitle(type: ProbeModel['type'], summary: ProbeSummary | undefined, failureThreshold: number): string {
  if (!summary || summary.attempts === 0) return '○ waiting for the first attempt';
  const failing = trailingFailures(summary.recent);
  if (failing > 0) return `✖ failing ${Math.min(failing, failureThreshold)}/${failureThreshold}`;
  const counts = `${summary.successes}/${summary.attempts} ok · ${Math.round(summary.lastDurationMs)} ms`;
  // Succeeding but not yet successThreshold times in a row: the result is still failure.
  if (summary.result !== 'Success') return `◐ not ${PASSED[type]} yet · ${counts}`;
  return `● ${PASSED[type]} · ${counts}`;
}

const PASSED = { liveness: 'alive', readiness: 'ready', startup: 'started' } as const;

/**
 * The lens over a container while probing, from its session's snapshot taken at `t`:
 * `started · ready · restarts 2`, `CrashLoopBackOff · restarting in 40s · restarts 3 (liveness)`,
 * `restarting (liveness failed) · restarts 1 (liveness)`; where kills are only reported,
 * `would restart now (liveness failed) · would restart 1× (liveness)`.
 */
export function liveContainerTitle(container: ContainerSnapshot, kills: KillMode, t: number): string {
  const restarts = restartsLabel(container, kills);
  if (container.state === 'waiting' && container.reason === 'CrashLoopBackOff') {
    const left = container.backOffUntil === undefined ? '' : ` · restarting in ${shortDuration(container.backOffUntil - t)}`;
    return `CrashLoopBackOff${left} · ${restarts}`;
  }
  if (container.killing && container.state !== 'waiting') return `${killingWord(container.killing, kills)} (${container.killing.probe} failed) · ${restarts}`;
  const parts = [container.started ? 'started' : 'not started', container.ready ? 'ready' : 'not ready', restarts];
  if (container.reason) parts.push(container.reason);
  return parts.join(' · ');
}


/** One mark per attempt outcome, as hovers and the Probes view list the recent ones. */
export const OUTCOME_MARKS: Readonly<Record<ProbeSummary['recent'][number], string>> = { success: '●', warning: '◐', failure: '✖', unknown: '?' };

function seconds(n: number): string {
  return `${n} s`;
}

/** From the probe's key to the end of its value: where a hover or a tree selection finds the probe. */
export function probeExtent(probe: ProbeModel): Range {
  const value = probe.locate('');
  return { start: probe.keyRange.start, end: value ? value.value.end : probe.keyRange.end };
}

