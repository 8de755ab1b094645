import type { DesiredPod } from '../engine/manager';
import { PROBING_CONTAINERS } from '../manifest';
import type { ProbeMeasurement } from '../history/measure';
import { probeKey } from './recommendText';

/**
 * Which manifest container each measurement is of: recording pods by the name a session gives the
 * manifest's pods (or the manifest pod a cluster pod stands for), containers by name.
 */

export function groupKey(pod: string, container: string): string {
  return `${pod}\u0000${container}`;
}

export function groupByContainer(measurements: readonly ProbeMeasurement[], manifestPods: ReadonlyMap<string, string> | undefined): Map<string, ProbeMeasurement[]> {
  const groups = new Map<string, ProbeMeasurement[]>();
  for (const m of measurements) {
    const key = groupKey(manifestPods?.get(m.pod) ?? m.pod, m.container);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(m);
  }
  return groups;
}

/** What the recording measured that the manifest has no place for. */
export function unmatchedOf(groups: ReadonlyMap<string, readonly ProbeMeasurement[]>, pods: readonly DesiredPod[]): string[] {
  const byName = new Map(pods.map((p) => [p.identity.name, p.spec]));
  const out: string[] = [];
  const missingPods = new Set<string>();
  for (const [key, measured] of groups) {
    const [podName = '', containerName = ''] = key.split('\u0000');
    const spec = byName.get(podName);
    if (!spec) {
      if (!missingPods.has(podName)) out.push(`pod "${podName}" is not in the manifest (its pods: ${[...byName.keys()].join(', ') || 'none'})`);
      missingPods.add(podName);
      continue;
    }
    const container = spec.containers.find((c) => c.name === containerName && PROBING_CONTAINERS.includes(c.kind));
    if (!container) {
      out.push(`container "${containerName}" of pod "${podName}" is not in the manifest`);
      continue;
    }
    for (const type of new Set(measured.map((m) => m.probe))) {
      if (!container.probe(type)) out.push(`container "${containerName}" of pod "${podName}" has no ${probeKey(type)} in the manifest: its measurements are left out`);
    }
  }
  return out;
}
