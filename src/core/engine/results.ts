import type { ProbeType } from '../manifest';

/** The cached, published vocabulary (docs/spec/kubelet-probes.md R1), distinct from the prober's. */
export type CachedResult = 'Success' | 'Failure' | 'Unknown';

export interface ResultUpdate {
  readonly type: ProbeType;
  readonly containerId: string;
  readonly result: CachedResult;
}

/**
 * One per probe type (R3): the last result per container ID. `set` publishes only when the
 * key is new or the value changed (R2); `remove` publishes nothing. A pod has a handful of
 * container IDs at a time, so two short arrays beat a hash map in both time and memory.
 */
export class ResultsCache {
  private readonly ids: string[] = [];
  private readonly results: CachedResult[] = [];

  constructor(
    readonly type: ProbeType,
    private readonly publish: (update: ResultUpdate) => void,
  ) {}

  get(containerId: string): CachedResult | undefined {
    const i = this.ids.indexOf(containerId);
    return i < 0 ? undefined : this.results[i];
  }

  set(containerId: string, result: CachedResult): void {
    const i = this.ids.indexOf(containerId);
    if (i >= 0 && this.results[i] === result) return;
    if (i >= 0) this.results[i] = result;
    else {
      this.ids.push(containerId);
      this.results.push(result);
    }
    this.publish({ type: this.type, containerId, result });
  }

  remove(containerId: string): void {
    const i = this.ids.indexOf(containerId);
    if (i < 0) return;
    this.ids.splice(i, 1);
    this.results.splice(i, 1);
  }
}

/** K1 (`syncLoopIteration`): readiness and startup updates sync the pod; liveness ones only when they say Failure. */
export function syncsPod(update: ResultUpdate): boolean {
  return update.type !== 'liveness' || update.result === 'Failure';
}
