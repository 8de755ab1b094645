/**
 * What the filter chips hide: containers and probe types (their lanes go) and outcomes (only the
 * marks go). Pure: node tests import it. It is the `Filters` the layout, the renderer and the hit
 * test read, so all of them agree on what is hidden.
 */
import type { ProbeType } from '../../../core/manifest/model';
import { MARK_OUTCOMES, type MarkOutcome } from '../../../core/timeline/columns';
import type { TimelineViewState } from '../../../shared/protocol';
import type { Filters } from './layout';

const PROBE_TYPES: readonly string[] = ['startup', 'readiness', 'liveness'];

export class LaneFilters implements Filters {
  readonly hiddenContainers = new Set<string>();
  readonly hiddenProbes = new Set<ProbeType>();
  readonly hiddenOutcomes = new Set<MarkOutcome>();

  /** The filters a saved state had; values this version does not know are left out (the state may be another version's). */
  restore(state: Pick<TimelineViewState, 'hiddenContainers' | 'hiddenProbes' | 'hiddenOutcomes'>): void {
    for (const name of state.hiddenContainers ?? []) if (typeof name === 'string') this.hiddenContainers.add(name);
    for (const probe of state.hiddenProbes ?? []) if (PROBE_TYPES.includes(probe)) this.hiddenProbes.add(probe);
    for (const outcome of state.hiddenOutcomes ?? []) if ((MARK_OUTCOMES as readonly string[]).includes(outcome)) this.hiddenOutcomes.add(outcome);
  }

  toggleContainer(name: string): void {
    toggle(this.hiddenContainers, name);
  }

  toggleProbe(probe: ProbeType): void {
    toggle(this.hiddenProbes, probe);
  }

  toggleOutcome(outcome: MarkOutcome): void {
    toggle(this.hiddenOutcomes, outcome);
  }
}

function toggle<T>(set: Set<T>, value: T): void {
  if (set.has(value)) set.delete(value);
  else set.add(value);
}
