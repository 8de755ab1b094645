import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readClusterPod } from '../../../src/core/cluster/clusterPod';
import { RealClock } from '../../../src/core/base/clock';
import type { AttemptRequest } from '../../../src/core/engine/target';
import { parseManifest } from '../../../src/core/manifest';
import type { ProbeOutcome } from '../../../src/core/probers/types';
import { ClusterTarget } from '../../../src/core/cluster/clusterTarget';
import { type Cluster, connect, startCluster } from '../kubeclient/clusterHarness';

// An HTTP probe of a port nothing listens on, through the real kubectl proxy to a server that
// closes as the kubelet does. The prober's request, written as the stream opens, meets the closed
// connection; the reset makes kubectl proxy drop the refusal it had not read yet (18 of 400 such
// streams, measured), and the stream reads as cut. Opened again and sent when no refusal came in
// time, every attempt is the kubelet's own verdict: a failure, `connection refused`.

let cluster: Cluster;
before(async () => {
  cluster = await startCluster('1.32');
  cluster.server.addPod({ name: 'web-1', namespace: 'shop', podIP: '10.244.1.5', containers: [{ name: 'web', ports: { 8080: 1 } }] });
});
after(() => cluster.dispose());

test('a refused port through port-forward: 300 HTTP attempts on a refused port are 300 failures, connection refused — none a prober error', { timeout: 60_000 }, async () => {
  const { api } = await connect(cluster);
  try {
    const listed = await api.getJson('/api/v1/namespaces/shop/pods/web-1', { timeoutMs: 10_000 });
    const pod = listed.ok ? readClusterPod(listed.value) : undefined;
    assert.ok(pod);
    const target = new ClusterTarget({ api, podOf: () => pod, allowExec: false, minorVersion: 32, clock: new RealClock() });
    const manifest = parseManifest('apiVersion: v1\nkind: Pod\nmetadata: {name: web-1, namespace: shop}\nspec:\n  containers:\n    - name: web\n      image: web\n      readinessProbe: {httpGet: {path: /ready, port: 9090}, timeoutSeconds: 5}\n');
    const container = manifest.documents[0]?.podSpecs[0]?.containers[0];
    const probe = container?.probe('readiness');
    assert.ok(container && probe);
    const request: AttemptRequest = { pod: { name: 'web-1', namespace: 'shop', uid: 'web-1' }, podSpec: container.pod, container, type: 'readiness', probe: probe.effective, containerId: 'containerd://web', startedAt: 0, instance: 0 };
    const seen = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const outcome = await new Promise<ProbeOutcome>((resolve) => target.attempt(request, resolve));
      const key = `${outcome.result}: ${outcome.error ?? outcome.output}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    target.dispose();
    assert.deepEqual([...seen], [['failure: Get "http://10.244.1.5:9090/ready": dial tcp 10.244.1.5:9090: connect: connection refused', 300]]);
  } finally {
    api.dispose();
  }
});
