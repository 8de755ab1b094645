import { type ContainerModel, type Manifest, PROBING_CONTAINERS, type PodSpecModel, type ProbeModel } from '../manifest';
import type { Disposable } from '../base/disposable';
import { PodRuntime, type PodRuntimeOptions } from './podRuntime';
import type { PodIdentity } from './target';

export interface DesiredPod {
  readonly identity: PodIdentity;
  readonly spec: PodSpecModel;
}

/** What the Manager keeps per pod: the kubelet running it (`PodRuntime`), or only probing it (`ObservedPodRuntime`). */
export interface ManagedRuntime extends Disposable {
  readonly identity: PodIdentity;
  start(): this;
  replaceProbe(containerName: string, probe: ProbeModel | undefined, type: ProbeModel['type']): void;
}

export type RuntimeFactory<R extends ManagedRuntime> = (identity: PodIdentity, spec: PodSpecModel) => R;

interface ManagedPod<R extends ManagedRuntime> {
  readonly runtime: R;
  readonly shape: number;
  /** Per `container\u0000type`: the probe's fingerprint (a plain object: a pod has a few). */
  probes: Record<string, number>;
}

/**
 * Keeps one `PodRuntime` per desired pod. Unlike the kubelet, which never updates a worker in
 * place (W1), an editor must follow edits: a changed probe restarts its own worker only, a
 * changed set of containers restarts the pod.
 */
export class Manager<R extends ManagedRuntime> implements Disposable {
  private readonly pods = new Map<string, ManagedPod<R>>();

  /** `create` makes each pod's runtime (`podRuntimes(options)`: the kubelet running the pod). */
  constructor(private readonly create: RuntimeFactory<R>) {}

  sync(desired: readonly DesiredPod[]): void {
    const wanted = new Set(desired.map((p) => p.identity.uid));
    for (const [uid, pod] of this.pods) {
      if (!wanted.has(uid)) {
        pod.runtime.dispose();
        this.pods.delete(uid);
      }
    }
    for (const pod of desired) {
      const current = this.pods.get(pod.identity.uid);
      const shape = podShape(pod.spec);
      if (current && current.shape === shape) {
        this.updateProbes(current, pod.spec);
        continue;
      }
      current?.runtime.dispose();
      this.pods.set(pod.identity.uid, { runtime: this.create(pod.identity, pod.spec).start(), shape, probes: probePrints(pod.spec) });
    }
  }

  get runtimes(): readonly R[] {
    return [...this.pods.values()].map((p) => p.runtime);
  }

  dispose(): void {
    for (const pod of this.pods.values()) pod.runtime.dispose();
    this.pods.clear();
  }

  private updateProbes(pod: ManagedPod<R>, spec: PodSpecModel): void {
    const next = probePrints(spec);
    for (const key of new Set([...Object.keys(pod.probes), ...Object.keys(next)])) {
      if (pod.probes[key] === next[key]) continue;
      const [containerName, type] = key.split('\u0000') as [string, ProbeModel['type']];
      const container = spec.containers.find((c) => c.name === containerName);
      pod.runtime.replaceProbe(containerName, container?.probe(type), type);
    }
    pod.probes = next;
  }
}

/** Pods run by our kubelet: simulated, or on this machine. */
export function podRuntimes(options: PodRuntimeOptions): RuntimeFactory<PodRuntime> {
  return (identity, spec) => new PodRuntime(identity, spec, options);
}

/** The pods of a manifest, named after their objects, with stable made-up UIDs. */
export function desiredPods(manifest: Manifest): DesiredPod[] {
  return desiredPodsOf(manifest.documents.map((document) => ({ index: document.source.index, podSpecs: document.podSpecs })));
}

/** The same, for documents given with their file-wide index (the editor reads a file in pieces). */
export function desiredPodsOf(documents: readonly { readonly index: number; readonly podSpecs: readonly PodSpecModel[] }[]): DesiredPod[] {
  const seen = new Map<string, number>();
  return documents.flatMap((document) =>
    document.podSpecs.map((spec, index) => {
      const base = spec.objectName ?? `${spec.objectKind.toLowerCase()}-${document.index}`;
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      const name = count === 0 ? base : `${base}-${count + 1}`;
      return { identity: { name, namespace: 'default', uid: stableUid(`${spec.objectKind}/${name}/${document.index}/${index}`) }, spec };
    }),
  );
}

/** What makes a pod the same pod: the containers it runs (init containers too: they order the rest) and its pod-level settings. */
function podShape(spec: PodSpecModel): number {
  const containers = spec.containers.filter((c) => c.kind !== 'ephemeral').map((c) => [c.name, c.kind]);
  return fingerprint(JSON.stringify([containers, spec.restartPolicy, spec.terminationGracePeriodSeconds]));
}

/** Per probe, everything its worker and target depend on: the probe and what resolves its port. */
function probePrints(spec: PodSpecModel): Record<string, number> {
  const prints: Record<string, number> = {};
  for (const container of spec.containers.filter(probing)) {
    for (const probe of container.probes) {
      prints[`${container.name}\u0000${probe.type}`] = fingerprint(probeDependencies(container, probe));
    }
  }
  return prints;
}

/**
 * Everything a probe's worker and target depend on, as text: the probe after defaults and what
 * resolves its port and expands its command. An edit that changes it restarts that worker.
 */
export function probeDependencies(container: ContainerModel, probe: ProbeModel): string {
  return JSON.stringify([probe.effective, container.spec.ports ?? [], container.spec.env ?? []]);
}

/** 53 bits of two FNV-1a hashes: kept per probe instead of the text it stands for. */
function fingerprint(text: string): number {
  const [a, b] = fnv1aPair(text, 0x5bd1e995);
  return (a & 0x1fffff) * 0x100000000 + b;
}

/**
 * Two 32-bit FNV-1a hashes of `text` in one pass: the standard one, and one whose multiplier is
 * `secondPrime` (each user keeps its own, so its values never change).
 */
function fnv1aPair(text: string, secondPrime: number): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, secondPrime) >>> 0;
  }
  return [a, b];
}

function probing(container: ContainerModel): boolean {
  return PROBING_CONTAINERS.includes(container.kind);
}

/** A UUID-shaped identifier derived from `text` (FNV-1a), so runs are repeatable. */
function stableUid(text: string): string {
  const [a, b] = fnv1aPair(text, 0x811c9dc5);
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return `${hex(a)}-${hex(b).slice(0, 4)}-4${hex(b).slice(4, 7)}-8${hex(a ^ b).slice(0, 3)}-${hex(a ^ 0x5bd1e995)}${hex(b).slice(0, 4)}`;
}
