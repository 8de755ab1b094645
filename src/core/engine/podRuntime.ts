import type { PodSpecModel, ProbeModel, ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import { Backoff, type BackoffPolicy, KUBELET_BACKOFF } from './backoff';
import type { Clock } from '../base/clock';
import { ContainerRecord } from './containerRecord';
import { PodProbes } from './podProbes';
import { backOffEventMessage, crashLoopMessage } from './crashLoop';
import type { Disposable } from '../base/disposable';
import { attemptLine, containerLine, inWrittenOrder, kubeletEventLine, probeKillMessage } from './eventLines';
import type { EngineEvent, EventSink } from './events';
import { type InitContainerView, type InitStep, initializationStep } from './initialization';
import { isInitContainerReady, isReady, isStarted } from './podStatus';
import type { ContainerStatusView, PodPhase, PodStatusView } from './podState';
import type { ContainerProcesses, PodIdentity, ProbeTarget } from './target';
import { graceGivenSeconds, SIGKILL_EXIT_CODE, stopOutcome } from './termination';
import { replaceProbeWorker, startProbeWorker, triggerNotReadyReadiness } from './probeWorkers';

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

/**
 * What `restartContainer` did: `restarting` — killed, and the kubelet starts it again (at once or
 * after its back-off); `stopped` — killed, and the restart policy (or the pod's deletion) keeps it
 * down; `not-running` — nothing to kill (waiting out a back-off, or terminated).
 */
export type RestartOutcome = 'restarting' | 'stopped' | 'not-running' | 'unknown-container';

/**
 * The kubelet's `--sync-frequency` (default 1 m): the pod worker requeues a pod at most this long
 * after a sync (pod_workers.go `completeWork`).
 */
const RESYNC_INTERVAL_MS = 60_000;

/**
 * The kubelet, for one pod: init containers one at a time, then the app containers (I1–I4 in
 * docs/kubelet-notes.md); probe workers feed results caches; changes trigger a pod sync (K1) that
 * kills containers whose liveness or startup failed (K2) after their grace period (K3), restarts
 * them under CrashLoopBackOff (B1–B4) and the restart policy, derives started / ready (S1–S4) and
 * pokes not-ready readiness workers (W13).
 */
export class PodRuntime implements PodStatusView, Disposable {
  phase: PodPhase = 'Pending';
  deleting = false;
  readonly restartPolicy: string;
  /** In spec order: init containers (plain and sidecars), then app containers. */
  private readonly records: ContainerRecord[] = [];
  private readonly inits: ContainerRecord[];
  private readonly apps: ContainerRecord[];
  private readonly probes: PodProbes;
  private readonly backoff: Backoff;
  /** The pod worker's next sync while a container backs off (B5). */
  private requeueTimer: Disposable | undefined;
  private deleteTimer: Disposable | undefined;
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
    this.probes = new PodProbes({ clock: this.clock, podName: identity.name, kubeletStartedAt: options.kubeletStartedAt, random: options.random, t: () => this.t, emit: (event) => this.emitEngine(event), records: () => this.records, sync: () => this.sync() });
    // Ephemeral containers are never started by the pod. Plain init containers are modelled only
    // where something runs them; a process we only observe initialized before we looked.
    const runsInits = options.processes.runsPlainInitContainers === true;
    for (const container of spec.containers) {
      if (container.kind === 'regular' || container.kind === 'sidecar' || (container.kind === 'init' && runsInits)) this.records.push(new ContainerRecord(container));
    }
    this.inits = this.records.filter((r) => r.isInit);
    this.apps = this.records.filter((r) => !r.isInit);
  }

  /** W5 step 3's lookup, with the last exit's code for those who show it. */
  container(name: string): (ContainerStatusView & { readonly exitCode: number }) | undefined {
    for (const record of this.records) if (record.name === name) return record;
    return undefined;
  }

  /** Starts the probe workers and the pod's first sync, at the clock's now. */
  start(): this {
    // As in the kubelet's SyncPod: workers first (their first doProbe finds no container, W5
    // step 3), then the containers. So a first attempt comes one period after the start, and
    // d + f × p (docs/spec/validation-rules.md §C) is when a never-healthy container is first killed.
    for (const record of this.records) for (const probe of inWrittenOrder(record.model.probes)) this.startWorker(record, probe);
    this.sync();
    // I1: a pod with init containers shows the containers it has not started yet as PodInitializing.
    if (this.inits.length > 0) {
      for (const record of this.records) {
        if (record.created) continue;
        record.reason = 'PodInitializing';
        this.emitContainer(record);
      }
    }
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
        else if (record.state === 'waiting' && record.created) this.abandon(record);
      }
      this.sync();
    });
  }

  /** Replaces one probe's worker (an edited probe in the editor); the others keep their state. */
  replaceProbe(containerName: string, probe: ProbeModel | undefined, type: ProbeType): void {
    const record = this.records.find((r) => r.name === containerName);
    if (record) replaceProbeWorker(record, probe, type, (next) => this.startWorker(record, next));
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
    const restarts = !this.deleting && this.willRestart(record, SIGKILL_EXIT_CODE);
    record.process?.dispose();
    this.terminate(record, SIGKILL_EXIT_CODE, 'Error');
    return restarts ? 'restarting' : 'stopped';
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const record of this.records) {
      for (const slot of Object.values(record.workers)) slot?.loop.dispose();
      record.process?.dispose();
      record.killTimer?.dispose();
    }
    this.probes.pending.dispose();
    this.requeueTimer?.dispose();
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
    startProbeWorker(this, record, probe, this.probes.results[probe.type], this.probes.workerStart);
  }


  /** An attempt's `attempt` line (docs/design.md §3). */
  reportAttempt(container: string, probe: ProbeType, containerId: string, outcome: ProbeOutcome, durationMs: number): void {
    this.options.emit(attemptLine(this.t, this.identity.name, container, probe, containerId, outcome, durationMs));
  }

  /** The kubelet's Warning event for an attempt (P3). */
  reportEvent(container: string, probe: ProbeType, reason: string, message: string): void {
    this.emitEvent(container, reason, 'Warning', message, probe);
  }

  /** One pod sync (`computePodActions` + `SyncPod`): kills, then starts, then the status it leaves. */
  private sync(): void {
    if (this.disposed) return;
    for (const record of this.records) this.killIfUnhealthy(record);
    const step = initializationStep(this.inits.map((r) => this.initView(r)), this.restartPolicy, this.apps.some((r) => r.state === 'running'));
    if (step.kind === 'failed') this.failInitialization();
    const backOffUntil = step.kind === 'failed' || this.deleting || this.podDone ? undefined : this.startContainers(step);
    this.updateStatuses();
    this.updatePhase();
    this.requeue(this.podDone ? undefined : backOffUntil);
    triggerNotReadyReadiness(this.records, this.probes.results.readiness);
  }

  /**
   * SyncPod's starts, in its order: the next init container (I1–I4) and the sidecars that died,
   * in spec order, then — once initialized — the app containers. Returns when the earliest
   * back-off that kept one of them down ends.
   */
  private startContainers(step: InitStep): number | undefined {
    let backOffUntil: number | undefined;
    const restart = (record: ContainerRecord) => {
      const until = this.considerRestart(record);
      if (until !== undefined) backOffUntil = Math.min(backOffUntil ?? until, until);
    };
    for (const [index, record] of this.inits.entries()) {
      const next = (step.kind === 'start' || step.kind === 'restart') && step.index === index;
      if (next && !record.created) this.startInstance(record);
      else if (next || (record.model.kind === 'sidecar' && record.created && record.state !== 'running')) restart(record);
    }
    if (step.kind !== 'initialized') return backOffUntil;
    for (const record of this.apps) {
      if (!record.created) this.startInstance(record);
      else if (record.state !== 'running') restart(record);
    }
    return backOffUntil;
  }

  /** Read from the caches now: a startup Success that triggered this sync counts in it. */
  private initView(record: ContainerRecord): InitContainerView {
    return { sidecar: record.model.kind === 'sidecar', created: record.created, state: record.state, exitCode: record.exitCode, started: this.isStartedNow(record) };
  }

  /** S1, from the startup cache as it is now. */
  private isStartedNow(record: ContainerRecord): boolean {
    const id = record.containerId;
    return isStarted(record.state === 'running', record.workers.startup !== undefined, id ? this.probes.results.startup.get(id) : undefined);
  }

  private get podDone(): boolean {
    return this.phase === 'Succeeded' || this.phase === 'Failed';
  }

  /** K2: liveness first, then startup; readiness never kills. */
  private killIfUnhealthy(record: ContainerRecord): void {
    if (record.state !== 'running' || record.killTimer || !record.containerId) return;
    if (record.workers.liveness !== undefined && this.probes.results.liveness.get(record.containerId) === 'Failure') this.kill(record, 'liveness');
    else if (record.workers.startup !== undefined && this.probes.results.startup.get(record.containerId) === 'Failure') this.kill(record, 'startup');
  }

  private kill(record: ContainerRecord, cause: 'liveness' | 'startup' | 'deletion'): void {
    const probe = cause === 'deletion' ? undefined : record.workers[cause]?.model;
    const graceSeconds = graceGivenSeconds(this.spec.terminationGracePeriodSeconds, probe?.effective.terminationGracePeriodSeconds, this.deleting);
    const restart = cause !== 'deletion' && this.willRestart(record, SIGKILL_EXIT_CODE);
    const message = cause === 'deletion' ? `Stopping container ${record.name}` : probeKillMessage(record.name, record.model.kind === 'sidecar', cause, restart);
    this.emitEvent(record.name, 'Killing', 'Normal', message, cause === 'deletion' ? undefined : cause);
    // SIGTERM: an app that honours it (the scenario's stopAfter) ends within the grace period; a
    // hung one runs it out and is SIGKILLed (K3).
    const stop = stopOutcome(graceSeconds * 1000, record.process?.stopAfterMs);
    record.killTimer = this.clock.schedule(stop.afterMs, () => {
      record.process?.dispose();
      this.terminate(record, stop.exitCode, 'Error');
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
    record.message = undefined;
    this.emitContainer(record);
    this.probes.pending.queue();
  }

  /** A container that will never start again (a deleted pod's back-off): terminated where it stands. */
  private abandon(record: ContainerRecord): void {
    record.state = 'terminated';
    record.reason = record.exitCode === 0 ? 'Completed' : 'Error';
    record.message = undefined;
    this.emitContainer(record);
  }

  /**
   * B2 (`doBackOff`): restart at once the first time, then only once the back-off since the last
   * exit has passed. Every sync that finds the container still backing off records a `BackOff`
   * event (B5); the waiting state and its message change only when a new back-off begins.
   * Returns when the back-off ends, if it goes on.
   */
  private considerRestart(record: ContainerRecord): number | undefined {
    if (!this.willRestart(record, record.exitCode)) return undefined;
    const key = `${this.identity.uid}/${record.name}`;
    const now = this.clock.now();
    if (!this.backoff.isInBackoffSince(key, record.finishedAt, now)) {
      this.backoff.next(key, record.finishedAt, now);
      this.startInstance(record);
      return undefined;
    }
    const delayMs = this.backoff.delayMs(key);
    const message = crashLoopMessage(delayMs, record.name, this.displayName);
    if (record.reason !== 'CrashLoopBackOff' || record.message !== message) {
      record.state = 'waiting';
      record.reason = 'CrashLoopBackOff';
      record.message = message;
      this.emitContainer(record);
    }
    this.emitEvent(record.name, 'BackOff', 'Warning', backOffEventMessage(record.name, this.displayName));
    return record.finishedAt + delayMs;
  }

  /**
   * B5: a sync that leaves a container backing off fails with a `BackoffError`, and the pod
   * worker syncs the pod again when the back-off ends, or after the resync interval if that is
   * sooner (`completeWork`). The kubelet adds up to half as much again as jitter; a simulation
   * takes the lower bound, so restarts land exactly on B2's waits.
   */
  private requeue(backOffUntil: number | undefined): void {
    this.requeueTimer?.dispose();
    this.requeueTimer = undefined;
    if (backOffUntil === undefined) return;
    const delayMs = Math.min(backOffUntil - this.clock.now(), RESYNC_INTERVAL_MS);
    // A sync of its own, at once: the restart at the end of a back-off comes before the probe
    // ticks due at the same instant, which then see the new container.
    this.requeueTimer = this.clock.schedule(delayMs, () => {
      this.requeueTimer = undefined;
      this.sync();
    });
  }

  /**
   * Who restarts after an exit: sidecars always; plain init containers after a failure unless the
   * policy is Never (I3); app containers under the pod's policy (Never, OnFailure on a non-zero exit).
   */
  private willRestart(record: ContainerRecord, exitCode: number): boolean {
    if (record.model.kind === 'sidecar') return true;
    if (record.isPlainInit) return exitCode !== 0 && this.restartPolicy !== 'Never';
    return this.restartPolicy === 'Always' || (this.restartPolicy === 'OnFailure' && exitCode !== 0);
  }

  private startInstance(record: ContainerRecord): void {
    const { clock } = this;
    record.instance++;
    record.containerId = `${this.options.idScheme}://${this.identity.name}/${record.name}/${record.instance}`;
    record.state = 'running';
    record.startedAt = clock.now();
    record.reason = undefined;
    record.message = undefined;
    record.started = false;
    record.ready = false;
    this.emitContainer(record);
    const instance = record.instance;
    record.process = this.options.processes.start(
      { pod: this.identity, container: record.model, instance, startedAt: record.startedAt },
      (exitCode) => this.onExit(record, instance, exitCode),
    );
    this.probes.pending.queue();
  }

  /** I3: a plain init container failed under restartPolicy Never: the pod has failed, its sidecars go with it. */
  private failInitialization(): void {
    if (this.podDone) return;
    this.stopSidecars();
    this.phase = 'Failed';
  }

  private stopSidecars(): void {
    for (const sidecar of this.inits) {
      if (sidecar.model.kind !== 'sidecar' || sidecar.state === 'terminated' || !sidecar.created) continue;
      sidecar.killTimer?.dispose();
      sidecar.process?.dispose();
      if (sidecar.state === 'waiting') this.abandon(sidecar);
      else this.terminate(sidecar, 0, 'Completed');
    }
  }

  /** S1–S4 from the caches, published on change. Plain init containers are ready once they exited 0 (S3) and count for no condition. */
  private updateStatuses(): void {
    const readiness = new Map<string, boolean | undefined>();
    for (const record of this.records) {
      const id = record.containerId;
      const running = record.state === 'running';
      if (record.isPlainInit) {
        record.started = running;
        record.ready = isInitContainerReady(record.state === 'terminated', record.exitCode);
      } else {
        record.started = this.isStartedNow(record);
        record.ready = isReady(record.started, running, record.workers.readiness !== undefined, id ? this.probes.results.readiness.get(id) : undefined);
        readiness.set(record.name, id === undefined ? undefined : record.ready);
      }
      this.probes.publishStatus(record);
    }
    this.probes.publishPodReady(readiness, this.phase === 'Succeeded');
  }

  /**
   * Running once an app container has started. Done once every app container is down for good
   * (a deleted pod's never-started ones included, and no init container still stopping): its
   * sidecars are stopped with it, and its workers exit (W5 step 2).
   */
  private updatePhase(): void {
    if (this.podDone) return;
    const down = (r: ContainerRecord) => (r.created ? r.state === 'terminated' && (this.deleting || !this.willRestart(r, r.exitCode)) : this.deleting);
    const stopping = this.deleting && this.inits.some((r) => r.isPlainInit && r.state === 'running');
    if (this.apps.length > 0 && this.apps.every(down) && !stopping) {
      this.stopSidecars();
      this.phase = this.apps.every((r) => r.created && r.exitCode === 0) ? 'Succeeded' : 'Failed';
      return;
    }
    if (this.phase === 'Pending' && this.apps.some((r) => r.created)) this.phase = 'Running';
  }



  private emitContainer(record: ContainerRecord): void {
    this.emitEngine(containerLine(this.t, this.identity.name, record));
  }

  private emitEvent(container: string | undefined, reason: string, eventType: 'Normal' | 'Warning', message: string, probe?: ProbeType): void {
    this.emitEngine(kubeletEventLine(this.t, this.identity.name, container, reason, eventType, message, probe));
  }

  private emitEngine(event: EngineEvent): void {
    if (!this.disposed) this.options.emit(event);
  }
}
