/** The cached, published vocabulary (kubelet-probes.md R1), distinct from the prober's. */
export type CachedResult = 'Success' | 'Failure' | 'Unknown';

export interface ResultUpdate {
  readonly containerId: string;
  readonly result: CachedResult;
}

/**
 * One per probe type (R3): the last result per container ID. `set` publishes only when the
 * key is new or the value changed (R2); `remove` publishes nothing.
 */
export class ResultsCache {
  private readonly results = new Map<string, CachedResult>();

  constructor(private readonly publish: (update: ResultUpdate) => void) {}

  get(containerId: string): CachedResult | undefined {
    return this.results.get(containerId);
  }

  set(containerId: string, result: CachedResult): void {
    if (this.results.get(containerId) === result) return;
    this.results.set(containerId, result);
    this.publish({ containerId, result });
  }

  remove(containerId: string): void {
    this.results.delete(containerId);
  }
}
