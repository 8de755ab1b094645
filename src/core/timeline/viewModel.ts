import type { EngineEvent } from '../engine/events';
import type { ContainerState } from '../engine/podState';
import type { CachedResult } from '../engine/results';
import type { ProbeType } from '../manifest/model';
import { type ContainerClusterParts, emptyContainerClusterParts, emptyPodClusterParts, onClusterEvent, onDisagreement, onKubelet, onPrediction, onTarget, type PodClusterParts } from './clusterLanes';
import { AttemptColumns, MARK_OUTCOMES, type MarkOutcome } from './columns';
import { containerLaneKey, podLaneKey, probeLaneKey } from './laneKeys';
import { blamedOnPause, onPause, type PodPauseParts } from './pauseLanes';
import { type ModelSection, SectionCursor, sectionLaneKey } from './sections';
import { changeSpan, type Span } from './spans';
import type { DroppedEvents } from './store';

export type { Span } from './spans';

/**
 * The timeline's view model (docs/design.md §2): events in, lanes out — bands, marks and markers on a
 * time axis in seconds. No DOM and no drawing: the panel, the CLI's HTML page and the tests in
 * node all read the same model. Built incrementally (`append`), so a live session costs what its
 * new events cost, never a rebuild.
 */

/** A kubelet event on a lane (`Unhealthy`, `ProbeWarning`, `Killing`, `BackOff`, …). */
export interface Marker {
  readonly t: number;
  readonly reason: string;
  readonly message: string;
  readonly warning: boolean;
  /** For a `Killing`: the probe that failed (liveness or startup). */
  readonly probe?: ProbeType;
  /** Index of the event in `TimelineModel.events`. */
  readonly source: number;
}

/** A probe worker's settings, from its `worker` line. */
export type WorkerSpec = Omit<Extract<EngineEvent, { type: 'worker' }>, 'type' | 't' | 'pod' | 'container' | 'probe'>;

interface LaneBase {
  /** The store's lane key (`laneKeys.ts`); in a model of several runs, prefixed with its section's name (`sections.ts`). */
  readonly id: string;
  /** The run the lane is of, in a model of several (`recorded`, `replayed`); none otherwise. */
  readonly section?: string;
  /** Events the store dropped from this lane, through this time: before it the lane is incomplete. */
  dropped?: { readonly count: number; readonly throughT: number };
}

export interface ProbeLane extends LaneBase {
  readonly kind: 'probe';
  readonly pod: string;
  readonly container: string;
  readonly probe: ProbeType;
  /** From the latest `worker` line; recordings made before it existed have none. */
  spec: WorkerSpec | undefined;
  /** When an edit replaced the worker (its counts start afresh). */
  readonly workerRestarts: number[];
  readonly attempts: AttemptColumns;
  /** The cached result (R1) as published (R2). */
  readonly results: Span<CachedResult>[];
  readonly markers: Marker[];
  readonly counts: Record<MarkOutcome, number>;
  /** Attempts that failed while a debugger held the app (`pauseLanes.ts`): counted in `counts` too. */
  pausedFailures: number;
  /** The worker's `lastResult` and `resultRun` (W5), as the attempts so far leave them. */
  runResult: 'Success' | 'Failure' | undefined;
  run: number;
}

export interface ContainerStateValue {
  readonly state: ContainerState;
  /** `CrashLoopBackOff`, `ContainerCreating`, `Error`, `Completed`, … */
  readonly reason?: string;
  readonly message?: string;
  readonly containerId: string;
  readonly restartCount: number;
}

export interface RestartMark {
  readonly t: number;
  readonly containerId: string;
  readonly restartCount: number;
  readonly source: number;
}

/** A container's lane; in a cluster session also what the cluster says of it (`clusterLanes.ts`). */
export interface ContainerLane extends LaneBase, ContainerClusterParts {
  readonly kind: 'container';
  readonly pod: string;
  readonly name: string;
  readonly states: Span<ContainerStateValue>[];
  readonly restarts: RestartMark[];
  readonly markers: Marker[];
  readonly ready: Span<boolean>[];
  readonly probes: ProbeLane[];
  /** The last non-empty container id: a different one is a restart (unless a rollout replaced the pod: then it is reset). */
  lastContainerId: string;
}

/** A pod's lane; in a cluster session also what the cluster says of it (`clusterLanes.ts`); the debugger's pauses (`pauseLanes.ts`). */
export interface PodLane extends LaneBase, PodClusterParts, PodPauseParts {
  readonly kind: 'pod';
  readonly name: string;
  /** The pod's Ready condition (S4). */
  readonly ready: Span<boolean>[];
  /** When a port-forward tunnel was down (cluster sessions); the value says which (`127.0.0.1:41234 → 8080`). */
  readonly tunnelsDown: Span<string>[];
  readonly markers: Marker[];
  readonly containers: ContainerLane[];
}

export type Lane = PodLane | ContainerLane | ProbeLane;

const PROBE_RANK: Readonly<Record<ProbeType, number>> = { startup: 0, readiness: 1, liveness: 2 };
const OUTCOME_CODE: Readonly<Record<MarkOutcome, number>> = Object.fromEntries(MARK_OUTCOMES.map((o, i) => [o, i])) as Record<MarkOutcome, number>;

export class TimelineModel {
  readonly pods: PodLane[] = [];
  /** Every event appended, in order: marks and markers point into it for their details. */
  readonly events: EngineEvent[] = [];
  /** The latest time seen (an event's, or `advanceTo`'s): open spans reach to here. */
  end = 0;
  private readonly byId = new Map<string, Lane>();
  /** Per pod lane id, the tunnels down now by `local → remote`. */
  private readonly openTunnels = new Map<string, Map<string, Span<string>>>();
  /** Which run each event is of, when the model shows several. */
  private readonly cursor: SectionCursor | undefined;
  /** The run of the event being applied (`undefined` without sections). */
  private section: ModelSection | undefined;

  /** `sections`: the runs the events are of, one after the other (none: one run, lanes unprefixed). */
  constructor(readonly sections: readonly ModelSection[] = []) {
    this.cursor = sections.length > 0 ? new SectionCursor(sections) : undefined;
  }

  append(events: Iterable<EngineEvent>): void {
    for (const event of events) this.apply(event);
  }

  /** A live session's clock moved on without events: open spans grow to `t`. */
  advanceTo(t: number): void {
    if (t > this.end) this.end = t;
  }

  lane(id: string): Lane | undefined {
    return this.byId.get(id);
  }

  /** The container lane a probe lane is under (in the same run). */
  containerOf(lane: ProbeLane): ContainerLane | undefined {
    return this.byId.get(sectionLaneKey(lane.section, containerLaneKey(lane.pod, lane.container))) as ContainerLane | undefined;
  }

  /** Pods, each followed by its containers, each followed by its probes: the order lanes are drawn. */
  *lanes(): Generator<Lane> {
    for (const pod of this.pods) {
      yield pod;
      for (const container of pod.containers) {
        yield container;
        yield* container.probes;
      }
    }
  }

  /** Says which lanes the store let go of events from (`TimelineStore.dropped()`). */
  markDropped(dropped: readonly DroppedEvents[]): void {
    for (const { lane, count, throughT } of dropped) {
      const target = this.byId.get(lane);
      if (target) target.dropped = { count, throughT };
    }
  }

  private apply(event: EngineEvent): void {
    const source = this.events.length;
    if (this.cursor) this.section = this.cursor.sectionOf(source);
    this.events.push(event);
    if (event.t > this.end) this.end = event.t;
    switch (event.type) {
      case 'worker':
        return this.onWorker(this.probeLane(event.pod, event.container, event.probe, true), event);
      case 'attempt':
        return this.onAttempt(this.probeLane(event.pod, event.container, event.probe, false), event, source);
      case 'result': {
        const lane = this.probeLane(event.pod, event.container, event.probe, false);
        changeSpan(lane.results, event.t, event.value, (a, b) => a === b);
        // W5: a liveness or startup Failure puts the worker on hold with its run reset.
        if (event.value === 'Failure' && event.probe !== 'readiness') lane.run = 0;
        return;
      }
      case 'event':
        return this.onKubeletEvent(event, source);
      case 'container':
        return this.onContainer(this.containerLane(event.pod, event.container), event, source);
      case 'status':
        changeSpan(this.containerLane(event.pod, event.container).ready, event.t, event.ready, (a, b) => a === b);
        return;
      case 'pod':
        changeSpan(this.podLane(event.pod).ready, event.t, event.ready, (a, b) => a === b);
        return;
      case 'tunnel':
        return this.onTunnel(event);
      case 'kubelet':
        return onKubelet(event.container === undefined ? this.podLane(event.pod) : this.containerLane(event.pod, event.container), event);
      case 'clusterEvent':
        return onClusterEvent(event.container === undefined ? this.podLane(event.pod) : this.containerLane(event.pod, event.container), event, source);
      case 'prediction':
        return onPrediction(this.containerLane(event.pod, event.container), event, source);
      case 'disagreement':
        return onDisagreement(this.containerLane(event.pod, event.container), event, source);
      case 'target': {
        const lane = this.podLane(event.pod);
        // A rollout: the new pod's containers are new instances, not restarts (the target line comes before their state).
        if (onTarget(lane, event, source)) for (const container of lane.containers) container.lastContainerId = '';
        return;
      }
      case 'pause':
        return onPause(this.podLane(event.pod), event);
    }
  }

  private onWorker(lane: ProbeLane, event: Extract<EngineEvent, { type: 'worker' }>): void {
    if (lane.spec !== undefined || lane.attempts.length > 0) lane.workerRestarts.push(event.t);
    const { handler, initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold, failureThreshold } = event;
    lane.spec = { handler, initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold, failureThreshold };
    lane.run = 0;
    lane.runResult = undefined;
  }

  /** W5 step 6: a run of equal verdicts; an errored attempt is discarded and leaves it as it was (P5). */
  private onAttempt(lane: ProbeLane, event: Extract<EngineEvent, { type: 'attempt' }>, source: number): void {
    const outcome: MarkOutcome = event.error !== undefined ? 'error' : event.outcome;
    if (outcome !== 'error') {
      const verdict = outcome === 'success' || outcome === 'warning' ? 'Success' : 'Failure';
      if (lane.runResult === verdict) lane.run++;
      else {
        lane.runResult = verdict;
        lane.run = 1;
      }
    }
    lane.counts[outcome]++;
    const paused = event.paused === true;
    if (blamedOnPause(outcome, paused)) lane.pausedFailures++;
    lane.attempts.push(event.t, event.durationMs, OUTCOME_CODE[outcome], lane.run, source, paused);
  }

  private onKubeletEvent(event: Extract<EngineEvent, { type: 'event' }>, source: number): void {
    const marker: Marker = { t: event.t, reason: event.reason, message: event.message, warning: event.eventType === 'Warning', source, ...(event.probe !== undefined ? { probe: event.probe } : {}) };
    if (event.container === undefined) {
      this.podLane(event.pod).markers.push(marker);
      return;
    }
    const probe = event.reason === 'Killing' ? undefined : (event.probe ?? probeNamedBy(event.message));
    if (probe) this.probeLane(event.pod, event.container, probe, false).markers.push(marker);
    else this.containerLane(event.pod, event.container).markers.push(marker);
  }

  private onContainer(lane: ContainerLane, event: Extract<EngineEvent, { type: 'container' }>, source: number): void {
    const value: ContainerStateValue = {
      state: event.state,
      containerId: event.containerId,
      restartCount: event.restartCount,
      ...(event.reason !== undefined ? { reason: event.reason } : {}),
      ...(event.message !== undefined ? { message: event.message } : {}),
    };
    changeSpan(lane.states, event.t, value, sameState);
    if (event.containerId === '' || event.containerId === lane.lastContainerId) return;
    if (lane.lastContainerId !== '') lane.restarts.push({ t: event.t, containerId: event.containerId, restartCount: event.restartCount, source });
    lane.lastContainerId = event.containerId;
  }

  private onTunnel(event: Extract<EngineEvent, { type: 'tunnel' }>): void {
    const lane = this.podLane(event.pod);
    let open = this.openTunnels.get(lane.id);
    if (!open) this.openTunnels.set(lane.id, (open = new Map()));
    const which = `${event.local} → ${event.remote}`;
    const down = open.get(which);
    if (event.state === 'down' && !down) {
      const span: Span<string> = { start: event.t, end: undefined, value: which };
      lane.tunnelsDown.push(span);
      open.set(which, span);
    } else if (event.state === 'up' && down) {
      down.end = event.t;
      open.delete(which);
    }
  }

  /** A lane id in the run being applied, and the lane's `section` field. */
  private inSection(key: string): { id: string; section?: string } {
    const section = this.section?.name;
    return section === undefined ? { id: key } : { id: sectionLaneKey(section, key), section };
  }

  private podLane(name: string): PodLane {
    const { id, section } = this.inSection(podLaneKey(name));
    let lane = this.byId.get(id) as PodLane | undefined;
    if (!lane) {
      lane = { kind: 'pod', id, ...(section !== undefined ? { section } : {}), name, ready: [], tunnelsDown: [], markers: [], containers: [], pauses: [], ...emptyPodClusterParts() };
      this.pods.push(lane);
      this.byId.set(id, lane);
    }
    return lane;
  }

  private containerLane(pod: string, name: string): ContainerLane {
    const { id, section } = this.inSection(containerLaneKey(pod, name));
    let lane = this.byId.get(id) as ContainerLane | undefined;
    if (!lane) {
      lane = { kind: 'container', id, ...(section !== undefined ? { section } : {}), pod, name, states: [], restarts: [], markers: [], ready: [], probes: [], lastContainerId: '', ...emptyContainerClusterParts() };
      this.podLane(pod).containers.push(lane);
      this.byId.set(id, lane);
    }
    return lane;
  }

  /**
   * `worker` lines come in the order the manifest writes the probes, so their lanes keep it;
   * a lane first met any other way (a recording without `worker` lines) goes in kubelet order.
   */
  private probeLane(pod: string, container: string, probe: ProbeType, fromWorker: boolean): ProbeLane {
    const { id, section } = this.inSection(probeLaneKey(pod, container, probe));
    let lane = this.byId.get(id) as ProbeLane | undefined;
    if (!lane) {
      lane = {
        kind: 'probe',
        id,
        ...(section !== undefined ? { section } : {}),
        pod,
        container,
        probe,
        spec: undefined,
        workerRestarts: [],
        attempts: new AttemptColumns(),
        results: [],
        markers: [],
        counts: { success: 0, warning: 0, failure: 0, unknown: 0, error: 0 },
        pausedFailures: 0,
        runResult: undefined,
        run: 0,
      };
      const probes = this.containerLane(pod, container).probes;
      const at = fromWorker ? probes.length : probes.findIndex((p) => p.spec === undefined && PROBE_RANK[p.probe] > PROBE_RANK[probe]);
      probes.splice(at < 0 ? probes.length : at, 0, lane);
      this.byId.set(id, lane);
    }
    return lane;
  }
}

function sameState(a: ContainerStateValue, b: ContainerStateValue): boolean {
  return a.state === b.state && a.reason === b.reason && a.containerId === b.containerId && a.restartCount === b.restartCount;
}

/** Recordings made before events named their probe: the kubelet's text does (`Liveness probe failed: …`). */
function probeNamedBy(message: string): ProbeType | undefined {
  const match = /^(Startup|Readiness|Liveness) probe /.exec(message);
  return match ? (match[1]?.toLowerCase() as ProbeType) : undefined;
}

/** What an attempt mark stands for, for the outcome at `code`. */
export function markOutcomeAt(code: number): MarkOutcome {
  return MARK_OUTCOMES[code] ?? 'unknown';
}
