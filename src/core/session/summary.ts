import type { CachedResult } from '../engine/results';
import type { ContainerState } from '../engine/podState';
import type { ProbeType } from '../manifest';
import type { ProbeResult } from '../probers/types';

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
