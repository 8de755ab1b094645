import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import type { DesiredPod } from '../engine/manager';
import type { PodIdentity } from '../engine/target';
import type { ApiFailure, KubeApi } from '../kubeclient/kubeApi';
import { type WatchEventType, watchList } from '../kubeclient/watch';
import type { PodSpecModel } from '../manifest';
import { type ClusterPod, choosePod, isProbeable, readClusterPod } from './clusterPod';

/** A cluster pod being probed, and the engine identity its probes run under. */
export interface BoundPod {
  readonly identity: PodIdentity;
  readonly pod: ClusterPod;
}

export interface PodFollowerOptions {
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly desired: DesiredPod;
  /** Where to look: the manifest's namespace, else the one given, else the context's. */
  readonly namespace: string;
  /** Probe every probeable pod of a workload (each its own identity), not only one. */
  readonly allPods: boolean;
  /** The pods probed now, after every change the watch brings (statuses included). */
  onPods(bound: readonly BoundPod[], all: readonly ClusterPod[]): void;
  onFailure(failure: ApiFailure): void;
  onRecovered(): void;
}

/**
 * Follows the cluster pods of one manifest pod: a Pod by name, a workload by its selector. One
 * pod is probed under the manifest pod's identity, so a rollout that replaces it continues the
 * same timeline on the new pod (a new container instance, W6); with `allPods`, each pod is
 * probed under its own name.
 */
export class PodFollower implements Disposable {
  private readonly pods = new Map<string, ClusterPod>();
  private current: string | undefined;
  private readonly firstSync: Promise<void>;
  private releaseFirstSync: () => void = () => undefined;
  private readonly watch: Disposable;

  constructor(private readonly options: PodFollowerOptions) {
    this.firstSync = new Promise((resolve) => (this.releaseFirstSync = resolve));
    const query = podListPath(options.desired.spec, options.namespace);
    this.watch = watchList({
      api: options.api,
      clock: options.clock,
      path: query,
      onSync: (items) => this.replaceAll(items),
      onChange: (type, object) => this.change(type, object),
      onFailure: (failure) => {
        options.onFailure(failure);
        // A first list that fails still ends the wait: the caller reports the failure.
        this.releaseFirstSync();
      },
      onRecovered: () => options.onRecovered(),
    });
  }

  /** Resolves after the first list (or its first failure). */
  whenListed(): Promise<void> {
    return this.firstSync;
  }

  dispose(): void {
    this.watch.dispose();
    this.releaseFirstSync();
  }

  private replaceAll(items: readonly unknown[]): void {
    this.pods.clear();
    for (const item of items) {
      const pod = readClusterPod(item);
      if (pod) this.pods.set(pod.name, pod);
    }
    this.publish();
    this.releaseFirstSync();
  }

  private change(type: WatchEventType, object: unknown): void {
    const pod = readClusterPod(object);
    if (!pod) return;
    if (type === 'DELETED') this.pods.delete(pod.name);
    else this.pods.set(pod.name, pod);
    this.publish();
  }

  private publish(): void {
    const all = [...this.pods.values()];
    this.options.onPods(this.options.allPods ? all.filter(isProbeable).map((pod) => ({ identity: { name: pod.name, namespace: pod.namespace, uid: pod.uid }, pod })) : this.followOne(all), all);
  }

  /** The pod probed so far while it can be; else the best other; a pod on its way out until another can take over. */
  private followOne(all: readonly ClusterPod[]): BoundPod[] {
    const chosen = choosePod(all, this.current) ?? all.find((p) => p.name === this.current);
    this.current = chosen?.name;
    return chosen ? [{ identity: this.options.desired.identity, pod: chosen }] : [];
  }
}

/** The API list of a manifest pod's cluster pods: a Pod by name, a workload by its labels. */
export function podListPath(spec: PodSpecModel, namespace: string): string {
  const base = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;
  if (spec.objectKind === 'Pod') return `${base}?fieldSelector=${encodeURIComponent(`metadata.name=${spec.objectName ?? ''}`)}`;
  return `${base}?labelSelector=${encodeURIComponent(selectorText(podLabels(spec) ?? {}))}`;
}

/** Why a manifest pod cannot be looked for in a cluster, or `undefined` when it can. */
export function unfollowable(spec: PodSpecModel): string | undefined {
  const what = describeObject(spec);
  if (spec.objectKind === 'Pod') return spec.objectName ? undefined : `${what} has no metadata.name to find it by in the cluster`;
  if (spec.objectKind === 'PodTemplate') return `${what} is a template only: no pod in the cluster runs it`;
  return podLabels(spec) ? undefined : `${what} has no selector.matchLabels or template labels to find its pods by`;
}

/** The labels a workload's pods carry: its selector; the Job controller's `job-name` for a Job without one. */
function podLabels(spec: PodSpecModel): Readonly<Record<string, string>> | undefined {
  return spec.podSelector ?? (spec.objectKind === 'Job' && spec.objectName ? { 'job-name': spec.objectName } : undefined);
}

/** `app=web,tier=front`: a label selector as the API takes it and people read it. */
function selectorText(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** `Deployment "web"`. */
export function describeObject(spec: PodSpecModel): string {
  return spec.objectName ? `${spec.objectKind} "${spec.objectName}"` : `the ${spec.objectKind} without a name`;
}

/** Why no pod of a manifest pod is probed, for people: none at all, or none Running. */
export function noPodText(spec: PodSpecModel, namespace: string, all: readonly ClusterPod[]): string {
  // A Pod is looked for by its name: "no pod of Pod "api"" would say it twice.
  const what = spec.objectKind === 'Pod' ? `named "${spec.objectName ?? ''}"` : `of ${describeObject(spec)}`;
  const selector = spec.objectKind === 'Pod' ? '' : ` with labels ${selectorText(podLabels(spec) ?? {})}`;
  if (all.length === 0) return `no pod ${what}${selector} in namespace "${namespace}"`;
  const states = all.map((p) => `${p.name} is ${p.deleting ? 'terminating' : p.phase}`).join(', ');
  return `no Running pod ${what} in namespace "${namespace}" (${states})`;
}
