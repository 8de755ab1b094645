import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import type { EngineEvent, EventSink } from '../engine/events';
import { type DesiredPod, Manager } from '../engine/manager';
import { ObservedPodRuntime } from '../engine/observedPod';
import { KUBELET_UP_MS } from '../engine/podRuntime';
import type { ApiFailure, KubeApi } from '../kubeclient/kubeApi';
import type { ProbeTarget } from '../engine/target';
import type { KubectlError } from '../kubeclient/kubectlErrors';
import { ClusterTarget } from './clusterTarget';
import { type ClusterPod, observedPodOf, runtimeOfPod } from './clusterPod';
import { watchPodEvents } from './clusterEvents';
import { type BoundPod, describeObject, noPodText, PodFollower, podListPath, unfollowable } from './podFollower';
import { nodeRuntimeVersion, type RuntimeFacts, UNKNOWN_RUNTIME } from './nodeRuntime';
import { type StreamRefusal, type StreamResource, streamRefusalSentence } from './streamAccess';
import { VerdictComparer } from './verdicts';

/** How long a refused stream's attempt may take to be written (its retries) before the refusal is said anyway. */
const FORBIDDEN_ATTEMPT_WAIT_MS = 5_000;

/** What people are told as a cluster session goes (the CLI's stderr, the extension's log and notices). */
export type ClusterNotice =
  /** A manifest pod is probed through this cluster pod (again, after a rollout). */
  | { readonly kind: 'bound'; readonly manifestPod: string; readonly what: string; readonly pod: ClusterPod; readonly replaced?: string }
  /** A manifest pod has no pod to probe now, and why. */
  | { readonly kind: 'no-pod'; readonly manifestPod: string; readonly why: string }
  /** Watching the cluster failed (it keeps trying), or works again. `proxyDown`: because our own kubectl proxy was not answering (its restart is said by its state). */
  | { readonly kind: 'watch-failed'; readonly error: KubectlError; readonly detail: string; readonly proxyDown?: true }
  | { readonly kind: 'watch-recovered' }
  /**
   * The cluster refuses a stream the probes need (RBAC: 403 on pods/portforward or pods/exec):
   * every attempt would meet the same, so probing cannot go on. Said once; the session ends.
   */
  | { readonly kind: 'forbidden'; readonly resource: StreamResource; readonly pod: string; readonly sentence: string; readonly detail: string }
  /** The cluster's events cannot be watched in a namespace (403): its kubelet's events will not show beside ours. Said once per namespace. */
  | { readonly kind: 'events-forbidden'; readonly namespace: string; readonly sentence: string; readonly detail: string };

export interface ClusterProbingOptions {
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly epoch: number;
  /** The wall time `epoch` stands for: the API's timestamps are wall-clock. */
  readonly epochWall: number;
  readonly emit: EventSink;
  /** The manifest's pods; those with probes are followed in the cluster. */
  readonly pods: readonly DesiredPod[];
  /** For manifest pods without `metadata.namespace`: the one given, else the context's. */
  readonly namespace: string;
  readonly allPods: boolean;
  readonly allowExec: boolean;
  readonly minorVersion: number;
  readonly random?: () => number;
  /** What the runtimes probe through instead of the cluster target itself (the extension's exec consent gate). */
  readonly wrapTarget?: (target: ProbeTarget) => ProbeTarget;
  readonly onNotice: (notice: ClusterNotice) => void;
}

/** A manifest pod followed in the cluster; `desired` follows the manifest's edits (the follower lives while its list does). */
interface Followed {
  readonly follower: PodFollower;
  readonly path: string;
  desired: DesiredPod;
}

/**
 * Probing a cluster's pods as their kubelet does, while watching them live: each manifest pod
 * with probes is followed (`PodFollower`); the pods it finds are probed through the API server
 * (`ClusterTarget`) by runtimes that take their containers' lifecycle from the watch
 * (`ObservedPodRuntime`); the cluster's own verdicts and events are written beside ours, and
 * compared (`VerdictComparer`). Disposing stops every watch, stream and worker.
 */
export class ClusterProbing implements Disposable {
  private readonly manager: Manager<ObservedPodRuntime>;
  private readonly target: ClusterTarget;
  /** Per manifest pod (by its uid): its follower, the list it watches, and the manifest pod as last synced. */
  private readonly followers = new Map<string, Followed>();
  /** Manifest pods that cannot be looked for, already said. */
  private readonly refused = new Set<string>();
  /** Manifest pods whose missing pod was said (once, until one is found). */
  private readonly saidNoPod = new Set<string>();
  /** Per manifest pod (by its uid): the cluster pods probed for it now; what each probe goes to is read here. */
  private readonly bound = new Map<string, readonly BoundPod[]>();
  private readonly eventWatches = new Map<string, Disposable>();
  /** Namespaces whose events the user may not watch, already said. */
  private readonly eventsForbidden = new Set<string>();
  /** Per node: its runtime and version, once read (`undefined` when it cannot be). */
  private readonly nodeRuntimes = new Map<string, { readonly name: string; readonly version: string } | undefined>();
  private readonly comparer: VerdictComparer;
  private readonly emit: EventSink;
  /** A stream was refused for good (RBAC): said once the attempt that met it is written. */
  private forbidden: { readonly pod: string; readonly container: string; readonly say: () => void; readonly written: Disposable } | undefined;
  private disposed = false;

  constructor(private readonly options: ClusterProbingOptions) {
    this.comparer = new VerdictComparer(options.clock, options.epoch, (event) => options.emit(event), undefined, (pod) => this.runtimeFacts(pod));
    this.emit = (event: EngineEvent) => {
      if (this.disposed) return;
      options.emit(event);
      this.comparer.see(event);
      const forbidden = this.forbidden;
      if (forbidden && event.type === 'attempt' && event.pod === forbidden.pod && event.container === forbidden.container) forbidden.say();
    };
    this.target = new ClusterTarget({
      api: options.api,
      podOf: (uid) => this.podOf(uid),
      allowExec: options.allowExec,
      minorVersion: options.minorVersion,
      clock: options.clock,
      onForbidden: (refusal, request) => this.streamRefused(refusal, { pod: request.pod.name, container: request.container.name }),
      onRuntimeRefusal: (request, text) => this.comparer.seeRuntimeRefusal(request.pod.name, request.container.name, text),
    });
    const probed = options.wrapTarget?.(this.target) ?? this.target;
    this.manager = new Manager(
      (identity, spec) =>
        new ObservedPodRuntime(identity, spec, {
          clock: options.clock,
          epoch: options.epoch,
          kubeletStartedAt: options.epoch - KUBELET_UP_MS,
          random: options.random ?? Math.random,
          target: probed,
          emit: this.emit,
        }),
    );
    this.sync(options.pods);
  }

  /**
   * Follows the manifest as edited: new manifest pods are looked for, removed ones let go, and
   * edited probes restart their own workers (the Manager's fingerprints). A changed selector
   * or namespace starts its pod's search again.
   */
  sync(pods: readonly DesiredPod[]): void {
    if (this.disposed) return;
    const wanted = new Map<string, { readonly desired: DesiredPod; readonly namespace: string; readonly path: string }>();
    for (const desired of pods) {
      if (!desired.spec.containers.some((c) => c.probes.length > 0)) continue;
      const why = unfollowable(desired.spec);
      if (why !== undefined) {
        if (!this.refused.has(desired.identity.uid)) this.options.onNotice({ kind: 'no-pod', manifestPod: desired.identity.name, why });
        this.refused.add(desired.identity.uid);
        continue;
      }
      const namespace = desired.spec.objectNamespace || this.options.namespace;
      wanted.set(desired.identity.uid, { desired, namespace, path: podListPath(desired.spec, namespace) });
    }
    for (const [uid, followed] of this.followers) {
      if (wanted.get(uid)?.path === followed.path) continue;
      followed.follower.dispose();
      this.followers.delete(uid);
      // No longer followed: its cluster pods are no longer probed.
      this.bound.delete(uid);
    }
    for (const [uid, { desired, namespace, path }] of wanted) {
      const followed = this.followers.get(uid);
      if (followed) {
        followed.desired = desired;
        continue;
      }
      const follower = new PodFollower({
        api: this.options.api,
        clock: this.options.clock,
        desired,
        namespace,
        allPods: this.options.allPods,
        onPods: (bound, all) => this.follow(desired, namespace, bound, all),
        onFailure: (failure) => this.options.onNotice({ kind: 'watch-failed', error: failure.error, detail: failure.detail, ...(failure.proxyDown ? { proxyDown: true as const } : {}) }),
        onRecovered: () => this.options.onNotice({ kind: 'watch-recovered' }),
      });
      this.followers.set(uid, { follower, path, desired });
    }
    this.resync();
  }

  /** Resolves once every followed manifest pod was listed once (or failed to be). */
  async whenListed(): Promise<void> {
    await Promise.all([...this.followers.values()].map((f) => f.follower.whenListed()));
  }

  /** How many cluster pods are probed now. */
  get probedPods(): number {
    let probed = 0;
    for (const pods of this.bound.values()) probed += pods.length;
    return probed;
  }

  get following(): number {
    return this.followers.size;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const { follower } of this.followers.values()) follower.dispose();
    for (const watch of this.eventWatches.values()) watch.dispose();
    this.eventWatches.clear();
    this.forbidden?.written.dispose();
    this.manager.dispose();
    this.target.dispose();
    this.comparer.dispose();
  }

  /** One manifest pod's cluster pods changed: rebind, resync the runtimes, feed them the statuses. */
  private follow(desired: DesiredPod, namespace: string, bound: readonly BoundPod[], all: readonly ClusterPod[]): void {
    if (this.disposed) return;
    const uid = desired.identity.uid;
    const before = this.bound.get(uid) ?? [];
    this.bound.set(uid, bound);
    for (const { identity, pod } of bound) {
      const previous = before.find((b) => b.identity.uid === identity.uid)?.pod;
      if (previous?.uid !== pod.uid) this.rebound(desired, identity.name, pod, previous);
      this.learnRuntime(pod);
    }
    // A pod probed until now that the cluster no longer has (deleted, or no longer selected), and none in its place.
    for (const { identity, pod } of before) {
      if (bound.some((b) => b.identity.uid === identity.uid) || all.some((p) => p.uid === pod.uid)) continue;
      this.manager.runtimes.find((r) => r.identity.uid === identity.uid)?.podGone();
    }
    if (bound.length > 0) this.saidNoPod.delete(uid);
    else if (!this.saidNoPod.has(uid)) {
      this.saidNoPod.add(uid);
      this.options.onNotice({ kind: 'no-pod', manifestPod: desired.identity.name, why: noPodText(desired.spec, namespace, all) });
    }
    this.resync(bound);
  }

  /** The runtimes for the pods bound now, with the manifest's specs; then the statuses of `observed`. */
  private resync(observed: readonly BoundPod[] = []): void {
    // Only a followed manifest pod has pods bound (its follower reports them), so its spec is there.
    this.manager.sync([...this.bound.entries()].flatMap(([uid, pods]) => pods.map((b) => ({ identity: b.identity, spec: (this.followers.get(uid) as Followed).desired.spec }))));
    const wallToClock = (wall: number) => this.options.epoch + (wall - this.options.epochWall);
    for (const runtime of this.manager.runtimes) {
      const seen = observed.find((b) => b.identity.uid === runtime.identity.uid);
      if (seen) runtime.observe(observedPodOf(seen.pod, wallToClock));
    }
    this.watchEvents();
  }

  /**
   * A stream refused with 403: worded exactly (which verb, whether kubectl would work), and said
   * once — after the attempt that met it is written (its prober retries done, P2), so the record
   * shows it; the session it ends stops probing.
   */
  private streamRefused(refusal: StreamRefusal, of: { readonly pod: string; readonly container: string }): void {
    if (this.forbidden || this.disposed) return;
    const what = refusal.resource === 'pods/portforward' ? 'a port-forward' : 'an exec';
    const sentence = streamRefusalSentence(this.options.api, refusal, this.options.minorVersion).then((why) => `the cluster refused ${what} to pod ${refusal.pod}, so probing stopped: ${why}`);
    let said = false;
    const say = () => {
      if (said) return;
      said = true;
      this.forbidden?.written.dispose();
      void sentence.then((text) => {
        if (!this.disposed) this.options.onNotice({ kind: 'forbidden', resource: refusal.resource, pod: refusal.pod, sentence: text, detail: refusal.failure.detail });
      });
    };
    this.forbidden = { pod: of.pod, container: of.container, say, written: this.options.clock.schedule(FORBIDDEN_ATTEMPT_WAIT_MS, say) };
  }

  /** The node's runtime and version, read once per node (most users may not read nodes: then only what the pod says). */
  private learnRuntime(pod: ClusterPod): void {
    const node = pod.nodeName;
    if (node === undefined || this.nodeRuntimes.has(node)) return;
    this.nodeRuntimes.set(node, undefined);
    void nodeRuntimeVersion(this.options.api, node).then((runtime) => {
      if (!this.disposed) this.nodeRuntimes.set(node, runtime);
    });
  }

  /** What the pod named `pod` (the engine's name) runs on, as far as the cluster said. */
  private runtimeFacts(podName: string): RuntimeFacts {
    const pod = [...this.bound.values()].flat().find((b) => b.identity.name === podName)?.pod;
    if (!pod) return UNKNOWN_RUNTIME;
    const name = runtimeOfPod(pod);
    const node = pod.nodeName === undefined ? undefined : this.nodeRuntimes.get(pod.nodeName);
    const version = node && (name === undefined || node.name === name) ? node.version : undefined;
    return { name: name ?? node?.name, version, runtimeClass: pod.runtimeClassName };
  }

  /** The cluster pod an engine uid's probes go to now. */
  private podOf(engineUid: string): ClusterPod | undefined {
    for (const pods of this.bound.values()) for (const b of pods) if (b.identity.uid === engineUid) return b.pod;
    return undefined;
  }

  private rebound(desired: DesiredPod, name: string, pod: ClusterPod, previous: ClusterPod | undefined): void {
    const t = (this.options.clock.now() - this.options.epoch) / 1000;
    this.emit({ type: 'target', t, pod: name, manifestPod: desired.identity.name, clusterPod: pod.name, namespace: pod.namespace, ...(pod.podIP ? { podIP: pod.podIP } : {}) });
    this.options.onNotice({ kind: 'bound', manifestPod: name, what: describeObject(desired.spec), pod, ...(previous ? { replaced: previous.name } : {}) });
  }

  /** The events of a namespace cannot be watched: said once, with what it costs. */
  private eventsRefused(namespace: string, failure: ApiFailure): void {
    if (this.eventsForbidden.has(namespace) || this.disposed) return;
    this.eventsForbidden.add(namespace);
    const sentence = `the cluster's events in namespace "${namespace}" cannot be watched, so its kubelet's own events (Unhealthy, Killing, BackOff) will not show beside ours; its verdicts (started, ready, restarts) still do: ${failure.error.sentence}`;
    this.options.onNotice({ kind: 'events-forbidden', namespace, sentence, detail: failure.detail });
  }

  /** One watch of the cluster's events per probed pod, kept while it is probed. */
  private watchEvents(): void {
    const wanted = new Map<string, { readonly pod: ClusterPod; readonly name: string }>();
    for (const pods of this.bound.values()) for (const { identity, pod } of pods) wanted.set(pod.uid, { pod, name: identity.name });
    for (const [uid, watch] of this.eventWatches) {
      if (wanted.has(uid)) continue;
      watch.dispose();
      this.eventWatches.delete(uid);
    }
    for (const [uid, { pod, name }] of wanted) {
      if (this.eventWatches.has(uid)) continue;
      const { api, clock, epoch, epochWall } = this.options;
      this.eventWatches.set(uid, watchPodEvents({ api, clock, epoch, epochWall, pod, podName: name, emit: this.emit, onForbidden: (failure) => this.eventsRefused(pod.namespace, failure) }));
    }
  }
}
