import type { EffectiveProbe, ProbeType } from '../manifest';
import type { PodStatusView } from './podState';
import type { CachedResult, ResultsCache } from './results';

/** A probe's verdict as the worker sees it after the prober's mapping (P3): a value, or an error to discard. */
export type AttemptVerdict = { readonly result: 'Success' | 'Failure' } | { readonly error: string };

/** The initial cached value for a new container (W2). */
const INITIAL_RESULT: Readonly<Record<ProbeType, CachedResult>> = {
  readiness: 'Failure',
  liveness: 'Success',
  startup: 'Unknown',
};

export type Decision =
  | { readonly kind: 'keep-going'; readonly reason: SkipReason }
  | { readonly kind: 'exit'; readonly reason: ExitReason }
  | { readonly kind: 'probe'; readonly containerId: string };

export type SkipReason = 'no-pod-status' | 'no-container' | 'on-hold' | 'not-running' | 'initial-delay' | 'not-started' | 'already-started';
export type ExitReason = 'pod-finished' | 'will-not-restart' | 'pod-deleting';

export interface WorkerHost {
  podStatus(): PodStatusView | undefined;
  now(): number;
  /** Runs the probe (with its retries, P2) against the container and reports the verdict. */
  probe(containerId: string, done: (verdict: AttemptVerdict) => void): void;
}

/**
 * One probe of one container: the kubelet's `worker` minus its loop. `decide` is a single
 * `doProbe` decision (W5 steps 1–9, in that order); `record` is the threshold accounting after
 * an attempt (W7–W9). The loop that calls `doProbe` on ticks lives in `WorkerLoop`.
 */
export class ProbeWorker {
  private lastResult: CachedResult | undefined;
  private resultRun = 0;
  private onHold = false;
  private containerId: string | undefined;
  /** The attempt in flight: the container it probes and the loop's continuation. */
  private probingId: string | undefined;
  private probingDone: ((keepGoing: boolean) => void) | undefined;
  private readonly onVerdict = (verdict: AttemptVerdict) => this.verdict(verdict);

  constructor(
    readonly type: ProbeType,
    readonly containerName: string,
    /** A sidecar is restarted whatever the pod's restartPolicy (W5 step 6). */
    private readonly restartableInit: boolean,
    private readonly spec: EffectiveProbe,
    private readonly results: ResultsCache,
    private readonly host: WorkerHost,
  ) {}

  /** `doProbe`: decide, probe if that is the decision, account; `done(keepGoing)`. */
  doProbe(done: (keepGoing: boolean) => void): void {
    const decision = this.decide();
    if (decision.kind !== 'probe') {
      done(decision.kind === 'keep-going');
      return;
    }
    this.probingId = decision.containerId;
    this.probingDone = done;
    this.host.probe(decision.containerId, this.onVerdict);
  }

  /** W5 step 10: an error is discarded; a result is counted against the container it was probed on. */
  private verdict(verdict: AttemptVerdict): void {
    const done = this.probingDone;
    const containerId = this.probingId;
    if (!done || containerId === undefined) return;
    this.probingDone = undefined;
    this.probingId = undefined;
    if ('result' in verdict) this.record(containerId, verdict.result);
    done(true);
  }

  decide(): Decision {
    const status = this.host.podStatus();
    if (status === undefined) return keepGoing('no-pod-status');
    if (status.phase === 'Failed' || status.phase === 'Succeeded') return { kind: 'exit', reason: 'pod-finished' };
    const container = status.container(this.containerName);
    if (container?.containerId === undefined) return keepGoing('no-container');
    if (container.containerId !== this.containerId) this.adopt(container.containerId);
    if (this.onHold) return keepGoing('on-hold');
    if (container.state !== 'running') {
      this.results.set(container.containerId, 'Failure');
      const willRestart = container.state !== 'terminated' || status.restartPolicy !== 'Never' || this.restartableInit;
      return willRestart ? keepGoing('not-running') : { kind: 'exit', reason: 'will-not-restart' };
    }
    if (status.deleting && this.type !== 'readiness') {
      // Quiet shutdown: a terminating pod is neither killed nor held back by these probes.
      this.results.set(container.containerId, 'Success');
      return { kind: 'exit', reason: 'pod-deleting' };
    }
    // Whole seconds, truncated, since the container started (not since start-up succeeded: W6).
    if (Math.trunc((this.host.now() - (container.startedAt ?? 0)) / 1000) < this.spec.initialDelaySeconds) return keepGoing('initial-delay');
    if (container.started && this.type === 'startup') return keepGoing('already-started');
    if (!container.started && this.type !== 'startup') return keepGoing('not-started');
    return { kind: 'probe', containerId: container.containerId };
  }

  /** W7–W9: count consecutive results, publish once a threshold is met, hold where the kubelet holds. */
  record(containerId: string, result: 'Success' | 'Failure'): void {
    if (result === this.lastResult) this.resultRun++;
    else {
      this.lastResult = result;
      this.resultRun = 1;
    }
    const threshold = result === 'Failure' ? this.spec.failureThreshold : this.spec.successThreshold;
    if (this.resultRun < threshold) return;
    this.results.set(containerId, result);
    if ((this.type === 'liveness' && result === 'Failure') || this.type === 'startup') {
      this.onHold = true;
      this.resultRun = 0;
    }
  }

  /** W14: a stopped worker takes its cached result with it. */
  cleanup(): void {
    if (this.containerId !== undefined) this.results.remove(this.containerId);
  }

  /** W5 step 4: a new container ID gets the initial value and lifts the hold; the run is kept (W10). */
  private adopt(containerId: string): void {
    if (this.containerId !== undefined) this.results.remove(this.containerId);
    this.containerId = containerId;
    this.results.set(containerId, INITIAL_RESULT[this.type]);
    this.onHold = false;
  }

  /** For tests and the tree view: the worker's counters. */
  get state(): { readonly lastResult?: CachedResult; readonly resultRun: number; readonly onHold: boolean; readonly containerId?: string } {
    return {
      ...(this.lastResult !== undefined ? { lastResult: this.lastResult } : {}),
      resultRun: this.resultRun,
      onHold: this.onHold,
      ...(this.containerId !== undefined ? { containerId: this.containerId } : {}),
    };
  }
}

const KEEP_GOING = new Map<SkipReason, Decision>();

/** Decisions without data are shared: `decide` runs on every tick of every worker. */
function keepGoing(reason: SkipReason): Decision {
  let decision = KEEP_GOING.get(reason);
  if (!decision) KEEP_GOING.set(reason, (decision = { kind: 'keep-going', reason }));
  return decision;
}
