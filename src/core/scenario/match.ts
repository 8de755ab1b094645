import { PROBE_TYPES, type PodSpecModel, type ProbeType } from '../manifest';
import { closestNameHint } from '../text/closestName';
import type { ScenarioResult } from './parse';
import type { Scenario } from './scenario';

/**
 * A scenario read against the manifest it plays (where the scenario meets the manifest: `simulate`
 * and the editor's simulated session). Every container it names must be one the pods run — a
 * mistyped name would otherwise be ignored without a word — and every per-probe override must name
 * a probe that container has. Errors name the field, as the parser's do, with a "did you mean".
 */
export function matchScenario(scenario: Scenario, pods: readonly PodSpecModel[]): ScenarioResult {
  const probes = probesByContainer(pods);
  const names = [...probes.keys()];
  for (const [name, script] of Object.entries(scenario.containers)) {
    const has = probes.get(name);
    if (has === undefined) {
      return { ok: false, error: `containers.${name}: unknown container (${names.length > 0 ? closestNameHint(name, names) : 'the manifest has none'})` };
    }
    for (const type of PROBE_TYPES) {
      if (script.probes[type] === undefined || has.has(type)) continue;
      const present = PROBE_TYPES.filter((t) => has.has(t)).map(probeField);
      return { ok: false, error: `containers.${name}.probes.${type}: ${name} has no ${probeField(type)} (${present.length > 0 ? `it has ${present.join(', ')}` : 'it has no probes'})` };
    }
  }
  return { ok: true, scenario };
}

/** The containers the pods run (ephemeral ones never do), each with the probe types it has in any pod. */
export function probesByContainer(pods: readonly PodSpecModel[]): Map<string, Set<ProbeType>> {
  const containers = new Map<string, Set<ProbeType>>();
  for (const pod of pods) {
    for (const container of pod.containers) {
      if (container.kind === 'ephemeral') continue;
      let types = containers.get(container.name);
      if (!types) containers.set(container.name, (types = new Set()));
      for (const probe of container.probes) types.add(probe.type);
    }
  }
  return containers;
}

function probeField(type: ProbeType): string {
  return `${type}Probe`;
}
