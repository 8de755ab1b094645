import type { ProbeModel, ProbeType } from '../manifest';
import type { ContainerRecord } from './containerRecord';
import { ProbeSlot, type SlotHost } from './probeSlot';
import type { ResultsCache } from './results';
import { WorkerLoop } from './workerLoop';

/** What starting a worker needs besides its pod: when the kubelet started (W4) and the jitter's randomness. */
export interface WorkerStart {
  readonly kubeletStartedAt: number;
  readonly random: () => number;
  /** Told of each worker started (the `worker` line). */
  readonly started: (record: ContainerRecord, probe: ProbeModel) => void;
}

/**
 * Starts one probe's worker for a pod (W1, W3): its loop ticks every period, after a random part
 * of one when the kubelet itself has only just started (W4). When it exits it leaves its slot,
 * and an edited probe that waited for it takes over.
 */
export function startProbeWorker(host: SlotHost, record: ContainerRecord, probe: ProbeModel, results: ResultsCache, start: WorkerStart): void {
  const { clock } = host;
  const slot = new ProbeSlot(host, record, probe, results);
  const periodMs = probe.effective.periodSeconds * 1000;
  const kubeletJustStarted = clock.now() - start.kubeletStartedAt < periodMs;
  slot.loop = new WorkerLoop(slot.worker, {
    clock,
    periodMs,
    initialJitterMs: kubeletJustStarted ? start.random() * periodMs : 0,
    onExit: () => {
      slot.worker.cleanup();
      if (record.workers[probe.type] === slot) record.workers[probe.type] = undefined;
      if (slot.replacement && !host.disposed) startProbeWorker(host, record, slot.replacement, results, start);
    },
  });
  record.workers[probe.type] = slot;
  start.started(record, probe);
  slot.loop.start();
}

/**
 * Replaces one probe's worker (an edited probe in the editor); the others keep their state. One
 * worker per probe (W1): the old one finishes its attempt and exits (W14) before the new starts.
 */
export function replaceProbeWorker(record: ContainerRecord, probe: ProbeModel | undefined, type: ProbeType, startNew: (probe: ProbeModel) => void): void {
  const current = record.workers[type] as ProbeSlot | undefined;
  if (!current) {
    if (probe) startNew(probe);
    return;
  }
  current.replacement = probe ?? null;
  current.loop.dispose();
}

/** W13: each status update pokes the readiness workers of started containers not yet ready. */
export function triggerNotReadyReadiness(records: readonly ContainerRecord[], readiness: ResultsCache): void {
  for (const record of records) {
    const slot = record.workers.readiness;
    if (slot && record.started && record.state === 'running' && record.containerId && readiness.get(record.containerId) !== 'Success') slot.loop.trigger();
  }
}
