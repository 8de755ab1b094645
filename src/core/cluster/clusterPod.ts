import type { ObservedContainer, ObservedPod } from '../engine/observedPod';
import type { ContainerState, PodPhase } from '../engine/podState';

/** One container's status as the API server reports it, times on the wall clock (ms since the epoch). */
export interface ClusterContainerStatus {
  readonly name: string;
  readonly containerId: string;
  readonly state: ContainerState;
  readonly startedAtWall?: number;
  readonly restartCount: number;
  readonly reason?: string;
  readonly message?: string;
  readonly exitCode?: number;
  readonly started: boolean;
  readonly ready: boolean;
}

/** A pod in the cluster, as far as probing it needs. */
export interface ClusterPod {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly podIP: string | undefined;
  readonly phase: PodPhase | 'Unknown';
  /** The Ready condition. */
  readonly ready: boolean;
  readonly deleting: boolean;
  readonly labels: Readonly<Record<string, string>>;
  /** App containers, then init containers (sidecars among them). */
  readonly containers: readonly ClusterContainerStatus[];
  /** Every container the spec names (statuses may lag behind a new pod). */
  readonly containerNames: readonly string[];
  /** The node it runs on (`spec.nodeName`), once scheduled. */
  readonly nodeName: string | undefined;
  /** `spec.runtimeClassName`: a runtime other than the node's default (Kata, gVisor …) when set. */
  readonly runtimeClassName: string | undefined;
}

interface ApiContainerState {
  running?: { startedAt?: string };
  waiting?: { reason?: string; message?: string };
  terminated?: { exitCode?: number; reason?: string; message?: string };
}

interface ApiContainerStatus {
  name?: string;
  containerID?: string;
  state?: ApiContainerState;
  restartCount?: number;
  started?: boolean;
  ready?: boolean;
}

interface ApiPod {
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; deletionTimestamp?: string; labels?: Record<string, string> };
  spec?: { containers?: { name?: string }[]; initContainers?: { name?: string }[]; nodeName?: string; runtimeClassName?: string };
  status?: {
    phase?: string;
    podIP?: string;
    conditions?: { type?: string; status?: string }[];
    containerStatuses?: ApiContainerStatus[];
    initContainerStatuses?: ApiContainerStatus[];
  };
}

const PHASES = new Set(['Pending', 'Running', 'Succeeded', 'Failed']);

/** A pod object from the API (a list item, a watch event's object); `undefined` if it is not one. */
export function readClusterPod(item: unknown): ClusterPod | undefined {
  const pod = item as ApiPod | null;
  const name = pod?.metadata?.name;
  if (typeof name !== 'string' || (pod?.kind !== undefined && pod.kind !== 'Pod')) return undefined;
  const status = pod?.status;
  const names = (list: { name?: string }[] | undefined) => (list ?? []).flatMap((c) => (typeof c.name === 'string' ? [c.name] : []));
  const phase = status?.phase;
  return {
    name,
    namespace: pod?.metadata?.namespace ?? '',
    uid: pod?.metadata?.uid ?? name,
    podIP: status?.podIP || undefined,
    phase: phase && PHASES.has(phase) ? (phase as PodPhase) : 'Unknown',
    ready: status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    deleting: pod?.metadata?.deletionTimestamp !== undefined,
    labels: pod?.metadata?.labels ?? {},
    containers: [...(status?.containerStatuses ?? []), ...(status?.initContainerStatuses ?? [])].flatMap(readContainerStatus),
    containerNames: [...names(pod?.spec?.containers), ...names(pod?.spec?.initContainers)],
    nodeName: pod?.spec?.nodeName || undefined,
    runtimeClassName: pod?.spec?.runtimeClassName || undefined,
  };
}

/** The container runtime a pod's containers run in, as their IDs name it (`containerd://…` → `containerd`). */
export function runtimeOfPod(pod: ClusterPod): string | undefined {
  for (const container of pod.containers) {
    const scheme = /^([a-z0-9.-]+):\/\//.exec(container.containerId)?.[1];
    if (scheme) return scheme;
  }
  return undefined;
}

function readContainerStatus(status: ApiContainerStatus): ClusterContainerStatus[] {
  if (typeof status.name !== 'string') return [];
  const state = status.state ?? {};
  const base = { name: status.name, containerId: status.containerID ?? '', restartCount: status.restartCount ?? 0, started: status.started === true, ready: status.ready === true };
  if (state.running) {
    const startedAtWall = state.running.startedAt ? Date.parse(state.running.startedAt) : NaN;
    return [{ ...base, state: 'running', ...(Number.isFinite(startedAtWall) ? { startedAtWall } : {}) }];
  }
  if (state.terminated) return [{ ...base, state: 'terminated', ...defined({ reason: state.terminated.reason, message: state.terminated.message, exitCode: state.terminated.exitCode }) }];
  return [{ ...base, state: 'waiting', ...defined({ reason: state.waiting?.reason, message: state.waiting?.message }) }];
}

function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The pod as the observed runtime takes it: wall-clock start times on the engine's clock
 * (`wallToClock`), and the phase a pod in an unknown phase is treated as (Pending: nothing runs).
 */
export function observedPodOf(pod: ClusterPod, wallToClock: (wallMs: number) => number): ObservedPod {
  const containers = pod.containers.map((c): ObservedContainer => {
    const { startedAtWall, exitCode: _exitCode, ...rest } = c;
    return startedAtWall === undefined ? rest : { ...rest, startedAt: wallToClock(startedAtWall) };
  });
  return { phase: pod.phase === 'Unknown' ? 'Pending' : pod.phase, deleting: pod.deleting, ready: pod.ready, containers };
}

/** Whether a pod can be probed: Running, and not on its way out. */
export function isProbeable(pod: ClusterPod): boolean {
  return pod.phase === 'Running' && !pod.deleting;
}

/**
 * The pod to probe among a workload's: the one probed so far while it stays probeable (a
 * flapping Ready must not move the probes), else a Ready one, else any Running one; by name
 * among equals, so the choice repeats.
 */
export function choosePod(pods: readonly ClusterPod[], current: string | undefined): ClusterPod | undefined {
  const probeable = pods.filter(isProbeable);
  const kept = probeable.find((p) => p.name === current);
  if (kept) return kept;
  return [...probeable].sort((a, b) => Number(b.ready) - Number(a.ready) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))[0];
}
