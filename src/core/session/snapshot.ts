import type { EngineEvent } from '../engine/events';
import type { ProbeType } from '../manifest';
import type { ContainerSummary, PodSummary, ProbeSummary } from './summary';

/**
 * One immutable, versioned view of a probing session: what the Probes view, the code lenses, the
 * status bar and the hovers all render from, so that at any moment they say the same thing. A
 * session publishes one at a fixed cadence (`SessionState.snapshot`); parts that did not change
 * since the last one are the same objects, so a view can tell what changed by identity.
 */
export interface SessionSnapshot {
  /** Grows by one with every snapshot that differs from the one before. */
  readonly version: number;
  /** Seconds since the session began, on its clock (virtual in a simulation), when it was taken. */
  readonly t: number;
  readonly clock: SessionClock;
  readonly kills: KillMode;
  /** By pod name, in the order the engine first reported them. */
  readonly pods: ReadonlyMap<string, PodSnapshot>;
  /** Wall-clock time (epoch ms) the session stopped; `undefined` while it runs. */
  readonly endedAt: number | undefined;
  /** Why it stopped, when it stopped on its own because it could not go on (the cluster refused what its probes need). */
  readonly stoppedBecause: string | undefined;
}

/** A simulation's virtual clock (played, paused, at a speed) or the wall clock. */
export type SessionClock = { readonly kind: 'virtual'; readonly paused: boolean; readonly speed: number } | { readonly kind: 'wall' };

/**
 * What becomes of the kubelet's kills: `carried-out` — the container dies and is restarted (a
 * simulation); `reported` — only decided, the process we observe runs on and the container
 * "would restart" (local sessions); `cluster` — the cluster's kubelet owns the containers: ours
 * "would restart" (a prediction), and the restarts counted are the cluster's own.
 */
export type KillMode = 'carried-out' | 'reported' | 'cluster';

export type AttemptRecord = Extract<EngineEvent, { type: 'attempt' }>;

/** A failed probe (its kill), or the process exiting by itself (or killed from outside). */
export type RestartCause = ProbeType | 'exit';

export interface PodSnapshot extends PodSummary {
  readonly containers: ReadonlyMap<string, ContainerSnapshot>;
  /** Cluster sessions: the pod's Ready condition as the cluster reports it (`undefined` elsewhere). */
  readonly kubeletReady: boolean | undefined;
  /** Cluster sessions: the cluster pod probed under this name, since the start or the last rollout. */
  readonly clusterPod: ClusterPodRef | undefined;
  /** Cluster sessions: the cluster's newest events for the pod (newest last, at most a few). */
  readonly clusterEvents: readonly ClusterEventRecord[];
}

export type ClusterEventRecord = Extract<EngineEvent, { type: 'clusterEvent' }>;

/** Which cluster pod a pod of the session is probed through (`manifestPod`: the manifest's pod it runs for). */
export interface ClusterPodRef {
  readonly name: string;
  readonly namespace: string;
  readonly podIP: string | undefined;
  readonly manifestPod: string;
}

/** Cluster sessions: what the cluster's own kubelet reports of a container, beside what our probes conclude. */
export interface KubeletView {
  readonly started: boolean | undefined;
  readonly ready: boolean;
  readonly restartCount: number | undefined;
}

/** Cluster sessions: our readiness and the kubelet's have differed for a while, and the likeliest reason. */
export interface DisagreementView {
  readonly t: number;
  readonly ours: boolean;
  readonly kubelet: boolean;
  readonly cause: string;
  readonly message: string;
}

/** Cluster sessions: where our kubelet would have killed, and whether the cluster's did. */
export interface PredictionView {
  readonly t: number;
  readonly probe: 'liveness' | 'startup';
  readonly state: 'pending' | 'confirmed' | 'missed';
  readonly message: string;
}

export interface ContainerSnapshot extends ContainerSummary {
  readonly probes: ReadonlyMap<ProbeType, ProbeSnapshot>;
  /** The waiting state's message: `back-off 20s restarting failed container=…` (B2). */
  readonly message: string | undefined;
  /**
   * Restarts counted from the moment the kubelet decides them: its `restartCount`, plus one while
   * a restart is under way (a kill that will restart it, or a back-off to wait out). kubectl
   * counts a restart only once the new container runs, a grace period and a back-off later.
   */
  readonly restarts: number;
  /** A kill decided for the current instance (K2), while it stops (K3) or, where kills are only reported, would. */
  readonly killing: { readonly probe: ProbeType; readonly t: number; readonly restarts: boolean } | undefined;
  /** What ended the last instance that ended: the probe that failed, or the process exiting. */
  readonly lastRestartCause: RestartCause | undefined;
  /** While it waits out CrashLoopBackOff: when the back-off ends (session seconds). */
  readonly backOffUntil: number | undefined;
  /** When the current instance started (session seconds). */
  readonly startedAt: number | undefined;
  /** Cluster sessions: the kubelet's own view of the container (`undefined` until it reports, and elsewhere). */
  readonly kubelet: KubeletView | undefined;
  /** Cluster sessions: an open disagreement between our readiness and the kubelet's. */
  readonly disagreement: DisagreementView | undefined;
  /** Cluster sessions: the newest prediction of a kill, and how it turned out. */
  readonly prediction: PredictionView | undefined;
}

/**
 * A probe's counts for the CURRENT container instance only (a restarted container starts from
 * none, as the kubelet's new worker state does), with the totals of every instance beside them.
 */
export interface ProbeSnapshot extends ProbeSummary {
  readonly type: ProbeType;
  /** The instance the counts are for (`''` before its first attempt). */
  readonly containerId: string;
  /** The newest attempt of the current instance. */
  readonly last: AttemptRecord | undefined;
  /** The newest attempts of the current instance (newest last), with their times: what a hover lists. */
  readonly recentAttempts: readonly AttemptRecord[];
  /** Every instance's attempts since the probe was started (or last edited); `answered`: those that were not prober errors. */
  readonly total: { readonly attempts: number; readonly successes: number; readonly answered: number };
  /** The newest attempt of any instance: what failed last, even across a restart. */
  readonly newest: AttemptRecord | undefined;
  /** From the probe's worker, once it started. */
  readonly failureThreshold: number | undefined;
}
