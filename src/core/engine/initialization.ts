import type { ContainerState } from './podState';

/** An init container as `computeInitContainerActions` sees it. */
export interface InitContainerView {
  /** `restartPolicy: Always`. */
  readonly sidecar: boolean;
  /** It has a status: started at least once. */
  readonly created: boolean;
  readonly state: ContainerState;
  /** Of the last exited instance. */
  readonly exitCode: number;
  /** S1: running, and its startup probe (if any) has succeeded. */
  readonly started: boolean;
}

/**
 * What initialization does next (docs/kubelet-notes.md I1–I4):
 * - `start`: start the init container at `index` (the first, or the one after a finished one);
 * - `wait`: the last started one is still at work (running, or a sidecar not yet started);
 * - `restart`: the last started one is a plain init container that failed: start it again
 *   (under CrashLoopBackOff);
 * - `failed`: … and the pod's restartPolicy is Never: the pod has failed;
 * - `initialized`: every init container is done, or started for a sidecar: the app containers may run.
 */
export type InitStep =
  | { readonly kind: 'start' | 'restart'; readonly index: number }
  | { readonly kind: 'wait' | 'failed' | 'initialized' };

const WAIT: InitStep = { kind: 'wait' };
const FAILED: InitStep = { kind: 'failed' };
const INITIALIZED: InitStep = { kind: 'initialized' };

/**
 * `computeInitContainerActions` (kuberuntime_container.go): only the last init container that has
 * a status decides, as the kubelet walks them backwards; the ones before it are initialized,
 * whatever became of them since (a sidecar that died is restarted on its own). An app container
 * that runs means the pod initialized long ago.
 */
export function initializationStep(inits: readonly InitContainerView[], restartPolicy: string, appContainerRunning: boolean): InitStep {
  if (appContainerRunning) return INITIALIZED;
  let last = inits.length - 1;
  while (last >= 0 && !(inits[last] as InitContainerView).created) last--;
  if (last < 0) return inits.length === 0 ? INITIALIZED : { kind: 'start', index: 0 };
  const init = inits[last] as InitContainerView;
  const done = init.sidecar ? init.state === 'running' && init.started : init.state === 'terminated' && init.exitCode === 0;
  if (done) return last === inits.length - 1 ? INITIALIZED : { kind: 'start', index: last + 1 };
  if (init.sidecar || init.state === 'running') return WAIT;
  return restartPolicy === 'Never' ? FAILED : { kind: 'restart', index: last };
}
