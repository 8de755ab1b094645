import { type KubectlConfig, runKubectl } from './kubectl';
import { classifyKubectlError, type KubectlError, kubectlTimedOut } from './kubectlErrors';
import type { ApiResult, KubeApi } from './kubeApi';

/** A kubeconfig context, as `kubectl config view` names its parts. */
export interface KubeContext {
  readonly name: string;
  readonly namespace?: string;
  readonly cluster?: string;
  readonly user?: string;
}

export interface KubeContexts {
  readonly contexts: readonly KubeContext[];
  /** `current-context`, when set. */
  readonly current?: string;
}

export type ContextsResult = { readonly ok: true; readonly value: KubeContexts } | { readonly ok: false; readonly error: KubectlError };

const CONFIG_VIEW = ['config', 'view', '-o', 'json'];

/**
 * The contexts of kubectl's kubeconfig (KUBECONFIG merged as kubectl merges it), read by
 * kubectl itself: `kubectl config view -o json` (credentials redacted; none are read here).
 */
export async function readContexts(kubectl: KubectlConfig): Promise<ContextsResult> {
  const result = await runKubectl(kubectl, CONFIG_VIEW, { timeoutMs: 10_000, maxOutputBytes: 16 * 1024 * 1024 });
  switch (result.kind) {
    case 'notStarted':
      return { ok: false, error: result.failure };
    case 'timedOut':
      return { ok: false, error: kubectlTimedOut(CONFIG_VIEW.join(' '), 10) };
    case 'aborted':
      return { ok: false, error: { kind: 'unknown', sentence: 'kubectl config view was stopped.', detail: 'stopped' } };
    case 'exited': {
      if (result.exitCode !== 0) return { ok: false, error: classifyKubectlError(result.stderr.toString('utf8') || `exit code ${result.exitCode}`) };
      const contexts = parseContexts(result.stdout.toString('utf8'));
      return contexts ? { ok: true, value: contexts } : { ok: false, error: { kind: 'unknown', sentence: 'kubectl config view -o json did not print a kubeconfig: check that kubectl is kubectl.', detail: 'not a kubeconfig' } };
    }
  }
}

/** The contexts of a kubeconfig as JSON; `undefined` when it is not one. */
export function parseContexts(json: string): KubeContexts | undefined {
  let config: { contexts?: unknown; 'current-context'?: unknown } | null;
  try {
    config = JSON.parse(json) as typeof config;
  } catch {
    return undefined;
  }
  if (config === null || typeof config !== 'object') return undefined;
  const contexts: KubeContext[] = [];
  for (const entry of Array.isArray(config.contexts) ? (config.contexts as unknown[]) : []) {
    const named = entry as { name?: unknown; context?: { namespace?: unknown; cluster?: unknown; user?: unknown } | null } | null;
    if (typeof named?.name !== 'string' || named.name === '') continue;
    const context = named.context ?? {};
    contexts.push({
      name: named.name,
      ...(typeof context.namespace === 'string' && context.namespace ? { namespace: context.namespace } : {}),
      ...(typeof context.cluster === 'string' && context.cluster ? { cluster: context.cluster } : {}),
      ...(typeof context.user === 'string' && context.user ? { user: context.user } : {}),
    });
  }
  const current = config['current-context'];
  return { contexts, ...(typeof current === 'string' && current ? { current } : {}) };
}

/** The API server's version: what the kubelet it runs behaves like (`minor` decides probe behaviour). */
export interface ClusterVersion {
  readonly major: number;
  readonly minor: number;
  readonly gitVersion: string;
}

/** `GET /version`; a managed cluster's `"29+"` is minor 29. */
export async function clusterVersion(api: KubeApi, timeoutMs = 10_000): Promise<ApiResult<ClusterVersion>> {
  const result = await api.getJson<{ major?: unknown; minor?: unknown; gitVersion?: unknown }>('/version', { timeoutMs, maxBytes: 64 * 1024 });
  if (!result.ok) return result;
  const version = readVersion(result.value);
  if (version) return { ok: true, value: version };
  const detail = `GET /version answered ${JSON.stringify(result.value).slice(0, 120)}`;
  return { ok: false, failure: { error: { kind: 'unknown', sentence: "the cluster's answer to GET /version names no Kubernetes version: check that the context points at a Kubernetes API server.", detail }, detail } };
}

export function readVersion(value: { major?: unknown; minor?: unknown; gitVersion?: unknown } | null): ClusterVersion | undefined {
  const major = parseInt(String(value?.major ?? ''), 10);
  const minor = parseInt(String(value?.minor ?? ''), 10);
  if (!Number.isInteger(major) || !Number.isInteger(minor)) {
    // Some distributions leave major/minor empty; gitVersion `v1.29.3-gke.1` still says it.
    const fromGit = /^v?(\d+)\.(\d+)/.exec(String(value?.gitVersion ?? ''));
    if (!fromGit) return undefined;
    return { major: Number(fromGit[1]), minor: Number(fromGit[2]), gitVersion: String(value?.gitVersion) };
  }
  return { major, minor, gitVersion: typeof value?.gitVersion === 'string' ? value.gitVersion : `v${major}.${minor}` };
}
