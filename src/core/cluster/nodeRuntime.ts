import type { KubeApi } from '../kubeclient/kubeApi';

/**
 * What a pod's container runtime is, as far as the cluster says: it decides what a port-forward
 * reaches. Every runtime in release today dials `localhost:PORT` inside the pod's network
 * namespace (containerd 1.7–2.3 `sandbox_portforward_linux.go`, CRI-O `runtime_oci.go`
 * `PortForwardContainer`); the kubelet's probes dial the pod IP. A newer containerd (pull request
 * #14074) falls back to the pod IPs when localhost refuses, and dials only them for VM-isolated
 * runtimes (Kata); its error text then names the pod IP it dialled.
 */
export interface RuntimeFacts {
  /** `containerd`, `cri-o`, `docker`: the scheme of the containers' IDs. */
  readonly name: string | undefined;
  /** `2.0.5`: the node's `status.nodeInfo.containerRuntimeVersion`, when the user may read the node. */
  readonly version: string | undefined;
  /** `spec.runtimeClassName`: a runtime other than the node's default (Kata, gVisor …). */
  readonly runtimeClass: string | undefined;
}

export const UNKNOWN_RUNTIME: RuntimeFacts = { name: undefined, version: undefined, runtimeClass: undefined };

/** `containerd://2.0.5` → `{name: 'containerd', version: '2.0.5'}`. */
export function readRuntimeVersion(text: string): { readonly name: string; readonly version: string } | undefined {
  const match = /^([a-z0-9.-]+):\/\/v?(\S+)$/.exec(text.trim());
  return match ? { name: match[1] as string, version: match[2] as string } : undefined;
}

/**
 * The node's runtime and its version (`GET /api/v1/nodes/NAME`); `undefined` when the node cannot
 * be read — most users may not get nodes, a cluster-scoped resource — or does not say.
 */
export async function nodeRuntimeVersion(api: KubeApi, nodeName: string): Promise<{ readonly name: string; readonly version: string } | undefined> {
  const node = await api.getJson<{ status?: { nodeInfo?: { containerRuntimeVersion?: unknown } } }>(`/api/v1/nodes/${encodeURIComponent(nodeName)}`, { timeoutMs: 5_000, maxBytes: 1024 * 1024 });
  if (!node.ok) return undefined;
  const version = node.value?.status?.nodeInfo?.containerRuntimeVersion;
  return typeof version === 'string' ? readRuntimeVersion(version) : undefined;
}

/** `containerd 2.0.5`, `CRI-O 1.31.1`, `the node's runtime (containerd)`, `the node's container runtime`. */
export function runtimeWords(facts: RuntimeFacts): string {
  const name = facts.name === 'cri-o' ? 'CRI-O' : facts.name;
  if (name && facts.version) return `${name} ${facts.version}`;
  if (name) return `the node's runtime (${name})`;
  return "the node's container runtime";
}

/** An address in a Go dial error (`dial tcp4 127.0.0.1:8080`, `dial tcp [::1]:8080`, `dial tcp 10.244.1.5:8080`). */
const DIALLED = /dial tcp[46]? (\[[0-9a-fA-F:.]+\]|[0-9.]+):\d+/g;

function isLoopback(address: string): boolean {
  return address === '[::1]' || address.startsWith('127.');
}

/** What a runtime's refusal says it dialled: the pod's loopback, and any other address (the pod IP). */
export function dialledAddresses(text: string): { readonly loopback: boolean; readonly other: boolean } {
  let loopback = /localhost:\d+/.test(text);
  let other = false;
  for (const match of text.matchAll(DIALLED)) {
    if (isLoopback(match[1] as string)) loopback = true;
    else other = true;
  }
  return { loopback, other };
}

/** The dials a runtime's refusal names, as it words them (`dial tcp 10.244.1.5:8080: connect: connection refused`), without the wrapping. */
export function dialWords(text: string): string {
  const dials = [...text.matchAll(/dial tcp[46]? (?:\[[0-9a-fA-F:.]+\]|[0-9.]+):\d+: [^:]+: [^:]*?(?= IPv6 |$| dial tcp|;)/g)].map((match) => match[0].trim());
  return dials.length > 0 ? dials.join('; ') : text;
}
