import type { CachedResult } from '../engine/results';
import type { EngineEvent } from '../engine/events';
import type { ContainerState } from '../engine/podState';
import type { ProbeType } from '../manifest';
import type { ProbeResult } from '../probers/types';

/** How many recent outcomes each probe keeps for display. */
const RECENT_OUTCOMES = 12;

export interface ProbeSummary {
  attempts: number;
  successes: number;
  /** Newest last. */
  readonly recent: ProbeResult[];
  lastOutput: string;
  lastError: string | undefined;
  lastDurationMs: number;
  result: CachedResult | undefined;
}

export interface ContainerSummary {
  readonly name: string;
  containerId: string;
  state: ContainerState;
  reason: string | undefined;
  restartCount: number;
  started: boolean;
  ready: boolean;
  readonly probes: Map<ProbeType, ProbeSummary>;
}

export interface PodSummary {
  readonly name: string;
  ready: boolean;
  readonly containers: Map<string, ContainerSummary>;
}

/** The state of every pod, container and probe, folded from the engine's events. */
export class SessionSummary {
  readonly pods = new Map<string, PodSummary>();

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

  private pod(name: string): PodSummary {
    let pod = this.pods.get(name);
    if (!pod) this.pods.set(name, (pod = { name, ready: false, containers: new Map() }));
    return pod;
  }

  private container(pod: PodSummary, name: string): ContainerSummary {
    let container = pod.containers.get(name);
    if (!container) {
      container = { name, containerId: '', state: 'waiting', reason: undefined, restartCount: 0, started: false, ready: false, probes: new Map() };
      pod.containers.set(name, container);
    }
    return container;
  }

  private probe(container: ContainerSummary, type: ProbeType): ProbeSummary {
    let probe = container.probes.get(type);
    if (!probe) {
      probe = { attempts: 0, successes: 0, recent: [], lastOutput: '', lastError: undefined, lastDurationMs: 0, result: undefined };
      container.probes.set(type, probe);
    }
    return probe;
  }
}
