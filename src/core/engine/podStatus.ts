import type { CachedResult } from './results';

/** S1: started = running and (no startup probe, or its cached result is Success). */
export function isStarted(running: boolean, hasStartupProbe: boolean, startup: CachedResult | undefined): boolean {
  return running && (!hasStartupProbe || startup === 'Success');
}

/** S2: ready = started, running, and (no readiness probe, or its cached result is Success). */
export function isReady(started: boolean, running: boolean, hasReadinessProbe: boolean, readiness: CachedResult | undefined): boolean {
  return started && running && (!hasReadinessProbe || readiness === 'Success');
}

export interface ReadyCondition {
  readonly status: boolean;
  readonly reason?: 'ContainersNotReady' | 'PodCompleted' | 'UnknownContainerStatuses';
  readonly message?: string;
}

/**
 * S4: `ContainersReady` (and so the pod's `Ready`) from the containers' readiness. `statuses`
 * holds, per container that should be counted, its `ready` or `undefined` when it has no status.
 */
export function containersReady(statuses: ReadonlyMap<string, boolean | undefined>, podSucceeded: boolean): ReadyCondition {
  if (statuses.size === 0 || [...statuses.values()].every((v) => v === undefined)) return { status: false, reason: 'UnknownContainerStatuses' };
  const unknown = [...statuses].filter(([, ready]) => ready === undefined).map(([name]) => name);
  const unready = [...statuses].filter(([, ready]) => ready === false).map(([name]) => name);
  if (unknown.length === 0 && podSucceeded) return { status: false, reason: 'PodCompleted' };
  if (unknown.length === 0 && unready.length === 0) return { status: true };
  const parts = [];
  if (unknown.length > 0) parts.push(`containers with unknown status: [${unknown.join(' ')}]`);
  if (unready.length > 0) parts.push(`containers with unready status: [${unready.join(' ')}]`);
  return { status: false, reason: 'ContainersNotReady', message: parts.join(', ') };
}

/** S3: a plain init container is ready once it has exited 0. */
export function isInitContainerReady(terminated: boolean, exitCode: number): boolean {
  return terminated && exitCode === 0;
}
