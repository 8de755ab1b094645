import type { ProbeType } from '../manifest';
import type { ProbeResult } from '../probers/types';
import type { ContainerState } from './podState';
import type { CachedResult } from './results';

/**
 * What a running engine reports, one object per line in `--format jsonl` (design.md §3). `t` is
 * seconds since the run began, on the engine's clock (virtual in simulations).
 */
export type EngineEvent =
  | {
      readonly type: 'attempt';
      readonly t: number;
      readonly pod: string;
      readonly container: string;
      readonly probe: ProbeType;
      readonly containerId: string;
      readonly outcome: ProbeResult;
      readonly output: string;
      readonly error?: string;
      readonly durationMs: number;
    }
  | { readonly type: 'result'; readonly t: number; readonly pod: string; readonly container: string; readonly probe: ProbeType; readonly containerId: string; readonly value: CachedResult }
  | {
      readonly type: 'event';
      readonly t: number;
      readonly pod: string;
      readonly container?: string;
      readonly reason: string;
      readonly message: string;
      readonly eventType: 'Normal' | 'Warning';
      /** The probe whose attempt or verdict caused it (`Unhealthy`, `ProbeWarning`, a `Killing` for a failed probe). */
      readonly probe?: ProbeType;
    }
  | {
      /**
       * A probe worker starts: when its pod starts, in the order the manifest writes the probes,
       * and again when an edit replaces it. Carries what reading its lane needs (thresholds, period).
       */
      readonly type: 'worker';
      readonly t: number;
      readonly pod: string;
      readonly container: string;
      readonly probe: ProbeType;
      /** What it probes (`handlerTitle`): `httpGet http://:8080/healthz (port http)`, `tcpSocket :5432`, `exec pg_isready`. */
      readonly handler: string;
      readonly initialDelaySeconds: number;
      readonly periodSeconds: number;
      readonly timeoutSeconds: number;
      readonly successThreshold: number;
      readonly failureThreshold: number;
    }
  | {
      readonly type: 'container';
      readonly t: number;
      readonly pod: string;
      readonly container: string;
      readonly containerId: string;
      readonly state: ContainerState;
      readonly restartCount: number;
      readonly reason?: string;
      /** The waiting state's message: `back-off 20s restarting failed container=web pod=…` (B2). */
      readonly message?: string;
    }
  | { readonly type: 'status'; readonly t: number; readonly pod: string; readonly container: string; readonly started: boolean; readonly ready: boolean }
  | { readonly type: 'pod'; readonly t: number; readonly pod: string; readonly ready: boolean }
  | { readonly type: 'tunnel'; readonly t: number; readonly pod: string; readonly state: 'up' | 'down'; readonly local: string; readonly remote: string };

export type EventSink = (event: EngineEvent) => void;

/** `Liveness`, `Readiness`, `Startup`: how the kubelet names probe types in event text. */
export function probeTypeTitle(type: ProbeType): string {
  return type[0]?.toUpperCase() + type.slice(1);
}
