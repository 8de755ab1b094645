/** What the kubelet's status manager knows of a pod and its containers, as the workers read it. */
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

export type ContainerState = 'waiting' | 'running' | 'terminated';

export interface ContainerStatusView {
  readonly name: string;
  /** Empty until the container is first created. */
  readonly containerId?: string;
  readonly state: ContainerState;
  /** Clock time (ms) the current instance started running. */
  readonly startedAt?: number;
  readonly started: boolean;
  readonly ready: boolean;
  readonly restartCount: number;
}

export interface PodStatusView {
  readonly phase: PodPhase;
  /** The pod has a deletion timestamp (A5). */
  readonly deleting: boolean;
  readonly restartPolicy: string;
  /** By name, regular containers first, then init containers (W5 step 3). */
  container(name: string): ContainerStatusView | undefined;
}
