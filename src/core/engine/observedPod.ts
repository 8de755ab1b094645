import type { PodSpecModel, ProbeModel, ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import type { Clock } from '../base/clock';
import { ContainerRecord } from './containerRecord';
import { PodProbes } from './podProbes';
import type { Disposable } from '../base/disposable';
import { attemptLine, containerLine, inWrittenOrder, kubeletEventLine } from './eventLines';
import type { EngineEvent, EventSink } from './events';
import { isReady, isStarted } from './podStatus';
import type { ContainerState, PodPhase, PodStatusView } from './podState';
import type { SlotHost } from './probeSlot';
import type { PodIdentity, ProbeTarget } from './target';
import { graceGivenSeconds } from './termination';
import { replaceProbeWorker, startProbeWorker, triggerNotReadyReadiness } from './probeWorkers';

/** What a cluster's kubelet reports of one container (`status.containerStatuses[]`, sidecars from `initContainerStatuses`). */
export interface ObservedContainer {
  readonly name: string;
  /** `containerd://…`; empty while the container has not been created. */
  readonly containerId: string;
  readonly state: ContainerState;
  /** Clock time (ms) the running instance started (`state.running.startedAt`). */
  readonly startedAt?: number;
  readonly restartCount: number;
  /** The waiting or terminated state's reason (`CrashLoopBackOff`, `OOMKilled`, `Error`). */
  readonly reason?: string;
  readonly message?: string;
  /** The kubelet's own verdicts. */
  readonly started: boolean;
  readonly ready: boolean;
}

/** A watched pod's status, as the observed runtime takes it. */
export interface ObservedPod {
  readonly phase: PodPhase;
  readonly deleting: boolean;
  /** The pod's Ready condition, as the kubelet set it. */
  readonly ready: boolean;
  readonly containers: readonly ObservedContainer[];
}

export interface ObservedPodOptions {
  readonly clock: Clock;
  readonly epoch: number;
  readonly kubeletStartedAt: number;
  readonly random: () => number;
  readonly target: ProbeTarget;
  readonly emit: EventSink;
  /**
   * Beyond the grace period, how long the cluster may take to act on a failure we saw: its
   * kubelet probes on its own schedule, up to a period apart from ours, and the watch reports
   * the change a moment later.
   */
  readonly predictionSlackMs?: number;
}

const PREDICTION_SLACK_MS = 10_000;

/** The reason a container of a pod the cluster no longer has is shown terminated with (ours: the API has none for it). */
export const POD_GONE_REASON = 'PodDeleted';

interface Prediction {
  readonly probe: 'liveness' | 'startup';
  readonly containerId: string;
  readonly madeAt: number;
  readonly deadline: Disposable;
}

/**
 * The kubelet's probe workers for a pod whose containers another kubelet runs (a cluster's).
 * Its workers probe as ours always do (W1–W14) and derive started and ready from their own
 * results (S1–S4); but the containers come and go as the cluster reports them (`observe`), so
 * the initial delay counts from the real start and a hold lifts on the real restart (W5, W6, W9).
 * Where our kubelet would kill (K2), the cluster's decides: this runtime predicts the kill, then
 * says whether the cluster carried it out within the grace period (a `prediction` line each).
 */
export class ObservedPodRuntime implements SlotHost, PodStatusView, Disposable {
  phase: PodPhase = 'Pending';
  deleting = false;
  disposed = false;
  readonly restartPolicy: string;
  readonly clock: Clock;
  readonly target: ProbeTarget;
  private readonly records: ContainerRecord[] = [];
  private readonly probes: PodProbes;
  private readonly predictions = new Map<string, Prediction>();
  /** The kubelet's verdicts last reported, per container and (`''`) for the pod. */
  private readonly kubeletSaid = new Map<string, string>();

  constructor(
    readonly identity: PodIdentity,
    readonly spec: PodSpecModel,
    private readonly options: ObservedPodOptions,
  ) {
    this.restartPolicy = spec.restartPolicy;
    this.clock = options.clock;
    this.target = options.target;
    this.probes = new PodProbes({ clock: this.clock, podName: identity.name, kubeletStartedAt: options.kubeletStartedAt, random: options.random, t: () => this.t, emit: (event) => this.emit(event), records: () => this.records, sync: () => this.sync() });
    // Plain init containers ran before anyone looked; ephemeral ones are never probed.
    for (const container of spec.containers) if (container.kind === 'regular' || container.kind === 'sidecar') this.records.push(new ContainerRecord(container));
  }

  container(name: string): ContainerRecord | undefined {
    return this.records.find((r) => r.name === name);
  }

  /** Starts the workers; they find no container (W5 step 3) until the first `observe`. */
  start(): this {
    for (const record of this.records) for (const probe of inWrittenOrder(record.model.probes)) this.startWorker(record, probe);
    return this;
  }

  /** What the watch saw of the pod now: new instances, states, and the kubelet's own verdicts. */
  observe(pod: ObservedPod): void {
    if (this.disposed) return;
    this.phase = pod.phase;
    this.deleting = pod.deleting;
    for (const record of this.records) {
      const seen = pod.containers.find((c) => c.name === record.name);
      if (!seen) continue;
      this.observeContainer(record, seen);
      this.reportKubelet(record.name, `${seen.started}/${seen.ready}/${seen.restartCount}`, { container: record.name, started: seen.started, ready: seen.ready, restartCount: seen.restartCount });
    }
    this.reportKubelet('', String(pod.ready), { ready: pod.ready });
    this.sync();
  }

  /**
   * The pod is gone from the cluster (deleted, or no longer selected) and nothing took its place:
   * its containers end here, and with them started and ready. Predictions still open get no
   * verdict: a deletion says nothing of the cluster's kubelet's probes.
   */
  podGone(): void {
    if (this.disposed) return;
    for (const prediction of this.predictions.values()) prediction.deadline.dispose();
    this.predictions.clear();
    for (const record of this.records) {
      if (record.containerId === undefined || record.state === 'terminated') continue;
      record.state = 'terminated';
      record.reason = POD_GONE_REASON;
      record.message = undefined;
      this.emit(containerLine(this.t, this.identity.name, record));
    }
    this.updateStatuses();
  }

  /** Replaces one probe's worker (an edited probe); the others keep their state. */
  replaceProbe(containerName: string, probe: ProbeModel | undefined, type: ProbeType): void {
    const record = this.container(containerName);
    if (record) replaceProbeWorker(record, probe, type, (next) => this.startWorker(record, next));
  }


  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const record of this.records) for (const slot of Object.values(record.workers)) slot?.loop.dispose();
    for (const prediction of this.predictions.values()) prediction.deadline.dispose();
    this.predictions.clear();
    this.probes.pending.dispose();
  }

  reportAttempt(container: string, probe: ProbeType, containerId: string, outcome: ProbeOutcome, durationMs: number): void {
    this.emit(attemptLine(this.t, this.identity.name, container, probe, containerId, outcome, durationMs));
  }

  reportEvent(container: string, probe: ProbeType, reason: string, message: string): void {
    this.emit(kubeletEventLine(this.t, this.identity.name, container, reason, 'Warning', message, probe));
  }

  private get t(): number {
    return (this.clock.now() - this.options.epoch) / 1000;
  }

  private startWorker(record: ContainerRecord, probe: ProbeModel): void {
    startProbeWorker(this, record, probe, this.probes.results[probe.type], this.probes.workerStart);
  }


  /** One container's new state: a new instance (W6: results start over), or the same one changed. */
  private observeContainer(record: ContainerRecord, seen: ObservedContainer): void {
    const newInstance = seen.containerId !== '' && seen.containerId !== record.containerId;
    const changed = newInstance || seen.state !== record.state || seen.reason !== record.reason || seen.message !== record.message;
    if (newInstance) {
      record.containerId = seen.containerId;
      record.started = false;
      record.ready = false;
    }
    record.instance = seen.containerId === '' && record.containerId === undefined ? -1 : seen.restartCount;
    record.state = seen.state;
    record.startedAt = seen.state === 'running' ? (seen.startedAt ?? record.startedAt ?? this.clock.now()) : record.startedAt;
    record.reason = seen.reason;
    record.message = seen.message;
    if (changed) this.emit(containerLine(this.t, this.identity.name, record));
    this.settlePredictions(record);
  }

  /** A predicted kill is confirmed once the predicted instance no longer runs. */
  private settlePredictions(record: ContainerRecord): void {
    for (const [key, prediction] of this.predictions) {
      if (!key.startsWith(`${record.name}\u0000`)) continue;
      const stopped = record.containerId !== prediction.containerId || record.state !== 'running';
      if (!stopped) continue;
      prediction.deadline.dispose();
      this.predictions.delete(key);
      const seconds = Math.round((this.clock.now() - prediction.madeAt) / 1000);
      const how = record.containerId !== prediction.containerId ? `restarted ${record.name} (restart ${record.restartCount})` : `stopped ${record.name}${record.reason ? ` (${record.reason})` : ''}`;
      this.emitPrediction(record.name, prediction, 'confirmed', `the cluster ${how} ${seconds} s after our ${prediction.probe} probe failed`);
    }
  }

  private reportKubelet(key: string, said: string, line: { readonly container?: string; readonly started?: boolean; readonly ready: boolean; readonly restartCount?: number }): void {
    if (this.kubeletSaid.get(key) === said) return;
    this.kubeletSaid.set(key, said);
    this.emit({ type: 'kubelet', t: this.t, pod: this.identity.name, ...line });
  }

  /** Our kubelet's verdicts from our results: predictions where it would kill, then started and ready (S1–S4). */
  private sync(): void {
    if (this.disposed) return;
    for (const record of this.records) this.predictIfUnhealthy(record);
    this.updateStatuses();
    triggerNotReadyReadiness(this.records, this.probes.results.readiness);
  }

  /** K2 (liveness first, then startup), as a prediction: one per container instance and probe. */
  private predictIfUnhealthy(record: ContainerRecord): void {
    const id = record.containerId;
    if (record.state !== 'running' || !id) return;
    const failed = (type: 'liveness' | 'startup') => record.workers[type] !== undefined && this.probes.results[type].get(id) === 'Failure';
    const probe = failed('liveness') ? 'liveness' : failed('startup') ? 'startup' : undefined;
    if (!probe || this.predictions.has(`${record.name}\u0000${id}`)) return;
    const model = record.workers[probe]?.model;
    const graceMs = graceGivenSeconds(this.spec.terminationGracePeriodSeconds, model?.effective.terminationGracePeriodSeconds, false) * 1000;
    const waitMs = graceMs + (model?.effective.periodSeconds ?? 0) * 1000 + (this.options.predictionSlackMs ?? PREDICTION_SLACK_MS);
    const key = `${record.name}\u0000${id}`;
    const prediction: Prediction = {
      probe,
      containerId: id,
      madeAt: this.clock.now(),
      deadline: this.clock.schedule(waitMs, () => {
        if (this.predictions.get(key) !== prediction) return;
        this.predictions.delete(key);
        this.emitPrediction(record.name, prediction, 'missed', `the cluster did not stop ${record.name} within ${Math.round(waitMs / 1000)} s: its kubelet's ${probe} probe did not fail as ours did`);
      }),
    };
    this.predictions.set(key, prediction);
    const restarts = this.restartPolicy === 'Always' || record.model.kind === 'sidecar' || this.restartPolicy === 'OnFailure';
    this.emitPrediction(record.name, prediction, 'pending', `${probe} would ${restarts ? 'restart' : 'kill'} ${record.name} now`);
  }

  private emitPrediction(container: string, prediction: Prediction, state: 'pending' | 'confirmed' | 'missed', message: string): void {
    this.emit({ type: 'prediction', t: this.t, pod: this.identity.name, container, probe: prediction.probe, containerId: prediction.containerId, state, message });
  }

  private updateStatuses(): void {
    const readiness = new Map<string, boolean | undefined>();
    for (const record of this.records) {
      const id = record.containerId;
      const running = record.state === 'running';
      record.started = isStarted(running, record.workers.startup !== undefined, id ? this.probes.results.startup.get(id) : undefined);
      record.ready = isReady(record.started, running, record.workers.readiness !== undefined, id ? this.probes.results.readiness.get(id) : undefined);
      readiness.set(record.name, id === undefined ? undefined : record.ready);
      this.probes.publishStatus(record);
    }
    this.probes.publishPodReady(readiness, this.phase === 'Succeeded');
  }

  private emit(event: EngineEvent): void {
    if (!this.disposed) this.options.emit(event);
  }
}
