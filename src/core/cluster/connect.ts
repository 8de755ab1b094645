import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import { KubeApi } from '../kubeclient/kubeApi';
import type { KubectlConfig } from '../kubeclient/kubectl';
import { classifyKubectlError, type KubectlError } from '../kubeclient/kubectlErrors';
import { KubectlProxy, type ProxyFailure, type ProxyState } from '../kubeclient/kubectlProxy';
import { type ClusterVersion, clusterVersion, type ContextsResult, type KubeContexts, readContexts } from '../kubeclient/kubeContexts';

/** What kubectl says with no kubeconfig or no current context: the classifier knows it. */
const NO_CONTEXT = 'The connection to the server localhost:8080 was refused - did you specify the right host or port?';

export interface ConnectOptions {
  readonly kubectl: KubectlConfig;
  /** `--context`, the setting; else the kubeconfig's current context. */
  readonly context?: string;
  /** `--namespace`, the setting; else the context's, else `default`. */
  readonly namespace?: string;
  readonly allowExec: boolean;
  readonly clock: Clock;
  /** The kubeconfig's contexts, when the caller read them already (to offer a choice): not read again. */
  readonly kubeconfig?: KubeContexts;
  /** Each change of the proxy's state, `down` with why. */
  readonly onProxyState?: (state: ProxyState, failure?: ProxyFailure) => void;
}

/** A cluster reached through one `kubectl proxy`: the API, and where it is. */
export interface ClusterConnection extends Disposable {
  readonly api: KubeApi;
  readonly proxy: KubectlProxy;
  readonly context: string;
  readonly namespace: string;
  readonly version: ClusterVersion;
}

/** Why it could not connect: classified, with kubectl's own words for the log. */
export interface ConnectFailure {
  readonly error: KubectlError;
  readonly detail: string;
}

export type Connected = { readonly ok: true; readonly value: ClusterConnection } | { readonly ok: false; readonly failure: ConnectFailure };

/**
 * Reaches a cluster the way the user's kubectl does: the context (named, or the current one) and
 * its namespace from the kubeconfig, then `kubectl proxy` for that context, then the API server's
 * `/version` — the first request that proves the credentials and gives the `User-Agent`'s
 * version. Every failure is one classified sentence; nothing is left running after one.
 */
export async function connectToCluster(options: ConnectOptions): Promise<Connected> {
  const contexts: ContextsResult = options.kubeconfig ? { ok: true, value: options.kubeconfig } : await readContexts(options.kubectl);
  if (!contexts.ok) return fail(contexts.error, contexts.error.detail);
  const context = options.context ?? contexts.value.current;
  // Without a context kubectl would try localhost:8080: say what is missing instead.
  if (context === undefined) return fail(classifyKubectlError(NO_CONTEXT), '');
  const known = contexts.value.contexts.find((c) => c.name === context);
  if (options.context !== undefined && !known) {
    const names = contexts.value.contexts.map((c) => c.name);
    const sentence = `context "${options.context}" is not in your kubeconfig${names.length > 0 ? ` (it has ${names.map((n) => `"${n}"`).join(', ')})` : ''}: pick one of those.`;
    return fail({ kind: 'context-not-found', sentence, detail: `context "${options.context}" not found` }, '');
  }
  const proxy = KubectlProxy.start({ kubectl: options.kubectl, context, allowExec: options.allowExec, clock: options.clock, ...(options.onProxyState ? { onChange: options.onProxyState } : {}) });
  const ready = await proxy.whenReady();
  if (!ready.ok) {
    proxy.dispose();
    return fail(ready.error, ready.stderr);
  }
  const api = await KubeApi.open(proxy.socketPath, options.clock);
  const version = await clusterVersion(api);
  if (!version.ok) {
    api.dispose();
    proxy.dispose();
    return fail(version.failure.error, version.failure.detail);
  }
  const namespace = options.namespace || known?.namespace || 'default';
  return {
    ok: true,
    value: {
      api,
      proxy,
      context,
      namespace,
      version: version.value,
      dispose: () => {
        api.dispose();
        proxy.dispose();
      },
    },
  };
}

function fail(error: KubectlError, detail: string): Connected {
  return { ok: false, failure: { error, detail } };
}
