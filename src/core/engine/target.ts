import type { ContainerModel, EffectiveProbe, PodSpecModel, ProbeType } from '../manifest';
import type { ProbeOutcome } from '../probers/types';
import type { Disposable } from '../base/disposable';

export interface PodIdentity {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
}

export interface AttemptRequest {
  readonly pod: PodIdentity;
  readonly podSpec: PodSpecModel;
  readonly container: ContainerModel;
  readonly type: ProbeType;
  readonly probe: EffectiveProbe;
  readonly containerId: string;
  /** Clock time (ms) the probed container instance started. */
  readonly startedAt: number;
  /** 0 for the first instance, then the restart count. */
  readonly instance: number;
  /**
   * The target's own slot: what it prepared for this probe (a resolved handler, canned outputs).
   * A request lives as long as its probe's container instance, and the target may reuse it.
   */
  targetState?: unknown;
}

/** Where probes go: a scenario (simulate), your process (local), a port-forward (cluster). */
export interface ProbeTarget extends Disposable {
  /** One handler call, settled through `done` within the probe's timeout whatever happens. */
  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void;
}

export interface ProcessRequest {
  readonly pod: PodIdentity;
  readonly container: ContainerModel;
  readonly instance: number;
  readonly startedAt: number;
}

/** One running container instance. Disposing it is the SIGKILL. */
export interface ContainerProcess extends Disposable {
  /**
   * How long the app takes to exit after SIGTERM; absent: it ignores SIGTERM and runs out the
   * grace period (K3). A process we only observe never says.
   */
  readonly stopAfterMs?: number;
}

/** How container instances come and go: the scenario's script, or nothing at all for a process we only observe. */
export interface ContainerProcesses {
  /** Starts an instance; `onExit` if it stops by itself. */
  start(request: ProcessRequest, onExit: (exitCode: number) => void): ContainerProcess;
  /**
   * Plain init containers run here, one at a time, before the app containers (a simulation).
   * Otherwise (a process we only observe) they ran before we looked and are not modelled.
   */
  readonly runsPlainInitContainers?: boolean;
  /**
   * The kubelet's kills are carried out here: disposing a process ends it (a simulation's
   * script). Otherwise (a process we only observe, on this machine or in a cluster) a kill is the
   * kubelet's decision, reported — the container "would restart" — and the process runs on.
   */
  readonly carriesOutKills?: boolean;
}
