import type { CachedResult } from '../engine/results';
import type { EngineEvent } from '../engine/events';
import type { ContainerState } from '../engine/podState';
import type { ProbeType } from '../manifest';
import type { ProbeResult } from '../probers/types';

/** How many recent outcomes each probe keeps for display. */
const RECENT_OUTCOMES = 12;

/** A probe's counts and its latest outcomes, as the editor and the command line show them. */
export interface ProbeSummary {
  readonly attempts: number;
  readonly successes: number;
  /** Newest last. */
  readonly recent: readonly ProbeResult[];
  readonly lastOutput: string;
  readonly lastError: string | undefined;
  readonly lastDurationMs: number;
  readonly result: CachedResult | undefined;
}

export interface ContainerSummary {
  readonly name: string;
  readonly containerId: string;
  readonly state: ContainerState;
  readonly reason: string | undefined;
  readonly restartCount: number;
  readonly started: boolean;
  readonly ready: boolean;
  readonly probes: ReadonlyMap<ProbeType, ProbeSummary>;
}

export interface PodSummary {
  readonly name: string;
  readonly ready: boolean;
  readonly containers: ReadonlyMap<string, ContainerSummary>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type FoldedProbe = Mutable<Omit<ProbeSummary, 'recent'>> & { readonly recent: ProbeResult[] };
type FoldedContainer = Mutable<Omit<ContainerSummary, 'probes'>> & { readonly probes: Map<ProbeType, FoldedProbe> };
type FoldedPod = Mutable<Omit<PodSummary, 'containers'>> & { readonly containers: Map<string, FoldedContainer> };

/** The state of every pod, container and probe, folded from the engine's events. */
export class SessionSummary {
  private readonly folded = new Map<string, FoldedPod>();

  /** By pod name, in the order they were first reported. */
  get pods(): ReadonlyMap<string, PodSummary> {
    return this.folded;
  }

  apply(event: EngineEvent): void {
    const pod = this.pod(event.pod);
    switch (event.type) {
      case 'pod':
        pod.ready = event.ready;
        return;
      case 'container': {
        const container = this.container(pod, event.container);
        container.containerId = event.containerId;
        container.state = event.state;
        container.reason = event.reason;
        container.restartCount = event.restartCount;
        return;
      }
      case 'status': {
        const container = this.container(pod, event.container);
        container.started = event.started;
        container.ready = event.ready;
        return;
      }
      case 'attempt': {
        const probe = this.probe(this.container(pod, event.container), event.probe);
        probe.attempts++;
        if (event.outcome === 'success' || event.outcome === 'warning') probe.successes++;
        probe.recent.push(event.error !== undefined ? 'unknown' : event.outcome);
        if (probe.recent.length > RECENT_OUTCOMES) probe.recent.shift();
        probe.lastOutput = event.output;
        probe.lastError = event.error;
        probe.lastDurationMs = event.durationMs;
        return;
      }
      case 'result':
        this.probe(this.container(pod, event.container), event.probe).result = event.value;
        return;
      case 'event':
      case 'tunnel':
      case 'worker':
        return;
    }
  }

  private pod(name: string): FoldedPod {
    let pod = this.folded.get(name);
    if (!pod) this.folded.set(name, (pod = { name, ready: false, containers: new Map() }));
    return pod;
  }

  private container(pod: FoldedPod, name: string): FoldedContainer {
    let container = pod.containers.get(name);
    if (!container) {
      container = { name, containerId: '', state: 'waiting', reason: undefined, restartCount: 0, started: false, ready: false, probes: new Map() };
      pod.containers.set(name, container);
    }
    return container;
  }

  private probe(container: FoldedContainer, type: ProbeType): FoldedProbe {
    let probe = container.probes.get(type);
    if (!probe) {
      probe = { attempts: 0, successes: 0, recent: [], lastOutput: '', lastError: undefined, lastDurationMs: 0, result: undefined };
      container.probes.set(type, probe);
    }
    return probe;
  }
}
