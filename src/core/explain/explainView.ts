import type { ProbeType } from '../manifest';
import type { AttemptLine, Cited, ContainerHistory, ContainerLine, InstanceHistory, KubeletEventLine, PodHistory, RecordingHistory, ResultLine, StatusLine, WorkerLine } from '../history/history';

/**
 * A container's history as it stood at one moment (`at`): every list cut to the lines written by
 * then. The history itself may reach further (the timeline explains its selection from a history
 * of the whole session): lists are in time order, so each cut is a binary search.
 */
export interface ContainerAt {
  readonly history: RecordingHistory;
  readonly pod: PodHistory;
  readonly container: ContainerHistory;
  readonly at: number;
  /** The newest `container` line: waiting (and why), running, terminated. */
  readonly state: Cited<ContainerLine> | undefined;
  /** The newest `status` line: started, ready. */
  readonly status: Cited<StatusLine> | undefined;
  /** The instances started by then, oldest first; the last is the current one. */
  readonly instances: readonly InstanceHistory[];
  readonly instance: InstanceHistory | undefined;
  /** The kubelet's events about the container by then. */
  readonly events: readonly Cited<KubeletEventLine>[];
}

/** One probe of the current instance, under the worker in force (an edited probe's new worker starts its counts afresh). */
export interface ProbeAt {
  readonly type: ProbeType;
  readonly worker: Cited<WorkerLine>;
  /** This instance's attempts under that worker, oldest first. */
  readonly attempts: readonly Cited<AttemptLine>[];
  /** This instance's result changes (R2), oldest first. */
  readonly results: readonly Cited<ResultLine>[];
}

/** The newest run of same-counting results (W7), prober errors (P5) neither breaking nor extending it. */
export interface ProbeRun {
  readonly result: 'Success' | 'Failure';
  /** The counted attempts of the run, oldest first. */
  readonly attempts: readonly Cited<AttemptLine>[];
  /** Errored attempts since the run began, discarded. */
  readonly errors: readonly Cited<AttemptLine>[];
}

export function containerAt(history: RecordingHistory, podName: string, name: string, at: number): ContainerAt | undefined {
  const pod = history.pods.get(podName);
  const container = pod?.containers.get(name);
  if (!pod || !container) return undefined;
  const instances = container.instances.slice(0, countBy(container.instances, at, (i) => i.startedAt));
  return {
    history,
    pod,
    container,
    at,
    state: container.states[upTo(container.states, at) - 1],
    status: container.statuses[upTo(container.statuses, at) - 1],
    instances,
    instance: instances.at(-1),
    events: container.events.slice(0, upTo(container.events, at)),
  };
}

/** The probe as it ran on the current instance by `at`; `undefined` when the container has no such probe (or no instance). */
export function probeAt(view: ContainerAt, type: ProbeType): ProbeAt | undefined {
  const probe = view.container.probes.get(type);
  const instance = view.instance;
  if (!probe) return undefined;
  const worker = probe.workers[upTo(probe.workers, view.at) - 1];
  if (!worker) return undefined;
  const own = instance?.attempts.get(type) ?? [];
  const attempts = own.slice(0, upTo(own, view.at)).filter((a) => a.index > worker.index);
  const results = instance ? probe.results.slice(0, upTo(probe.results, view.at)).filter((r) => r.event.containerId === instance.containerId && r.event.t >= instance.startedAt) : [];
  return { type, worker, attempts, results };
}

/** W7's run at the end of `attempts` (an `unknown` without an error counts as a Failure, P3). */
export function tailRun(attempts: readonly Cited<AttemptLine>[]): ProbeRun | undefined {
  let result: ProbeRun['result'] | undefined;
  const counted: Cited<AttemptLine>[] = [];
  const errors: Cited<AttemptLine>[] = [];
  for (let i = attempts.length - 1; i >= 0; i--) {
    const attempt = attempts[i] as Cited<AttemptLine>;
    if (attempt.event.error !== undefined) {
      errors.push(attempt);
      continue;
    }
    const value = countsAs(attempt.event);
    if (result === undefined) result = value;
    else if (value !== result) break;
    counted.push(attempt);
  }
  if (result === undefined) return undefined;
  // Errors older than the run's first attempt belong to the run before it.
  const first = counted.at(-1) as Cited<AttemptLine>;
  return { result, attempts: counted.reverse(), errors: errors.filter((e) => e.index > first.index).reverse() };
}

export function countsAs(attempt: AttemptLine): 'Success' | 'Failure' {
  return attempt.outcome === 'success' || attempt.outcome === 'warning' ? 'Success' : 'Failure';
}

/** How many entries of a time-ordered list have `t` at most `at`. */
export function upTo<T extends { readonly event: { readonly t: number } }>(list: readonly T[], at: number): number {
  return countBy(list, at, (entry) => entry.event.t);
}

function countBy<T>(list: readonly T[], at: number, timeOf: (entry: T) => number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timeOf(list[middle] as T) <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The instance's end, if it came by `at`. */
export function endedBy(instance: InstanceHistory, at: number): InstanceHistory['end'] {
  return instance.end && instance.end.terminated.event.t <= at ? instance.end : undefined;
}
