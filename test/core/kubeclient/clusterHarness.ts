/**
 * The test API server with Probe Lens's own kubectl proxy in front of it, through the real
 * kubectl (its dispatcher runs kubectl.1.29 for a 1.29 server, kubectl.1.32 for 1.32), and a
 * KubeApi on the proxy's socket: what a cluster session runs on.
 */
import { RealClock } from '../../../src/core/base/clock';
import type { KubectlConfig } from '../../../src/core/kubeclient/kubectl';
import { KubectlProxy, type KubectlProxyOptions } from '../../../src/core/kubeclient/kubectlProxy';
import { KubeApi } from '../../../src/core/kubeclient/kubeApi';
import { type ApiServer, type ApiServerOptions, KUBECTL, type KubeconfigOptions, requireKubectl, startApiServer } from '../../fixtures/apiserver';
import { until as untilWithin } from '../../fixtures/apiserver/testClients';
import { scratchDir } from '../../helpers/scratch';

/** The server versions every integration test runs against (each a different kubectl). */
export const SERVER_VERSIONS = ['1.32', '1.29'] as const;

export interface Cluster {
  readonly server: ApiServer;
  readonly kubeconfig: string;
  readonly kubectl: KubectlConfig;
  /** Starts a proxy for this cluster (exec allowed unless said otherwise); `whenReady` not awaited. */
  proxy(options?: Partial<KubectlProxyOptions>): KubectlProxy;
  dispose(): Promise<void>;
}

export async function startCluster(version: string, options: { kubeconfig?: KubeconfigOptions; server?: ApiServerOptions } = {}): Promise<Cluster> {
  requireKubectl();
  const dir = scratchDir('probe-lens-k8s-');
  const server = await startApiServer({ ...options.server, version });
  const kubeconfig = server.writeKubeconfig(dir, options.kubeconfig);
  // HOME too: the dispatcher and kubectl keep their caches there, not in the user's.
  const kubectl: KubectlConfig = { path: KUBECTL, env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } };
  const proxies: KubectlProxy[] = [];
  return {
    server,
    kubeconfig,
    kubectl,
    proxy: (overrides = {}) => {
      const proxy = KubectlProxy.start({ kubectl, allowExec: true, clock: new RealClock(), ...overrides });
      proxies.push(proxy);
      return proxy;
    },
    dispose: async () => {
      for (const proxy of proxies) proxy.dispose();
      await server.dispose();
    },
  };
}

/** A proxy that serves, and a KubeApi on its socket. */
export async function connect(cluster: Cluster, options: Partial<KubectlProxyOptions> = {}): Promise<{ proxy: KubectlProxy; api: KubeApi }> {
  const proxy = cluster.proxy(options);
  const ready = await proxy.whenReady();
  if (!ready.ok) throw new Error(`kubectl proxy did not serve: ${ready.error.sentence}\n${ready.stderr}`);
  return { proxy, api: await KubeApi.open(proxy.socketPath, new RealClock()) };
}

/** Polls `condition` until it holds; fails naming `what` after `ms`. */
export function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  return untilWithin(condition, what, ms);
}

/** Whether a process is alive (signal 0 checks without sending). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
