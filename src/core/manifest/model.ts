import type { Range } from '../text/range';
import type { DecodeIssue, SourceLocation } from './decode';
import type { SourceDocument, YamlFile } from './yamlFile';

export type ProbeType = 'liveness' | 'readiness' | 'startup';

/** In the order the API server validates them. */
export const PROBE_FIELDS = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' } as const;
export const PROBE_TYPES: readonly ProbeType[] = ['liveness', 'readiness', 'startup'];

export type IntOrString = number | string;

export interface HttpHeader {
  readonly name?: string;
  readonly value?: string;
}

export interface HttpGetAction {
  readonly path?: string;
  readonly port?: IntOrString;
  readonly host?: string;
  readonly scheme?: string;
  readonly httpHeaders?: readonly HttpHeader[];
  readonly protocol?: string;
}

export interface ProbeSpec {
  readonly exec?: { readonly command?: readonly string[] };
  readonly httpGet?: HttpGetAction;
  readonly tcpSocket?: { readonly port?: IntOrString; readonly host?: string };
  readonly grpc?: { readonly port?: number; readonly service?: string; readonly mode?: string };
  readonly initialDelaySeconds?: number;
  readonly timeoutSeconds?: number;
  readonly periodSeconds?: number;
  readonly successThreshold?: number;
  readonly failureThreshold?: number;
  readonly terminationGracePeriodSeconds?: number;
}

export type HandlerType = 'exec' | 'httpGet' | 'tcpSocket' | 'grpc';
/** The kubelet's (and the API server's) fixed order (P1, P02). */
export const HANDLER_TYPES: readonly HandlerType[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

export type ProbeHandler =
  | { readonly type: 'exec'; readonly command: readonly string[] }
  | {
      readonly type: 'httpGet';
      readonly path: string;
      readonly port: IntOrString;
      readonly host?: string;
      readonly scheme: string;
      readonly httpHeaders: readonly { readonly name: string; readonly value: string }[];
    }
  | { readonly type: 'tcpSocket'; readonly port: IntOrString; readonly host?: string }
  | { readonly type: 'grpc'; readonly port: number; readonly service?: string };

/** A probe after the API server's defaults (D1, D2): what validation and the kubelet see. */
export interface EffectiveProbe {
  /** The first handler in exec → httpGet → tcpSocket → grpc order; the others are ignored. */
  readonly handler: ProbeHandler | undefined;
  readonly handlerCount: number;
  readonly initialDelaySeconds: number;
  readonly timeoutSeconds: number;
  readonly periodSeconds: number;
  readonly successThreshold: number;
  readonly failureThreshold: number;
  readonly terminationGracePeriodSeconds?: number;
}

export interface ContainerPort {
  readonly name?: string;
  readonly containerPort?: number;
  readonly hostPort?: number;
  readonly protocol?: string;
}

export interface EnvVar {
  readonly name?: string;
  readonly value?: string;
  readonly valueFrom?: unknown;
}

export interface ContainerSpec {
  readonly name?: string;
  readonly image?: string;
  readonly ports?: readonly ContainerPort[];
  readonly env?: readonly EnvVar[];
  readonly restartPolicy?: string;
  readonly livenessProbe?: ProbeSpec;
  readonly readinessProbe?: ProbeSpec;
  readonly startupProbe?: ProbeSpec;
}

/**
 * `sidecar` is an init container with `restartPolicy: Always`; `init` is a plain one.
 * Probes run on regular containers and sidecars only (W1); elsewhere they are forbidden.
 */
export type ContainerKind = 'regular' | 'sidecar' | 'init' | 'ephemeral';

/** W1: the kinds whose probes get workers (and are validated); on the others they are forbidden. */
export const PROBING_CONTAINERS: readonly ContainerKind[] = ['regular', 'sidecar'];

export interface ProbeModel {
  readonly type: ProbeType;
  readonly container: ContainerModel;
  /** Full API path of the probe (`spec.template.spec.containers[0].livenessProbe`). */
  readonly path: string;
  /** As written (decoded). */
  readonly spec: ProbeSpec;
  /** After API defaults. */
  readonly effective: EffectiveProbe;
  /** Range of the `livenessProbe` key. */
  readonly keyRange: Range;
  /** D01/D02 issues inside this probe. */
  readonly decodeIssues: readonly DecodeIssue[];
  /** Location of a field inside the probe (`httpGet.port`), or of the probe itself (``). */
  locate(relative: string): SourceLocation | undefined;
}

export interface ContainerModel {
  readonly kind: ContainerKind;
  readonly index: number;
  /** `spec.containers[0]`, `spec.initContainers[1]`, … */
  readonly path: string;
  readonly name: string;
  readonly range: Range;
  readonly spec: ContainerSpec;
  readonly decodeIssues: readonly DecodeIssue[];
  readonly probes: readonly ProbeModel[];
  readonly pod: PodSpecModel;
  probe(type: ProbeType): ProbeModel | undefined;
  locate(relative: string): SourceLocation | undefined;
}

export type WorkloadKind =
  | 'Pod'
  | 'Deployment'
  | 'ReplicaSet'
  | 'ReplicationController'
  | 'StatefulSet'
  | 'DaemonSet'
  | 'Job'
  | 'CronJob'
  | 'PodTemplate'
  /** Argo Rollouts (`argoproj.io`): a Deployment's pod template, rolled out by its controller. */
  | 'Rollout';

export interface PodSpecModel {
  readonly objectKind: WorkloadKind;
  readonly objectName?: string;
  /** The object's `metadata.namespace`, when written. */
  readonly objectNamespace?: string;
  /**
   * For a workload (not a Pod): the labels its pods carry, from `selector.matchLabels` (or a
   * ReplicationController's `selector`), else from the pod template's labels.
   */
  readonly podSelector?: Readonly<Record<string, string>>;
  /** The labels the object's pods carry (template labels; for a Job, with the ones its controller adds). */
  readonly podLabels?: Readonly<Record<string, string>>;
  /** Path of the pod spec inside its object: `spec`, `spec.template.spec`, … */
  readonly path: string;
  /** True for everything but a Pod: the spec is a template. */
  readonly isTemplate: boolean;
  readonly restartPolicy: string;
  readonly terminationGracePeriodSeconds: number;
  /** The pod shares the node's network namespace: the node's loopback is the pod's. */
  readonly hostNetwork: boolean;
  readonly containers: readonly ContainerModel[];
  readonly ephemeralContainers?: SourceLocation;
  readonly decodeIssues: readonly DecodeIssue[];
  readonly range: Range;
  /** The first `${NAME}` placeholder where a number belongs: the document is an envsubst template. */
  readonly placeholder?: { readonly text: string; readonly range: Range };
}

/** Every decode issue (D01, D02) of a document's pod specs and their containers. */
export function documentDecodeIssues(document: ManifestDocument): DecodeIssue[] {
  return document.podSpecs.flatMap((pod) => [...pod.decodeIssues, ...pod.containers.flatMap((c) => c.decodeIssues)]);
}

/** The Services the documents define, in order. */
export function servicesOf(documents: readonly ManifestDocument[]): ServiceModel[] {
  return documents.flatMap((document) => document.services ?? []);
}

/** A core Service: which pods it sends traffic to, i.e. whose readiness matters (L17). */
export interface ServiceModel {
  readonly name?: string;
  readonly namespace?: string;
  /** `spec.selector`; a Service without one selects nothing by itself. */
  readonly selector: Readonly<Record<string, string>>;
  /** `spec.ports`: where the Service sends traffic in the pods it selects. */
  readonly ports: readonly ServicePort[];
}

export interface ServicePort {
  readonly port?: number;
  /** A number, a container port's name, or absent (then the same as `port`). */
  readonly targetPort?: number | string;
  readonly protocol?: string;
}

/**
 * An object whose pod template has probes that Probe Lens does not check, and why (a Knative
 * Service's probes are run by its queue-proxy, with its own semantics).
 */
export interface UncheckedWorkload {
  readonly kind: string;
  readonly apiVersion: string;
  readonly range: Range;
}

export interface ManifestDocument {
  readonly source: SourceDocument;
  readonly podSpecs: readonly PodSpecModel[];
  /** Core Services defined by the document (a List may hold several). */
  readonly services?: readonly ServiceModel[];
  readonly unchecked?: UncheckedWorkload;
  /** A limit stopped decoding this document part-way (Y02); its findings are incomplete. */
  readonly limitHit?: { readonly range: Range; readonly reason: string };
}

export interface Manifest {
  readonly file: YamlFile;
  readonly documents: readonly ManifestDocument[];
}
