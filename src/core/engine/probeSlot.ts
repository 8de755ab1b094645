import type { PodSpecModel, ProbeModel, ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import { RetryingCall, verdictOf } from './attempt';
import type { Clock } from '../base/clock';
import type { ContainerRecord, ProbeRunner } from './containerRecord';
import type { PodStatusView } from './podState';
import type { ResultsCache } from './results';
import type { AttemptRequest, PodIdentity, ProbeTarget } from './target';
import { type AttemptVerdict, ProbeWorker, type WorkerHost } from './worker';
import type { WorkerLoop } from './workerLoop';

/**
 * The pod a probe slot belongs to: a `PodRuntime` (the kubelet running the containers) or an
 * `ObservedPodRuntime` (a cluster's kubelet runs them; ours only probes).
 */
export interface SlotHost extends PodStatusView {
  /** Once disposed nothing is reported, and workers see no pod (and exit). */
  readonly disposed: boolean;
  readonly identity: PodIdentity;
  readonly spec: PodSpecModel;
  readonly clock: Clock;
  readonly target: ProbeTarget;
  reportAttempt(container: string, probe: ProbeType, containerId: string, outcome: ProbeOutcome, durationMs: number): void;
  reportEvent(container: string, probe: ProbeType, reason: string, message: string): void;
}

/**
 * One probe of one container: its worker and loop, and the worker's host — the pod's status, the
 * clock, and the attempt in flight with its retries (P2). One object instead of a closure per
 * callback keeps an idle worker small and an attempt cheap.
 */
export class ProbeSlot implements WorkerHost, ProbeRunner {
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
    private readonly runtime: SlotHost,
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
    if (event) this.runtime.reportEvent(this.record.name, this.model.type, event.reason, event.message);
    done(verdict);
  }
}
