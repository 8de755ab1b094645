import type { EngineEvent } from '../../src/core/engine/events';
import type { ProbeType } from '../../src/core/manifest';
import { type RunHeader, runHeader } from '../../src/core/timeline/jsonl';

/**
 * A recording of a local session made by hand, line for line as `probe-lens run --target local`
 * writes one (a worker line, the container running, attempts stamped when they end, `Unhealthy`,
 * a reported `Killing` and the instance the kubelet "would restart" after the grace period), for
 * what a simulation cannot play: an app that runs on through a kill, answers of varied latency.
 */
export type LocalStep =
  /** An attempt starting at `at` s that takes `ms` (default 5). */
  | { readonly at: number; readonly outcome: 'success' | 'failure' | 'timeout' | 'error'; readonly ms?: number; readonly paused?: true; readonly probe?: ProbeType }
  /** The kubelet's verdict: a Killing for the probe now, the instance terminated `graceSeconds` later and the next one running at once. */
  | { readonly at: number; readonly kill: ProbeType; readonly graceSeconds?: number }
  | { readonly at: number; readonly pause: 'paused' | 'continued' };

export interface LocalRecordingOptions {
  readonly probe?: ProbeType;
  readonly periodSeconds?: number;
  readonly timeoutSeconds?: number;
  readonly failureThreshold?: number;
  /** Seconds after t = 0 the first instance is running. */
  readonly startedAt?: number;
  readonly steps: readonly LocalStep[];
  readonly pod?: string;
  readonly container?: string;
}

export function localRecording(options: LocalRecordingOptions): { header: RunHeader; events: EngineEvent[] } {
  const pod = options.pod ?? 'web';
  const container = options.container ?? 'web';
  const probe = options.probe ?? 'liveness';
  const timeoutSeconds = options.timeoutSeconds ?? 1;
  let instance = 0;
  const id = () => `local://${pod}/${container}/${instance}`;
  const lines: EngineEvent[] = [];
  const startedAt = options.startedAt ?? 0;
  for (const type of new Set([probe, ...options.steps.flatMap((s) => ('outcome' in s && s.probe ? [s.probe] : []))])) {
    lines.push({ type: 'worker', t: 0, pod, container, probe: type, handler: 'httpGet http://:8080/healthz', initialDelaySeconds: 0, periodSeconds: options.periodSeconds ?? 10, timeoutSeconds, successThreshold: 1, failureThreshold: options.failureThreshold ?? 3 });
  }
  lines.push({ type: 'container', t: startedAt, pod, container, containerId: id(), state: 'running', restartCount: 0 });
  for (const step of options.steps) {
    if ('pause' in step) {
      lines.push({ type: 'pause', t: step.at, pod, state: step.pause, debugSession: 'node' });
    } else if ('kill' in step) {
      lines.push({ type: 'event', t: step.at, pod, container, reason: 'Killing', message: `Container ${container} failed ${step.kill} probe, will be restarted`, eventType: 'Normal', probe: step.kill });
      const end = step.at + (step.graceSeconds ?? 30);
      lines.push({ type: 'container', t: end, pod, container, containerId: id(), state: 'terminated', restartCount: instance, reason: 'Error' });
      instance++;
      lines.push({ type: 'container', t: end, pod, container, containerId: id(), state: 'running', restartCount: instance });
    } else {
      const timedOut = step.outcome === 'timeout';
      const ms = timedOut ? timeoutSeconds * 1000 : (step.ms ?? 5);
      const output = step.outcome === 'success' ? 'ok' : timedOut ? 'Get "http://127.0.0.1:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' : step.outcome === 'error' ? '' : 'HTTP probe failed with statuscode: 503';
      lines.push({
        type: 'attempt',
        t: step.at + ms / 1000,
        pod,
        container,
        probe: step.probe ?? probe,
        containerId: id(),
        outcome: step.outcome === 'success' ? 'success' : step.outcome === 'error' ? 'unknown' : 'failure',
        output,
        ...(step.outcome === 'error' ? { error: 'the port "metrics" is not declared' } : {}),
        durationMs: ms,
        ...(step.paused ? { paused: true as const } : {}),
      });
    }
  }
  lines.sort((a, b) => a.t - b.t);
  return { header: runHeader({ mode: 'run', target: 'local', file: 'pod.yaml', startedAt: '2025-01-01T12:00:00.000Z' }), events: lines };
}

/** Attempt steps a period apart from `from`: one per outcome. */
export function every(periodSeconds: number, from: number, outcomes: readonly ('success' | 'failure' | 'timeout' | 'error')[], ms?: (i: number) => number): LocalStep[] {
  return outcomes.map((outcome, i) => ({ at: from + i * periodSeconds, outcome, ...(ms ? { ms: ms(i) } : {}) }));
}
