import type { EngineEvent, PauseLine } from '../engine/events';
import type { ProbeType } from '../manifest';
import type { KillMode } from '../session/snapshot';
import type { RunHeader } from '../timeline/jsonl';

/**
 * A recording indexed by what the insights ask of it: per pod and container, its instances (a
 * container ID from start to end, and what ended it), and per probe its workers (the config it
 * ran with), attempts and results; beside them the kubelet's events and the debugger's pauses.
 * Built in one pass over the lines, in the order they were written (which is time order). Every
 * entry keeps its line's index, so what is said of a container can cite the lines it came from.
 */

export type AttemptLine = Extract<EngineEvent, { type: 'attempt' }>;
export type WorkerLine = Extract<EngineEvent, { type: 'worker' }>;
export type ResultLine = Extract<EngineEvent, { type: 'result' }>;
export type StatusLine = Extract<EngineEvent, { type: 'status' }>;
export type ContainerLine = Extract<EngineEvent, { type: 'container' }>;
export type KubeletEventLine = Extract<EngineEvent, { type: 'event' }>;
export type KubeletLine = Extract<EngineEvent, { type: 'kubelet' }>;
export type PredictionLine = Extract<EngineEvent, { type: 'prediction' }>;
export type DisagreementLine = Extract<EngineEvent, { type: 'disagreement' }>;

/** A line of the recording and where it is: `index` into the events (the header is not one). */
export interface Cited<T extends EngineEvent = EngineEvent> {
  readonly index: number;
  readonly event: T;
}

/** What ended a container instance: the probe whose failure killed it (K2), the pod's deletion, or the process itself. */
export type InstanceEndCause = ProbeType | 'deletion' | 'exit';

export interface InstanceEnd {
  readonly cause: InstanceEndCause;
  /** The `terminated` container line. */
  readonly terminated: Cited<ContainerLine>;
  /** The `Killing` event that decided it, when the kubelet killed it. */
  readonly killing: Cited<KubeletEventLine> | undefined;
}

/** One container ID, from its `running` line to its `terminated` one (if the recording holds it). */
export interface InstanceHistory {
  readonly containerId: string;
  readonly started: Cited<ContainerLine>;
  /** Seconds since the run began. */
  readonly startedAt: number;
  readonly attempts: ReadonlyMap<ProbeType, readonly Cited<AttemptLine>[]>;
  readonly end: InstanceEnd | undefined;
}

export interface ProbeHistory {
  readonly type: ProbeType;
  /** Its workers in order: the first when the pod started, another after each edit. The last is the config in force. */
  readonly workers: readonly Cited<WorkerLine>[];
  /** Every attempt of every instance, in order. */
  readonly attempts: readonly Cited<AttemptLine>[];
  /** Result changes (R2), in order. */
  readonly results: readonly Cited<ResultLine>[];
}

export interface ContainerHistory {
  readonly pod: string;
  readonly name: string;
  readonly instances: readonly InstanceHistory[];
  /** By probe type, in the order the recording first names them. */
  readonly probes: ReadonlyMap<ProbeType, ProbeHistory>;
  /** `container` lines: waiting (and why: `CrashLoopBackOff` with its back-off message), running, terminated. */
  readonly states: readonly Cited<ContainerLine>[];
  /** `status` lines: started and ready as they change. */
  readonly statuses: readonly Cited<StatusLine>[];
  /** The kubelet's events about this container (`Unhealthy`, `ProbeWarning`, `Killing`, `BackOff` …). */
  readonly events: readonly Cited<KubeletEventLine>[];
  /** Cluster mode: what the cluster's kubelet says of it, our predicted kills, and our readiness disagreeing with its. */
  readonly kubelet: readonly Cited<KubeletLine>[];
  readonly predictions: readonly Cited<PredictionLine>[];
  readonly disagreements: readonly Cited<DisagreementLine>[];
}

/** A debugger held the program from `from` until `to` (open while it still does when the recording ends). */
export interface PauseSpan {
  readonly from: number;
  readonly to: number | undefined;
  readonly debugSession: string;
}

export interface PodHistory {
  readonly name: string;
  readonly containers: ReadonlyMap<string, ContainerHistory>;
  readonly readiness: readonly Cited<Extract<EngineEvent, { type: 'pod' }>>[];
  readonly pauses: readonly PauseSpan[];
  /** The `pause` lines the spans were read from, to cite. */
  readonly pauseLines: readonly Cited<PauseLine>[];
  /** The pod's `Killing` (`Deleting pod …`): its deletion began (A5). */
  readonly deleting: Cited<KubeletEventLine> | undefined;
}

export interface RecordingHistory {
  readonly kills: KillMode;
  /** Wall-clock time of t = 0 (epoch ms) for real-time recordings; `undefined` for simulations. */
  readonly startedAtMs: number | undefined;
  /** The newest line's `t`: how far the recording reaches. */
  readonly end: number;
  readonly pods: ReadonlyMap<string, PodHistory>;
  /** The lines indexed (the first `lines` of the events given). */
  readonly lines: number;
}

export interface HistoryOptions {
  /** Index only the lines with `t` at most this (`--at`). */
  readonly until?: number;
}

/** What becomes of kills in the run a header describes: carried out (simulations), reported (local runs), or the cluster's own. */
export function recordingKills(header: RunHeader | undefined, events: readonly EngineEvent[] = []): KillMode {
  const where = header?.['target'] ?? header?.['kind'];
  if (header?.mode === 'simulate' || where === 'simulated') return 'carried-out';
  if (where === 'cluster') return 'cluster';
  if (where === 'local') return 'reported';
  // An older or hand-made recording: the cluster's lines give a cluster run away.
  return events.some((e) => e.type === 'kubelet' || e.type === 'target') ? 'cluster' : 'carried-out';
}

export function buildHistory(header: RunHeader | undefined, events: readonly EngineEvent[], options: HistoryOptions = {}): RecordingHistory {
  const builder = new HistoryBuilder();
  const until = options.until ?? Infinity;
  let index = 0;
  for (; index < events.length; index++) {
    const event = events[index] as EngineEvent;
    if (event.t > until) break;
    builder.add(index, event);
  }
  const startedAtMs = typeof header?.startedAt === 'string' ? Date.parse(header.startedAt) : NaN;
  return {
    kills: recordingKills(header, events),
    startedAtMs: Number.isFinite(startedAtMs) ? startedAtMs : undefined,
    end: index > 0 ? (events[index - 1] as EngineEvent).t : 0,
    pods: builder.pods,
    lines: index,
  };
}

/** How long a recording lasted: its last line, or the length its header declares (a simulation's quiet last seconds). */
export function recordingLength(header: RunHeader | undefined, history: RecordingHistory): number {
  const declared = header?.['durationSeconds'];
  return Math.max(history.end, typeof declared === 'number' && Number.isFinite(declared) ? declared : 0);
}

/** The seconds since the start of its instance at which an attempt ran (the attempt's `t` is when it ended). */
export function secondsIntoInstance(instance: InstanceHistory, attempt: AttemptLine): number {
  return attempt.t - instance.startedAt;
}

/** The instance a container ran at `t` (the newest started by then), if any. */
export function instanceAt(container: ContainerHistory, t: number): InstanceHistory | undefined {
  let found: InstanceHistory | undefined;
  for (const instance of container.instances) {
    if (instance.startedAt > t) break;
    found = instance;
  }
  return found;
}

/** Whether a debugger held the pod's program at any time in [from, to]. */
export function pausedDuring(pod: PodHistory, from: number, to: number): boolean {
  return pod.pauses.some((p) => p.from <= to && (p.to === undefined || p.to >= from));
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyMap<infer K2, infer V> ? Map<K2, V> : T[K] extends readonly (infer I)[] ? I[] : T[K] };

interface InstanceBuilder extends Omit<InstanceHistory, 'attempts' | 'end'> {
  readonly attempts: Map<ProbeType, Cited<AttemptLine>[]>;
  end: InstanceEnd | undefined;
}

interface ContainerBuilder extends Omit<Mutable<ContainerHistory>, 'instances' | 'probes'> {
  readonly instances: InstanceBuilder[];
  readonly probes: Map<ProbeType, Mutable<ProbeHistory>>;
  /** The `Killing` for a failed probe (or the deletion) awaiting its `terminated` line. */
  killing: Cited<KubeletEventLine> | undefined;
}

interface PodBuilder extends Omit<Mutable<PodHistory>, 'containers' | 'pauses' | 'pauseLines'> {
  readonly pauseLines: Cited<PauseLine>[];
  readonly containers: Map<string, ContainerBuilder>;
  readonly pauses: { from: number; to: number | undefined; debugSession: string }[];
  deleting: Cited<KubeletEventLine> | undefined;
}

class HistoryBuilder {
  readonly pods = new Map<string, PodBuilder>();

  add(index: number, event: EngineEvent): void {
    switch (event.type) {
      case 'attempt':
        return this.onAttempt({ index, event });
      case 'worker':
        this.probe(event.pod, event.container, event.probe).workers.push({ index, event });
        return;
      case 'result':
        this.probe(event.pod, event.container, event.probe).results.push({ index, event });
        return;
      case 'status':
        this.container(event.pod, event.container).statuses.push({ index, event });
        return;
      case 'container':
        return this.onContainer({ index, event });
      case 'event':
        return this.onKubeletEvent({ index, event });
      case 'pod':
        this.pod(event.pod).readiness.push({ index, event });
        return;
      case 'pause':
        return this.onPause(index, event);
      case 'kubelet':
        if (event.container !== undefined) this.container(event.pod, event.container).kubelet.push({ index, event });
        return;
      case 'prediction':
        this.container(event.pod, event.container).predictions.push({ index, event });
        return;
      case 'disagreement':
        this.container(event.pod, event.container).disagreements.push({ index, event });
        return;
      default:
        return;
    }
  }

  private onAttempt(cited: Cited<AttemptLine>): void {
    const { event } = cited;
    const container = this.container(event.pod, event.container);
    this.probe(event.pod, event.container, event.probe).attempts.push(cited);
    // An attempt in flight when its instance was replaced still belongs to that instance.
    const instance = findInstance(container, event.containerId);
    if (!instance) return;
    let list = instance.attempts.get(event.probe);
    if (!list) instance.attempts.set(event.probe, (list = []));
    list.push(cited);
  }

  private onContainer(cited: Cited<ContainerLine>): void {
    const { event } = cited;
    const container = this.container(event.pod, event.container);
    container.states.push(cited);
    const current = container.instances.at(-1);
    if (event.state === 'running' && event.containerId !== '' && event.containerId !== current?.containerId) {
      container.instances.push({ containerId: event.containerId, started: cited, startedAt: event.t, attempts: new Map(), end: undefined });
      container.killing = undefined;
      return;
    }
    if (event.state !== 'terminated') return;
    const instance = findInstance(container, event.containerId);
    if (!instance || instance.end) return;
    const killing = container.killing ?? this.pod(event.pod).deleting;
    const cause: InstanceEndCause = killing === undefined ? 'exit' : (killing.event.probe ?? 'deletion');
    instance.end = { cause, terminated: cited, killing };
    container.killing = undefined;
  }

  private onKubeletEvent(cited: Cited<KubeletEventLine>): void {
    const { event } = cited;
    if (event.container === undefined) {
      if (event.reason === 'Killing') this.pod(event.pod).deleting = cited;
      return;
    }
    const container = this.container(event.pod, event.container);
    container.events.push(cited);
    if (event.reason === 'Killing') container.killing = cited;
  }

  private onPause(index: number, event: PauseLine): void {
    this.pod(event.pod).pauseLines.push({ index, event });
    const pauses = this.pod(event.pod).pauses;
    const open = pauses.at(-1);
    if (event.state === 'paused') {
      if (open?.to === undefined && open !== undefined) return;
      pauses.push({ from: event.t, to: undefined, debugSession: event.debugSession });
    } else if (open && open.to === undefined) open.to = event.t;
  }

  private pod(name: string): PodBuilder {
    let pod = this.pods.get(name);
    if (!pod) this.pods.set(name, (pod = { name, containers: new Map(), readiness: [], pauses: [], pauseLines: [], deleting: undefined }));
    return pod;
  }

  private container(podName: string, name: string): ContainerBuilder {
    const pod = this.pod(podName);
    let container = pod.containers.get(name);
    if (!container) {
      container = { pod: podName, name, instances: [], probes: new Map(), states: [], statuses: [], events: [], kubelet: [], predictions: [], disagreements: [], killing: undefined };
      pod.containers.set(name, container);
    }
    return container;
  }

  private probe(podName: string, containerName: string, type: ProbeType): Mutable<ProbeHistory> {
    const container = this.container(podName, containerName);
    let probe = container.probes.get(type);
    if (!probe) container.probes.set(type, (probe = { type, workers: [], attempts: [], results: [] }));
    return probe;
  }
}

/** The instance with this ID, looked for from the newest (an attempt almost always belongs to it). */
function findInstance(container: ContainerBuilder, containerId: string): InstanceBuilder | undefined {
  for (let i = container.instances.length - 1; i >= 0; i--) {
    const instance = container.instances[i] as InstanceBuilder;
    if (instance.containerId === containerId) return instance;
  }
  return undefined;
}
