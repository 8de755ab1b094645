import type { ProbeType } from '../manifest';
import type { ProbeResult } from '../probers/types';
import type { ContainerState } from './podState';
import type { CachedResult } from './results';

/**
 * What a running engine reports, one object per line in `--format jsonl` (docs/design.md §3). `t` is
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
      /**
       * The attempt ran while a debugger held the app at a breakpoint (a `pause` line): a failure
       * of the pause, not of the app, which recommendations leave out.
       */
      readonly paused?: true;
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
  | { readonly type: 'tunnel'; readonly t: number; readonly pod: string; readonly state: 'up' | 'down'; readonly local: string; readonly remote: string }
  /**
   * Cluster mode: what the cluster's own kubelet reports, when it changes — of a container
   * (`container` set: its `started`, `ready` and `restartCount`) or of the pod (its Ready condition).
   */
  | { readonly type: 'kubelet'; readonly t: number; readonly pod: string; readonly container?: string; readonly started?: boolean; readonly ready: boolean; readonly restartCount?: number }
  /**
   * Cluster mode: the cluster's kubelet owns the containers, so where ours would kill (K2) it
   * predicts (`pending`), then says whether the cluster did: the container instance stopped
   * within the grace period and a probe period (`confirmed`) or not (`missed`).
   */
  | {
      readonly type: 'prediction';
      readonly t: number;
      readonly pod: string;
      readonly container: string;
      readonly probe: 'liveness' | 'startup';
      readonly containerId: string;
      readonly state: 'pending' | 'confirmed' | 'missed';
      readonly message: string;
    }
  /** Cluster mode: an event the cluster recorded for the pod (`Unhealthy`, `Killing`, `BackOff` …), beside ours. */
  | {
      readonly type: 'clusterEvent';
      readonly t: number;
      readonly pod: string;
      readonly container?: string;
      readonly reason: string;
      readonly message: string;
      readonly eventType: 'Normal' | 'Warning';
      /** How many times the cluster has seen it (its `count`). */
      readonly count: number;
    }
  /**
   * Cluster mode: our probes and the cluster's kubelet disagree on a container's readiness, and
   * have for a while (`open`, with what likely explains it); or agree again (`resolved`).
   */
  | {
      readonly type: 'disagreement';
      readonly t: number;
      readonly pod: string;
      readonly container: string;
      readonly state: 'open' | 'resolved';
      /** Ready by our probes, and by the kubelet's. */
      readonly ours: boolean;
      readonly kubelet: boolean;
      /** A likely cause found in the evidence (`loopback-only`, `pod-ip-only`, `host-or-source`, `kubelet-timeout`), or `unexplained`. */
      readonly cause: string;
      readonly message: string;
    }
  /**
   * Cluster mode: the cluster pod a pod is probed through — at the start, and again after a
   * rollout replaced it. `pod` is the manifest's pod, or with `--all-pods` the cluster pod's own
   * name (`manifestPod` names the manifest's).
   */
  | { readonly type: 'target'; readonly t: number; readonly pod: string; readonly manifestPod: string; readonly clusterPod: string; readonly namespace: string; readonly podIP?: string }
  | PauseLine;

/**
 * A VS Code debug session paused the program under probe (a breakpoint, a step) or let it go on.
 * Written for each pod of a local session while the extension's breakpoint guard watches it.
 */
export type PauseLine = { readonly type: 'pause'; readonly t: number; readonly pod: string; readonly state: 'paused' | 'continued'; readonly debugSession: string };

export type EventSink = (event: EngineEvent) => void;

/** `Liveness`, `Readiness`, `Startup`: how the kubelet names probe types in event text. */
export function probeTypeTitle(type: ProbeType): string {
  return type[0]?.toUpperCase() + type.slice(1);
}
