import type { ContainerModel, ProbeModel, ProbeType } from '../manifest';
import type { Disposable } from '../base/disposable';
import type { ContainerState, ContainerStatusView } from './podState';
import type { ContainerProcess } from './target';

/** A probe's worker as the pod sees it: its probe, and the loop to trigger (W13) or stop (W14). */
export interface ProbeRunner {
  readonly model: ProbeModel;
  readonly loop: { trigger(): void; dispose(): void };
}

/** What the kubelet knows of one container of a pod: its current instance and how it got there. */
export class ContainerRecord implements ContainerStatusView {
  containerId: string | undefined;
  state: ContainerState = 'waiting';
  startedAt: number | undefined;
  finishedAt = 0;
  exitCode = 0;
  reason: string | undefined;
  /** The waiting state's message (CrashLoopBackOff). */
  message: string | undefined;
  /** 0 for the first instance, then one more per restart (-1 before the first start). */
  instance = -1;
  started = false;
  ready = false;
  /** What the last `status` event said, to publish changes only. */
  reported: { started: boolean; ready: boolean } | undefined;
  process: ContainerProcess | undefined;
  killTimer: Disposable | undefined;
  readonly workers: Partial<Record<ProbeType, ProbeRunner>> = {};
  readonly name: string;

  constructor(readonly model: ContainerModel) {
    this.name = model.name;
  }

  /** The kubelet counts the instances started after the first. */
  get restartCount(): number {
    return Math.max(this.instance, 0);
  }

  /** Started at least once: the kubelet has a status for it. */
  get created(): boolean {
    return this.instance >= 0;
  }

  get isPlainInit(): boolean {
    return this.model.kind === 'init';
  }

  get isInit(): boolean {
    return this.model.kind === 'init' || this.model.kind === 'sidecar';
  }
}
