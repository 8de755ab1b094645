import type { EngineEvent } from '../engine/events';

/**
 * The lane an event belongs to: its probe (attempts, results, the probe's kubelet events), else
 * its container (state, status, kills, back-off), else its pod (readiness, tunnels, deletion).
 * The store bounds each lane on its own, so a chatty probe never pushes out a pod's history.
 */
export function laneKeyOf(event: EngineEvent): string {
  switch (event.type) {
    case 'attempt':
    case 'result':
    case 'worker':
      return probeLaneKey(event.pod, event.container, event.probe);
    case 'event':
      if (event.container === undefined) return podLaneKey(event.pod);
      return event.probe !== undefined && event.reason !== 'Killing' ? probeLaneKey(event.pod, event.container, event.probe) : containerLaneKey(event.pod, event.container);
    case 'container':
    case 'status':
    case 'prediction':
    case 'disagreement':
      return containerLaneKey(event.pod, event.container);
    case 'kubelet':
    case 'clusterEvent':
      return event.container === undefined ? podLaneKey(event.pod) : containerLaneKey(event.pod, event.container);
    case 'pod':
    case 'tunnel':
    case 'target':
    case 'pause':
      return podLaneKey(event.pod);
  }
}

export function podLaneKey(pod: string): string {
  return `pod:${pod}`;
}

export function containerLaneKey(pod: string, container: string): string {
  return `container:${pod}/${container}`;
}

export function probeLaneKey(pod: string, container: string, probe: string): string {
  return `probe:${pod}/${container}/${probe}`;
}
