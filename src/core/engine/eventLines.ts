import { handlerTitle } from '../manifest/handlerTitle';
import type { ProbeModel, ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import type { ContainerRecord } from './containerRecord';
import type { EngineEvent } from './events';

type AttemptLine = Extract<EngineEvent, { type: 'attempt' }>;

/**
 * The lines a pod runtime writes (docs/design.md §3), built from what it knows at that moment. Here,
 * not in the runtime, so the runtime keeps to the kubelet's decisions and the schema's shape is
 * read in one place. `t` is seconds since the run began; `pod` the pod's name.
 */

/** The hottest line (one per attempt): built without spreads, which allocate on every call. */
export function attemptLine(t: number, pod: string, container: string, probe: ProbeType, containerId: string, outcome: ProbeOutcome, durationMs: number): EngineEvent {
  const line: { -readonly [K in keyof AttemptLine]: AttemptLine[K] } = { type: 'attempt', t, pod, container, probe, containerId, outcome: outcome.result, output: outcome.output, durationMs };
  if (outcome.error !== undefined) line.error = outcome.error;
  return line;
}

/** A worker starts: what reading its lane needs (its handler and thresholds). */
export function workerLine(t: number, pod: string, record: ContainerRecord, probe: ProbeModel): EngineEvent {
  const { initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold, failureThreshold } = probe.effective;
  const handler = handlerTitle(probe.effective.handler, record.model.spec);
  return { type: 'worker', t, pod, container: record.name, probe: probe.type, handler, initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold, failureThreshold };
}

export function containerLine(t: number, pod: string, record: ContainerRecord): EngineEvent {
  return {
    type: 'container',
    t,
    pod,
    container: record.name,
    containerId: record.containerId ?? '',
    state: record.state,
    restartCount: record.restartCount,
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.message !== undefined ? { message: record.message } : {}),
  };
}

/** A kubelet event; `probe` when a probe's attempt or verdict caused it. */
export function kubeletEventLine(t: number, pod: string, container: string | undefined, reason: string, eventType: 'Normal' | 'Warning', message: string, probe?: ProbeType): EngineEvent {
  return { type: 'event', t, pod, ...(container !== undefined ? { container } : {}), reason, message, eventType, ...(probe !== undefined ? { probe } : {}) };
}

/**
 * The `Killing` event's text for a failed probe (K2), as the kubelet writes it: a sidecar's says
 * nothing of what follows (sidecars always restart); an app container's says it will be restarted
 * when its restart policy brings it back.
 */
export function probeKillMessage(container: string, sidecar: boolean, probe: ProbeType, restarts: boolean): string {
  if (sidecar) return `Init container ${container} failed ${probe} probe`;
  return `Container ${container} failed ${probe} probe${restarts ? KILL_RESTARTS_SUFFIX : ''}`;
}

const KILL_RESTARTS_SUFFIX = ', will be restarted';

/** Whether a `Killing` event for a failed probe (`probeKillMessage`) means the container comes back. */
export function killRestarts(message: string): boolean {
  return message.endsWith(KILL_RESTARTS_SUFFIX) || message.startsWith('Init container ');
}

/** Workers start in the order the manifest writes the probes, so timelines show lanes in that order. */
export function inWrittenOrder(probes: readonly ProbeModel[]): readonly ProbeModel[] {
  return [...probes].sort((a, b) => a.keyRange.start.line - b.keyRange.start.line || a.keyRange.start.character - b.keyRange.start.character);
}
