import { type ContainerModel, PROBING_CONTAINERS, type PodSpecModel, type ProbeModel, type ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import { RetryingCall, verdictOf } from './attempt';
import { Backoff, type BackoffPolicy, KUBELET_BACKOFF } from './backoff';
import type { Clock } from './clock';
import type { Disposable } from './disposable';
import type { EngineEvent, EventSink } from './events';
import { containersReady, isReady, isStarted } from './podStatus';
import type { ContainerState, ContainerStatusView, PodPhase, PodStatusView } from './podState';
import { type ResultUpdate, ResultsCache } from './results';
import type { AttemptRequest, ContainerProcesses, PodIdentity, ProbeTarget } from './target';
import { type AttemptVerdict, ProbeWorker, type WorkerHost } from './worker';
import { WorkerLoop } from './workerLoop';

export interface PodRuntimeOptions {
  readonly clock: Clock;
  /** Clock time of `t = 0` in events. */
  readonly epoch: number;
  /** Clock time the kubelet started: a worker starting less than a period later waits a random part of it (W4). */
  readonly kubeletStartedAt: number;
  /** Uniform in [0, 1): seeded in simulations so runs repeat. */
  readonly random: () => number;
  readonly target: ProbeTarget;
  readonly processes: ContainerProcesses;
  readonly emit: EventSink;
  /** Prefix of container IDs: `sim`, `local`. */
  readonly idScheme: string;
  readonly backoff?: BackoffPolicy;
}

/**
 * How long a real session's kubelet has been up when it starts: long enough that no worker waits
 * out a start-up jitter (W4) in a session the user just started.
 */
export const KUBELET_UP_MS = 3_600_000;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * What `restartContainer` did: `restarting` — killed, and the kubelet starts it again (at once or
 * after its back-off); `stopped` — killed, and the restart policy (or the pod's deletion) keeps it
 * down; `not-running` — nothing to kill (waiting out a back-off, or terminated).
 */
export type RestartOutcome = 'restarting' | 'stopped' | 'not-running' | 'unknown-container';

/** The kubelet never gives a kill less than this (K3, `minimumGracePeriodInSeconds`). */
const MINIMUM_GRACE_SECONDS = 2;
const KILLED_EXIT_CODE = 137;

/**
 * One probe of one container: its worker and loop, and the worker's host — the pod's status, the
 * clock, and the attempt in flight with its retries (P2). One object instead of a closure per
 * callback keeps an idle worker small and an attempt cheap.
 */
class ProbeSlot implements WorkerHost {
  readonly worker: ProbeWorker;
  loop!: WorkerLoop;
  /** The edited probe that takes over once this worker has exited (`null`: the probe was removed). */
  replacement: ProbeModel | null | undefined;
  /** Rebuilt only for a new container instance. */
  private request: AttemptRequest | undefined;
  private began = 0;
  private done: ((verdict: AttemptVerdict) => void) | undefined;
  private readonly retries: RetryingCall;
  private readonly onOutcome = (outcome: ProbeOutcome) => this.report(outcome);

  constructor(
    private readonly runtime: PodRuntime,
    private readonly record: ContainerRecord,
    readonly model: ProbeModel,
    results: ResultsCache,
  ) {
    this.worker = new ProbeWorker(model.type, record.name, record.model.kind === 'sidecar', model.effective, results, this);
    this.retries = new RetryingCall(this);
  }

  podStatus(): PodStatusView | undefined {
    return this.runtime.disposed ? undefined : this.runtime;
  }

  /** One handler call for `RetryingCall`. */
  call(settle: (outcome: ProbeOutcome) => void): void {
    this.runtime.target.attempt(this.request as AttemptRequest, settle);
  }

  now(): number {
    return this.runtime.clock.now();
  }

  /** One attempt: the handler with its retries (P2), reported, then mapped for the worker (P3). */
  probe(containerId: string, done: (verdict: AttemptVerdict) => void): void {
    const clock = this.runtime.clock;
    if (this.request?.containerId !== containerId) {
      const { record } = this;
      this.request = {
        pod: this.runtime.identity,
        podSpec: this.runtime.spec,
        container: record.model,
        type: this.model.type,
        probe: this.model.effective,
        containerId,
        startedAt: record.startedAt ?? clock.now(),
        instance: record.instance,
      };
    }
    this.began = clock.now();
    this.done = done;
    this.retries.run(this.onOutcome);
  }

  private report(outcome: ProbeOutcome): void {
    const done = this.done;
    const request = this.request;
    this.done = undefined;
    if (this.runtime.disposed || !done || !request) return;
    this.runtime.reportAttempt(this.record.name, this.model.type, request.containerId, outcome, this.runtime.clock.now() - this.began);
    const { verdict, event } = verdictOf(this.model.type, outcome);
    if (event) this.runtime.reportEvent(this.record.name, event.reason, event.message);
    done(verdict);
  }
}

class ContainerRecord implements ContainerStatusView {
  containerId: string | undefined;
  state: ContainerState = 'waiting';
  startedAt: number | undefined;
  finishedAt = 0;
  exitCode = 0;
  reason: string | undefined;
  /** 0 for the first instance, then one more per restart (-1 before the first start). */
  instance = -1;
  started = false;
  ready = false;
  /** What the last `status` event said, to publish changes only. */
  reported: { started: boolean; ready: boolean } | undefined;
  process: Disposable | undefined;
  killTimer: Disposable | undefined;
  restartTimer: Disposable | undefined;
  readonly workers: Partial<Record<ProbeType, ProbeSlot>> = {};
  readonly name: string;

  constructor(readonly model: ContainerModel) {
    this.name = model.name;
  }

  /** The kubelet counts the instances started after the first. */
  get restartCount(): number {
    return Math.max(this.instance, 0);
  }
}

/**
 * The kubelet, for one pod: probe workers feed results caches; changes trigger a pod sync (K1)
 * that kills containers whose liveness or startup failed (K2) after their grace period (K3),
 * restarts them under CrashLoopBackOff (B1–B4) and the restart policy, derives started / ready
 * (S1–S4) and pokes not-ready readiness workers (W13).
 */
export class PodRuntime implements PodStatusView, Disposable {
  phase: PodPhase = 'Pending';
  deleting = false;
  readonly restartPolicy: string;
  private readonly records: ContainerRecord[] = [];
  private readonly results: Readonly<Record<ProbeType, ResultsCache>>;
  private readonly backoff: Backoff;
  private syncTimer: Disposable | undefined;
  private deleteTimer: Disposable | undefined;
  private podReady: boolean | undefined;
  /** Once disposed nothing is reported, and workers see no pod (and exit). */
  disposed = false;
  readonly clock: Clock;
  readonly target: ProbeTarget;

  constructor(
    readonly identity: PodIdentity,
    readonly spec: PodSpecModel,
    private readonly options: PodRuntimeOptions,
  ) {
    this.restartPolicy = spec.restartPolicy;
    this.clock = options.clock;
    this.target = options.target;
    this.backoff = new Backoff(options.backoff ?? KUBELET_BACKOFF);
    const publish = (update: ResultUpdate) => this.onResult(update);
    const cache = (type: ProbeType) => new ResultsCache(type, publish);
    this.results = { liveness: cache('liveness'), readiness: cache('readiness'), startup: cache('startup') };
    // Plain init containers run to completion before the rest and have no probes; they are not modelled.
    for (const container of spec.containers) {
      if (PROBING_CONTAINERS.includes(container.kind)) this.records.push(new ContainerRecord(container));
    }
  }

  container(name: string): ContainerStatusView | undefined {
    for (const record of this.records) if (record.name === name) return record;
    return undefined;
  }

  /** Starts every container and its probe workers, at the clock's now. */
  start(): this {
    this.phase = 'Running';
    // As in the kubelet's SyncPod: workers first (their first doProbe finds no container, W5
    // step 3), then the containers. So a first attempt comes one period after the start, and
    // d + f × p (validation-rules.md §C) is when a never-healthy container is first killed.
    for (const record of this.records) for (const probe of record.model.probes) this.startWorker(record, probe);
    for (const record of this.records) this.startInstance(record);
    this.sync();
    return this;
  }

  /** A5: the pod gets a deletion timestamp; containers get the pod's grace period, then are killed. */
  deleteAfter(delayMs: number): void {
    this.deleteTimer?.dispose();
    this.deleteTimer = this.clock.schedule(delayMs, () => {
      this.deleting = true;
      this.emitEvent(undefined, 'Killing', 'Normal', `Deleting pod ${this.displayName}`);
      for (const record of this.records) {
        if (record.state === 'running' && !record.killTimer) this.kill(record, 'deletion');
        else if (record.state === 'waiting') this.abandon(record);
      }
      this.sync();
    });
  }

  /** Replaces one probe's worker (an edited probe in the editor); the others keep their state. */
  replaceProbe(containerName: string, probe: ProbeModel | undefined, type: ProbeType): void {
    const record = this.records.find((r) => r.name === containerName);
    if (!record) return;
    const current = record.workers[type];
    if (!current) {
      if (probe) this.startWorker(record, probe);
      return;
    }
    // One worker per probe (W1): the old one finishes its attempt and exits (W14) first.
    current.replacement = probe ?? null;
    current.loop.dispose();
  }

  /**
   * "Restart container" in a simulation: the container's process dies from outside (SIGKILL, exit
   * code 137), as when someone kills it or the OOM killer does. The kubelet did not kill it, so
   * there is no `Killing` event: it sees the exit and restarts the container under the pod's
   * restart policy and CrashLoopBackOff (B1–B4), exactly as after a crash. A kill already under
   * way (K3) ends now instead of at the end of its grace period.
   */
  restartContainer(name: string): RestartOutcome {
    const record = this.records.find((r) => r.name === name);
    if (!record) return 'unknown-container';
    if (this.disposed || record.state !== 'running') return 'not-running';
    const restarts = !this.deleting && this.willRestart(record, KILLED_EXIT_CODE);
    record.process?.dispose();
    this.terminate(record, KILLED_EXIT_CODE, 'Error');
    return restarts ? 'restarting' : 'stopped';
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const record of this.records) {
      for (const slot of Object.values(record.workers)) slot?.loop.dispose();
      record.process?.dispose();
      record.killTimer?.dispose();
      record.restartTimer?.dispose();
    }
    this.syncTimer?.dispose();
    this.deleteTimer?.dispose();
  }

  /** Seconds since `t = 0`. */
  private get t(): number {
    return (this.clock.now() - this.options.epoch) / 1000;
  }

  /** `format.Pod`: `name_namespace(uid)`, as kubelet events print a pod. */
  private get displayName(): string {
    return `${this.identity.name}_${this.identity.namespace}(${this.identity.uid})`;
  }

  private startWorker(record: ContainerRecord, probe: ProbeModel): void {
    const { clock } = this;
    const slot = new ProbeSlot(this, record, probe, this.results[probe.type]);
    const periodMs = probe.effective.periodSeconds * 1000;
    const kubeletJustStarted = clock.now() - this.options.kubeletStartedAt < periodMs;
    slot.loop = new WorkerLoop(slot.worker, {
      clock,
      periodMs,
      initialJitterMs: kubeletJustStarted ? this.options.random() * periodMs : 0,
      onExit: () => {
        slot.worker.cleanup();
        if (record.workers[probe.type] === slot) record.workers[probe.type] = undefined;
        if (slot.replacement && !this.disposed) this.startWorker(record, slot.replacement);
      },
    });
    record.workers[probe.type] = slot;
    slot.loop.start();
  }

  /** An attempt's `attempt` line (design.md §3). */
  reportAttempt(container: string, probe: ProbeType, containerId: string, outcome: ProbeOutcome, durationMs: number): void {
    const event: Mutable<Extract<EngineEvent, { type: 'attempt' }>> = {
      type: 'attempt',
      t: this.t,
      pod: this.identity.name,
      container,
      probe,
      containerId,
      outcome: outcome.result,
      output: outcome.output,
      durationMs,
    };
    if (outcome.error !== undefined) event.error = outcome.error;
    this.options.emit(event);
  }

  /** The kubelet's Warning event for an attempt (P3). */
  reportEvent(container: string, reason: string, message: string): void {
    this.emitEvent(container, reason, 'Warning', message);
  }

  private onResult(update: ResultUpdate): void {
    const { type } = update;
    const record = this.records.find((r) => r.containerId === update.containerId);
    if (record) this.emitEngine({ type: 'result', t: this.t, pod: this.identity.name, container: record.name, probe: type, containerId: update.containerId, value: update.result });
    this.queueSync();
  }

  /** K1: result updates reach the sync loop asynchronously, as through the kubelet's channels. */
  private queueSync(): void {
    if (this.syncTimer || this.disposed) return;
    this.syncTimer = this.clock.schedule(0, () => {
      this.syncTimer = undefined;
      this.sync();
    });
  }

  private sync(): void {
    if (this.disposed) return;
    for (const record of this.records) {
      if (record.state === 'running' && !record.killTimer && record.containerId) {
        // K2: liveness first, then startup; readiness never kills.
        if ((record.workers['liveness'] !== undefined) && this.results.liveness.get(record.containerId) === 'Failure') this.kill(record, 'liveness');
        else if ((record.workers['startup'] !== undefined) && this.results.startup.get(record.containerId) === 'Failure') this.kill(record, 'startup');
      }
      if (record.state !== 'running' && record.instance >= 0) this.considerRestart(record);
    }
    this.updateStatuses();
    this.updatePhase();
    this.triggerNotReadyReadiness();
  }

  private kill(record: ContainerRecord, cause: 'liveness' | 'startup' | 'deletion'): void {
    const probe = cause === 'deletion' ? undefined : record.workers[cause]?.model;
    const graceSeconds = Math.max(MINIMUM_GRACE_SECONDS, this.deleting ? this.spec.terminationGracePeriodSeconds : (probe?.effective.terminationGracePeriodSeconds ?? this.spec.terminationGracePeriodSeconds));
    const restart = cause !== 'deletion' && this.willRestart(record, KILLED_EXIT_CODE);
    const message =
      cause === 'deletion'
        ? `Stopping container ${record.name}`
        : record.model.kind === 'sidecar'
          ? `Init container ${record.name} failed ${cause} probe`
          : `Container ${record.name} failed ${cause} probe${restart ? ', will be restarted' : ''}`;
    this.emitEvent(record.name, 'Killing', 'Normal', message);
    // The container runs on for its grace period: a hung app does not honour SIGTERM (K3).
    record.killTimer = this.clock.schedule(graceSeconds * 1000, () => {
      record.process?.dispose();
      this.terminate(record, KILLED_EXIT_CODE, 'Error');
    });
  }

  private onExit(record: ContainerRecord, instance: number, exitCode: number): void {
    if (record.instance !== instance || record.state !== 'running') return;
    this.terminate(record, exitCode, exitCode === 0 ? 'Completed' : 'Error');
  }

  private terminate(record: ContainerRecord, exitCode: number, reason: string): void {
    record.killTimer?.dispose();
    record.killTimer = undefined;
    record.process = undefined;
    record.state = 'terminated';
    record.finishedAt = this.clock.now();
    record.exitCode = exitCode;
    record.reason = reason;
    this.emitContainer(record);
    this.queueSync();
  }

  /** A container that will never start again (a deleted pod's back-off): terminated where it stands. */
  private abandon(record: ContainerRecord): void {
    record.restartTimer?.dispose();
    record.restartTimer = undefined;
    record.state = 'terminated';
    record.reason = record.exitCode === 0 ? 'Completed' : 'Error';
    this.emitContainer(record);
  }

  /** B2: restart at once the first time, then after the back-off since the last exit. */
  private considerRestart(record: ContainerRecord): void {
    const podDone = this.phase === 'Succeeded' || this.phase === 'Failed';
    if (this.deleting || podDone || record.restartTimer || !this.willRestart(record, record.exitCode)) return;
    const key = `${this.identity.uid}/${record.name}`;
    const { clock } = this;
    if (this.backoff.isInBackoffSince(key, record.finishedAt, clock.now())) {
      if (record.reason !== 'CrashLoopBackOff') {
        record.state = 'waiting';
        record.reason = 'CrashLoopBackOff';
        this.emitContainer(record);
        this.emitEvent(record.name, 'BackOff', 'Warning', `Back-off restarting failed container ${record.name} in pod ${this.displayName}`);
      }
      const wait = record.finishedAt + this.backoff.delayMs(key) - clock.now();
      record.restartTimer = clock.schedule(wait, () => {
        record.restartTimer = undefined;
        this.sync();
      });
      return;
    }
    this.backoff.next(key, record.finishedAt, clock.now());
    this.startInstance(record);
  }

  /** Sidecars always restart; otherwise the pod's policy decides (Never, OnFailure on a non-zero exit). */
  private willRestart(record: ContainerRecord, exitCode: number): boolean {
    if (record.model.kind === 'sidecar' || this.restartPolicy === 'Always') return true;
    return this.restartPolicy === 'OnFailure' && exitCode !== 0;
  }

  private startInstance(record: ContainerRecord): void {
    const { clock } = this;
    record.instance++;
    record.containerId = `${this.options.idScheme}://${this.identity.name}/${record.name}/${record.instance}`;
    record.state = 'running';
    record.startedAt = clock.now();
    record.reason = undefined;
    record.started = false;
    record.ready = false;
    this.emitContainer(record);
    const instance = record.instance;
    record.process = this.options.processes.start(
      { pod: this.identity, container: record.model, instance, startedAt: record.startedAt },
      (exitCode) => this.onExit(record, instance, exitCode),
    );
    this.queueSync();
  }

  /** S1, S2, S4 from the caches, published on change. */
  private updateStatuses(): void {
    const readiness = new Map<string, boolean | undefined>();
    for (const record of this.records) {
      const id = record.containerId;
      const running = record.state === 'running';
      record.started = isStarted(running, (record.workers['startup'] !== undefined), id ? this.results.startup.get(id) : undefined);
      record.ready = isReady(record.started, running, (record.workers['readiness'] !== undefined), id ? this.results.readiness.get(id) : undefined);
      readiness.set(record.name, id === undefined ? undefined : record.ready);
      if (record.reported?.started !== record.started || record.reported.ready !== record.ready) {
        record.reported = { started: record.started, ready: record.ready };
        this.emitEngine({ type: 'status', t: this.t, pod: this.identity.name, container: record.name, started: record.started, ready: record.ready });
      }
    }
    const ready = containersReady(readiness, this.phase === 'Succeeded').status;
    if (ready !== this.podReady) {
      this.podReady = ready;
      this.emitEngine({ type: 'pod', t: this.t, pod: this.identity.name, ready });
    }
  }

  /**
   * Every regular container down for good: the pod is done — its sidecars are stopped with it —
   * and its workers exit (W5 step 2).
   */
  private updatePhase(): void {
    const regular = this.records.filter((r) => r.model.kind === 'regular');
    const done = regular.length > 0 && regular.every((r) => r.state === 'terminated' && (this.deleting || !this.willRestart(r, r.exitCode)));
    if (!done || this.phase === 'Succeeded' || this.phase === 'Failed') return;
    for (const sidecar of this.records) {
      if (sidecar.model.kind !== 'sidecar' || sidecar.state === 'terminated') continue;
      sidecar.killTimer?.dispose();
      sidecar.process?.dispose();
      if (sidecar.state === 'waiting') this.abandon(sidecar);
      else this.terminate(sidecar, 0, 'Completed');
    }
    this.phase = regular.every((r) => r.exitCode === 0) ? 'Succeeded' : 'Failed';
  }

  /** W13: each status update pokes the readiness workers of started containers not yet ready. */
  private triggerNotReadyReadiness(): void {
    for (const record of this.records) {
      const slot = record.workers.readiness;
      if (slot && record.started && record.state === 'running' && record.containerId && this.results.readiness.get(record.containerId) !== 'Success') slot.loop.trigger();
    }
  }

  private emitContainer(record: ContainerRecord): void {
    this.emitEngine({
      type: 'container',
      t: this.t,
      pod: this.identity.name,
      container: record.name,
      containerId: record.containerId ?? '',
      state: record.state,
      restartCount: record.restartCount,
      ...(record.reason !== undefined ? { reason: record.reason } : {}),
    });
  }

  private emitEvent(container: string | undefined, reason: string, eventType: 'Normal' | 'Warning', message: string): void {
    this.emitEngine({ type: 'event', t: this.t, pod: this.identity.name, ...(container !== undefined ? { container } : {}), reason, message, eventType });
  }

  private emitEngine(event: EngineEvent): void {
    if (!this.disposed) this.options.emit(event);
  }
}
