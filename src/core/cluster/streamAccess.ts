import type { ApiFailure, KubeApi } from '../kubeclient/kubeApi';

/**
 * Why the cluster refused a port-forward or exec stream, said exactly. RBAC authorises a request
 * by the verb of its method: a WebSocket upgrade is a GET, so `get` on pods/portforward or
 * pods/exec; from 1.35 the connect handler asks for `create` as well (the beta gate
 * AuthorizePodWebsocketUpgradeCreatePermission, kubernetes#134577, KEP-4006). kubectl tries a
 * WebSocket first and falls back to SPDY — a POST, `create` — on any refused upgrade, so a role
 * with `create` alone lets kubectl port-forward and exec while it refuses Probe Lens.
 */

export type StreamResource = 'pods/portforward' | 'pods/exec';

/** A stream the cluster refused with 403, and where. */
export interface StreamRefusal {
  readonly resource: StreamResource;
  readonly namespace: string;
  readonly pod: string;
  readonly failure: ApiFailure;
}

/** What RBAC's message names: `pods "web-1" is forbidden: User "jane" cannot get resource "pods/portforward" in API group "" in the namespace "shop"`. */
export interface RbacDenial {
  readonly user: string;
  readonly verb: string;
  readonly resource: string;
  readonly namespace: string | undefined;
}

export function readRbacDenial(message: string): RbacDenial | undefined {
  const match = /User "([^"]*)" cannot (\w+) resource "([^"]+)"(?: in API group "[^"]*")?(?: in the namespace "([^"]+)")?/.exec(message);
  if (!match) return undefined;
  return { user: match[1] as string, verb: match[2] as string, resource: match[3] as string, namespace: match[4] };
}

/** The subset of `SelfSubjectAccessReview.spec.resourceAttributes` a stream needs. */
export interface AccessQuestion {
  readonly verb: string;
  readonly resource: StreamResource;
  readonly namespace: string;
  readonly pod: string;
}

const REVIEW_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const REVIEW_TIMEOUT_MS = 5_000;

/**
 * Whether the user may `verb` the resource, as the API server's authorizer answers a
 * SelfSubjectAccessReview (which every authenticated user may create: system:basic-user). It asks
 * and changes nothing. `undefined` when it could not be asked.
 */
export async function mayI(api: KubeApi, question: AccessQuestion): Promise<boolean | undefined> {
  const [resource, subresource] = question.resource.split('/') as [string, string];
  const review = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { namespace: question.namespace, verb: question.verb, resource, subresource, name: question.pod } },
  };
  const answer = await api.postJson<{ status?: { allowed?: unknown } }>(REVIEW_PATH, review, { timeoutMs: REVIEW_TIMEOUT_MS, maxBytes: 64 * 1024 });
  if (!answer.ok) return undefined;
  const allowed = answer.value?.status?.allowed;
  return typeof allowed === 'boolean' ? allowed : undefined;
}

/** `port-forward`, `exec`: what kubectl calls the stream. */
function streamName(resource: StreamResource): string {
  return resource === 'pods/portforward' ? 'port-forward' : 'exec';
}

/** The verbs a WebSocket stream needs on a server of `minor`. */
function webSocketVerbs(minor: number): string {
  return minor >= 35 ? '"get" and "create"' : '"get"';
}

/**
 * The refusal as one sentence: which verb is missing, why Probe Lens needs it where kubectl may
 * not, and what to ask for. A SelfSubjectAccessReview of the other verb settles whether kubectl
 * would work; without one the sentence says "may".
 */
export async function streamRefusalSentence(api: KubeApi, refusal: StreamRefusal, minorVersion: number): Promise<string> {
  const denial = readRbacDenial(refusal.failure.detail);
  if (!denial) return refusal.failure.error.sentence;
  const { resource } = refusal;
  const stream = streamName(resource);
  const who = `user "${denial.user}"`;
  const where = ` in namespace "${denial.namespace ?? refusal.namespace}"`;
  if (denial.verb === 'create') {
    // 1.35+: `get` passed, the connect handler's own check of `create` did not.
    return `${who} may get ${resource}${where} but not create it: from Kubernetes 1.35 the API server also asks for "create" on a WebSocket ${stream} (AuthorizePodWebsocketUpgradeCreatePermission), as kubectl ${stream} always did: ask your cluster admin to add the "create" verb on ${resource} to your role.`;
  }
  if (denial.verb !== 'get') return refusal.failure.error.sentence;
  const mayCreate = await mayI(api, { verb: 'create', resource, namespace: refusal.namespace, pod: refusal.pod });
  const needs = `Probe Lens opens a WebSocket, a GET, which the API server authorises as ${webSocketVerbs(minorVersion)} on ${resource}`;
  if (mayCreate === true) {
    return `${who} may create ${resource}${where} but not get it: kubectl ${stream} works (it falls back to SPDY, a POST, which needs only "create"), but ${needs}: ask your cluster admin to add the "get" verb on ${resource} to your role.`;
  }
  if (mayCreate === false) {
    return `${who} may neither get nor create ${resource}${where}, so neither Probe Lens nor kubectl can ${stream}: ${needs} (kubectl's SPDY needs "create"): ask your cluster admin for both verbs on ${resource}, or use a context whose user has them.`;
  }
  return `${who} may not get ${resource}${where}: ${needs}; kubectl ${stream} may still work (its SPDY fallback needs "create" only): ask your cluster admin to add the "get" verb on ${resource} to your role.`;
}
