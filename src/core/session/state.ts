import { crashLoopDelayMs } from '../engine/crashLoop';
import { killRestarts } from '../engine/eventLines';
import type { EngineEvent } from '../engine/events';
import type { ContainerState } from '../engine/podState';
import type { CachedResult } from '../engine/results';
import type { ProbeType } from '../manifest';
import type { ProbeResult } from '../probers/types';
import type { AttemptRecord, ClusterEventRecord, ClusterPodRef, ContainerSnapshot, DisagreementView, KillMode, KubeletView, PodSnapshot, PredictionView, ProbeSnapshot, RestartCause, SessionClock, SessionSnapshot } from './snapshot';

/** How many recent outcomes and attempts (of the current instance) each probe keeps. */
const RECENT = 12;
/** How many of the cluster's events each pod keeps for the views (the timeline keeps them all). */
const RECENT_CLUSTER_EVENTS = 5;

/** What a snapshot says besides the engine's events: when it was taken, on what clock, and whether the session ended. */
export interface SnapshotMoment {
  /** Seconds since the session began, on its clock. */
  readonly t: number;
  readonly clock: SessionClock;
  /** Wall-clock time (epoch ms) the session stopped, once it has. */
  readonly endedAt?: number;
  /** Why, when it stopped on its own. */
  readonly stoppedBecause?: string;
}

class ProbeFold {
  containerId = '';
  attempts = 0;
  successes = 0;
  result: CachedResult | undefined;
  /** Newest last; the outcomes (`recent`) and the newest (`last`) are read from it. */
  recentAttempts: AttemptRecord[] = [];
  totalAttempts = 0;
  totalSuccesses = 0;
  /** Attempts that got an answer from the app (not a prober error, P5). */
  totalAnswered = 0;
  newest: AttemptRecord | undefined;
  failureThreshold: number | undefined;
  frozen: ProbeSnapshot | undefined;

  constructor(readonly type: ProbeType) {}

  /** A new container instance: its counts start from none (the totals go on). */
  startInstance(containerId: string): void {
    this.containerId = containerId;
    this.attempts = 0;
    this.successes = 0;
    this.recentAttempts = [];
    this.result = undefined;
    this.frozen = undefined;
  }

  freeze(): ProbeSnapshot {
    if (this.frozen) return this.frozen;
    const last = this.recentAttempts.at(-1);
    return (this.frozen = Object.freeze({
      type: this.type,
      containerId: this.containerId,
      attempts: this.attempts,
      successes: this.successes,
      recent: Object.freeze(this.recentAttempts.map(outcomeOf)),
      lastOutput: last?.output ?? '',
      lastError: last?.error,
      lastDurationMs: last?.durationMs ?? 0,
      result: this.result,
      last,
      recentAttempts: Object.freeze([...this.recentAttempts]),
      total: Object.freeze({ attempts: this.totalAttempts, successes: this.totalSuccesses, answered: this.totalAnswered }),
      newest: this.newest,
      failureThreshold: this.failureThreshold,
    }));
  }
}

class ContainerFold {
  containerId = '';
  state: ContainerState = 'waiting';
  reason: string | undefined;
  message: string | undefined;
  restartCount = 0;
  started = false;
  ready = false;
  killing: ContainerSnapshot['killing'];
  lastRestartCause: RestartCause | undefined;
  finishedAt: number | undefined;
  startedAt: number | undefined;
  kubelet: KubeletView | undefined;
  disagreement: DisagreementView | undefined;
  prediction: PredictionView | undefined;
  readonly probes = new Map<ProbeType, ProbeFold>();
  frozen: ContainerSnapshot | undefined;

  constructor(
    readonly name: string,
    private readonly kills: KillMode,
  ) {}

  /**
   * One more restart while one is under way: a kill that brings it back, or a back-off to wait
   * out. In a cluster the restarts are the cluster's own, counted once it made them.
   */
  get restarts(): number {
    if (this.kills === 'cluster') return this.restartCount;
    const restarting = this.state === 'waiting' ? this.reason === 'CrashLoopBackOff' : this.killing?.restarts === true;
    return this.restartCount + (restarting ? 1 : 0);
  }

  get backOffUntil(): number | undefined {
    if (this.state !== 'waiting' || this.reason !== 'CrashLoopBackOff' || this.message === undefined || this.finishedAt === undefined) return undefined;
    const delayMs = crashLoopDelayMs(this.message);
    return delayMs === undefined ? undefined : this.finishedAt + delayMs / 1000;
  }

  freeze(): ContainerSnapshot {
    if (this.frozen) return this.frozen;
    const probes = new Map<ProbeType, ProbeSnapshot>();
    for (const [type, probe] of this.probes) probes.set(type, probe.freeze());
    return (this.frozen = Object.freeze({
      name: this.name,
      containerId: this.containerId,
      state: this.state,
      reason: this.reason,
      message: this.message,
      restartCount: this.restartCount,
      restarts: this.restarts,
      started: this.started,
      ready: this.ready,
      killing: this.killing,
      lastRestartCause: this.lastRestartCause,
      backOffUntil: this.backOffUntil,
      startedAt: this.startedAt,
      kubelet: this.kubelet,
      disagreement: this.disagreement,
      prediction: this.prediction,
      probes,
    }));
  }
}

class PodFold {
  ready = false;
  kubeletReady: boolean | undefined;
  clusterPod: ClusterPodRef | undefined;
  clusterEvents: ClusterEventRecord[] = [];
  readonly containers = new Map<string, ContainerFold>();
  frozen: PodSnapshot | undefined;

  constructor(readonly name: string) {}

  freeze(): PodSnapshot {
    if (this.frozen) return this.frozen;
    const containers = new Map<string, ContainerSnapshot>();
    for (const [name, container] of this.containers) containers.set(name, container.freeze());
    return (this.frozen = Object.freeze({
      name: this.name,
      ready: this.ready,
      containers,
      kubeletReady: this.kubeletReady,
      clusterPod: this.clusterPod,
      clusterEvents: Object.freeze([...this.clusterEvents]),
    }));
  }
}

/**
 * A session's state, folded from its engine's events, and the snapshots taken of it. Counts are
 * kept per container instance (they start afresh when a new container ID runs) and in total; a
 * kill decision counts as a restart at once. Taking a snapshot rebuilds only what changed since
 * the one before, and returns that same one when nothing did.
 */
export class SessionState {
  private readonly pods = new Map<string, PodFold>();
  private latest: SessionSnapshot;
  private changed = false;

  constructor(readonly kills: KillMode) {
    this.latest = Object.freeze({ version: 0, t: 0, clock: WALL, kills, pods: new Map(), endedAt: undefined, stoppedBecause: undefined });
  }

  apply(event: EngineEvent): void {
    switch (event.type) {
      case 'pod': {
        const pod = this.pod(event.pod);
        pod.ready = event.ready;
        this.touch(pod);
        return;
      }
      case 'container':
        return this.onContainer(event);
      case 'status': {
        const { pod, container } = this.container(event.pod, event.container);
        container.started = event.started;
        container.ready = event.ready;
        this.touch(pod, container);
        return;
      }
      case 'attempt':
        return this.onAttempt(event);
      case 'result': {
        const { pod, container } = this.container(event.pod, event.container);
        if (!isCurrent(container, event.containerId)) return;
        const probe = this.probeOf(container, event.probe, event.containerId);
        probe.result = event.value;
        this.touch(pod, container, probe);
        return;
      }
      case 'worker': {
        const { pod, container } = this.container(event.pod, event.container);
        const probe = this.probeOf(container, event.probe);
        probe.failureThreshold = event.failureThreshold;
        this.touch(pod, container, probe);
        return;
      }
      case 'event':
        return this.onKubeletEvent(event);
      case 'kubelet':
        return this.onKubelet(event);
      case 'prediction':
        return this.onPrediction(event);
      case 'disagreement': {
        const { pod, container } = this.container(event.pod, event.container);
        container.disagreement = event.state === 'open' ? Object.freeze({ t: event.t, ours: event.ours, kubelet: event.kubelet, cause: event.cause, message: event.message }) : undefined;
        this.touch(pod, container);
        return;
      }
      case 'clusterEvent': {
        const pod = this.pod(event.pod);
        push(pod.clusterEvents, event, RECENT_CLUSTER_EVENTS);
        this.touch(pod);
        return;
      }
      case 'target': {
        const pod = this.pod(event.pod);
        pod.clusterPod = Object.freeze({ name: event.clusterPod, namespace: event.namespace, podIP: event.podIP, manifestPod: event.manifestPod });
        this.touch(pod);
        return;
      }
      case 'tunnel':
        return;
    }
  }

  /** An edited probe starts its counts afresh (its worker was replaced). */
  forgetProbe(podName: string, containerName: string, type: ProbeType): void {
    const pod = this.pods.get(podName);
    const container = pod?.containers.get(containerName);
    if (!pod || !container || !container.probes.delete(type)) return;
    this.touch(pod, container);
  }

  /**
   * The state now, as an immutable snapshot: the same object as last time when neither the state
   * nor `moment` changed, else the next version (unchanged pods, containers and probes shared).
   */
  snapshot(moment: SnapshotMoment): SessionSnapshot {
    const last = this.latest;
    if (!this.changed && last.t === moment.t && last.endedAt === moment.endedAt && last.stoppedBecause === moment.stoppedBecause && sameClock(last.clock, moment.clock)) return last;
    const pods = this.changed ? new Map([...this.pods].map(([name, pod]) => [name, pod.freeze()])) : last.pods;
    this.changed = false;
    this.latest = Object.freeze({ version: last.version + 1, t: moment.t, clock: moment.clock, kills: this.kills, pods, endedAt: moment.endedAt, stoppedBecause: moment.stoppedBecause });
    return this.latest;
  }

  private onContainer(event: Extract<EngineEvent, { type: 'container' }>): void {
    const { pod, container } = this.container(event.pod, event.container);
    const newInstance = event.state === 'running' && event.containerId !== '' && event.containerId !== container.containerId;
    container.containerId = event.containerId;
    container.state = event.state;
    container.reason = event.reason;
    container.message = event.message;
    container.restartCount = event.restartCount;
    if (newInstance) {
      container.killing = undefined;
      container.startedAt = event.t;
      container.finishedAt = undefined;
      for (const probe of container.probes.values()) probe.startInstance(event.containerId);
    } else if (event.state === 'terminated') {
      container.finishedAt = event.t;
      // Killed by a probe, the kill said so already; otherwise the process ended by itself.
      if (!container.killing) container.lastRestartCause = 'exit';
    }
    this.touch(pod, container);
  }

  private onAttempt(event: AttemptRecord): void {
    const { pod, container } = this.container(event.pod, event.container);
    const probe = this.probeOf(container, event.probe);
    probe.totalAttempts++;
    if (event.error === undefined) probe.totalAnswered++;
    const counted = event.error === undefined && (event.outcome === 'success' || event.outcome === 'warning');
    if (counted) probe.totalSuccesses++;
    probe.newest = event;
    // An attempt of an instance already replaced (it was in flight) counts in the totals only.
    if (isCurrent(container, event.containerId)) {
      if (probe.containerId !== event.containerId) probe.startInstance(event.containerId);
      probe.attempts++;
      if (counted) probe.successes++;
      push(probe.recentAttempts, event);
    }
    this.touch(pod, container, probe);
  }

  /** What the cluster's kubelet reports: of a container (started, ready, restartCount), or of the pod (Ready). */
  private onKubelet(event: Extract<EngineEvent, { type: 'kubelet' }>): void {
    if (event.container === undefined) {
      const pod = this.pod(event.pod);
      pod.kubeletReady = event.ready;
      this.touch(pod);
      return;
    }
    const { pod, container } = this.container(event.pod, event.container);
    container.kubelet = Object.freeze({ started: event.started, ready: event.ready, restartCount: event.restartCount });
    this.touch(pod, container);
  }

  /**
   * Where the cluster's kubelet owns the containers, a pending prediction is our kubelet's kill
   * decision (K2) — the container would restart — until the cluster restarts it or does not
   * (`confirmed` comes after the new instance's `container` line, `missed` after the wait).
   */
  private onPrediction(event: Extract<EngineEvent, { type: 'prediction' }>): void {
    const { pod, container } = this.container(event.pod, event.container);
    container.prediction = Object.freeze({ t: event.t, probe: event.probe, state: event.state, message: event.message });
    if (event.state === 'pending' && event.containerId === container.containerId) {
      container.killing = Object.freeze({ probe: event.probe, t: event.t, restarts: true });
      container.lastRestartCause = event.probe;
    } else if (event.state !== 'pending' && container.killing?.probe === event.probe) container.killing = undefined;
    this.touch(pod, container);
  }

  /** K2: a `Killing` for a failed probe is the kubelet's decision, counted as a restart at once. */
  private onKubeletEvent(event: Extract<EngineEvent, { type: 'event' }>): void {
    if (event.reason !== 'Killing' || event.probe === undefined || event.probe === 'readiness' || event.container === undefined) return;
    const { pod, container } = this.container(event.pod, event.container);
    container.killing = Object.freeze({ probe: event.probe, t: event.t, restarts: killRestarts(event.message) });
    container.lastRestartCause = event.probe;
    this.touch(pod, container);
  }

  private touch(pod: PodFold, container?: ContainerFold, probe?: ProbeFold): void {
    this.changed = true;
    pod.frozen = undefined;
    if (container) container.frozen = undefined;
    if (probe) probe.frozen = undefined;
  }

  private pod(name: string): PodFold {
    let pod = this.pods.get(name);
    if (!pod) this.pods.set(name, (pod = new PodFold(name)));
    return pod;
  }

  private container(podName: string, name: string): { pod: PodFold; container: ContainerFold } {
    const pod = this.pod(podName);
    let container = pod.containers.get(name);
    if (!container) pod.containers.set(name, (container = new ContainerFold(name, this.kills)));
    return { pod, container };
  }

  private probeOf(container: ContainerFold, type: ProbeType, containerId = container.containerId): ProbeFold {
    let probe = container.probes.get(type);
    if (!probe) {
      container.probes.set(type, (probe = new ProbeFold(type)));
      probe.containerId = containerId;
    } else if (probe.containerId !== containerId && containerId === container.containerId) probe.startInstance(containerId);
    return probe;
  }
}

/** An event about the container's current instance (or about one before any was reported). */
function isCurrent(container: ContainerFold, containerId: string): boolean {
  return container.containerId === '' || container.containerId === containerId;
}

/** A prober error is no outcome of the app's (P5): it shows as `unknown`. */
function outcomeOf(attempt: AttemptRecord): ProbeResult {
  return attempt.error !== undefined ? 'unknown' : attempt.outcome;
}

function push<T>(list: T[], item: T, most = RECENT): void {
  list.push(item);
  if (list.length > most) list.shift();
}

function sameClock(a: SessionClock, b: SessionClock): boolean {
  if (a.kind === 'wall' || b.kind === 'wall') return a.kind === b.kind;
  return a.paused === b.paused && a.speed === b.speed;
}

const WALL: SessionClock = Object.freeze({ kind: 'wall' });
