import type { Clock } from '../base/clock';
import type { ProbeType } from '../manifest';
import type { ContainerRecord } from './containerRecord';
import type { EngineEvent } from './events';
import { workerLine } from './eventLines';
import { containersReady } from './podStatus';
import type { WorkerStart } from './probeWorkers';
import { QueuedSync } from './queuedSync';
import { ResultsCache, type ResultUpdate, syncsPod } from './results';

/**
 * What both pod runtimes — the one that runs a pod (PodRuntime) and the one that follows a pod
 * the cluster runs (ObservedPodRuntime) — set up alike: a results cache per probe type whose
 * changes are written as `result` lines and queue one pod sync per turn (K1), the workers' start,
 * and the `status`/`pod` lines written only when a value changes (S1–S4).
 */
export interface PodProbesHost {
  readonly clock: Clock;
  readonly podName: string;
  readonly kubeletStartedAt: number;
  readonly random: WorkerStart['random'];
  /** Seconds since the run began. */
  t(): number;
  emit(event: EngineEvent): void;
  /** The records results are matched to by container id. */
  records(): readonly ContainerRecord[];
  sync(): void;
}

export class PodProbes {
  readonly results: Readonly<Record<ProbeType, ResultsCache>>;
  readonly workerStart: WorkerStart;
  /** K1: one sync per turn, however many updates. */
  readonly pending: QueuedSync;
  private podReady: boolean | undefined;

  constructor(private readonly host: PodProbesHost) {
    this.pending = new QueuedSync(host.clock, () => host.sync());
    this.workerStart = { kubeletStartedAt: host.kubeletStartedAt, random: host.random, started: (record, probe) => host.emit(workerLine(host.t(), host.podName, record, probe)) };
    const publish = (update: ResultUpdate) => this.onResult(update);
    this.results = { liveness: new ResultsCache('liveness', publish), readiness: new ResultsCache('readiness', publish), startup: new ResultsCache('startup', publish) };
  }

  /** A container's started and ready as just computed: a `status` line when either changed. */
  publishStatus(record: ContainerRecord): void {
    if (record.reported?.started === record.started && record.reported.ready === record.ready) return;
    record.reported = { started: record.started, ready: record.ready };
    this.host.emit({ type: 'status', t: this.host.t(), pod: this.host.podName, container: record.name, started: record.started, ready: record.ready });
  }

  /** The pod's Ready from its containers' readiness (S4): a `pod` line when it changed. */
  publishPodReady(readiness: ReadonlyMap<string, boolean | undefined>, succeeded: boolean): void {
    const ready = containersReady(readiness, succeeded).status;
    if (ready === this.podReady) return;
    this.podReady = ready;
    this.host.emit({ type: 'pod', t: this.host.t(), pod: this.host.podName, ready });
  }

  private onResult(update: ResultUpdate): void {
    const record = this.host.records().find((r) => r.containerId === update.containerId);
    if (record) this.host.emit({ type: 'result', t: this.host.t(), pod: this.host.podName, container: record.name, probe: update.type, containerId: update.containerId, value: update.result });
    if (syncsPod(update)) this.pending.queue();
  }
}
