/**
 * A cluster session inside a real VS Code: the manifest's Deployment is found by its labels and
 * probed through `kubectl port-forward`. There is no cluster here, so `probeLens.kubectlPath`
 * points at test/fixtures/kubectl/kubectl, which does kubectl's work on this machine: it lists
 * the pods of a JSON file and really forwards connections to a server the test starts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LocalStarted } from '../../../src/extension/sessions/launcher';
import { test, waitFor } from '../harness';
import { probingApi, startHealthServer, withSetting } from '../probing';
import { openFixture, probeLensExtension } from '../workbench';

const CLUSTER_POD = {
  kind: 'Pod',
  metadata: { name: 'web-7d9c4-x2x8q', namespace: 'default', uid: 'uid-web', labels: { app: 'web', 'pod-template-hash': '7d9c4' } },
  spec: { containers: [{ name: 'web' }] },
  status: { phase: 'Running', podIP: '10.244.0.7', conditions: [{ type: 'Ready', status: 'True' }] },
};

/** The fake kubectl's configuration is its environment, which the extension host passes on. */
function fakeCluster(serverPort: number): { kubectl: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-cluster-'));
  writeFileSync(join(dir, 'pods.json'), JSON.stringify({ items: [CLUSTER_POD] }));
  const saved = { pods: process.env['FAKE_KUBECTL_PODS'], ports: process.env['FAKE_KUBECTL_PORTS'] };
  process.env['FAKE_KUBECTL_PODS'] = join(dir, 'pods.json');
  process.env['FAKE_KUBECTL_PORTS'] = JSON.stringify({ 8080: serverPort });
  return {
    kubectl: join(probeLensExtension().extensionUri.fsPath, 'test', 'fixtures', 'kubectl', 'kubectl'),
    cleanup: () => {
      for (const [key, value] of [['FAKE_KUBECTL_PODS', saved.pods], ['FAKE_KUBECTL_PORTS', saved.ports]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('a cluster session finds the Deployment\'s pod by its labels and probes it through port-forward', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const cluster = fakeCluster(server.port);
  const restore = await withSetting('kubectlPath', cluster.kubectl, vscode.ConfigurationTarget.Global);
  try {
    const document = await openFixture('cluster/web.yaml');
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbingCluster', { uri: document.uri });
    assert.ok(started, 'startProbingCluster returned the session');
    const { session } = started;
    assert.equal(session.kind, 'cluster');
    assert.equal(session.options.detail, 'default/web-7d9c4-x2x8q');
    await waitFor(() => probing.sessions.container(document.uri, 'web', 'web')?.ready, 15_000, 'the container to be ready through the tunnel');
    assert.ok(server.requests > 0, 'the probes reached the server through the forwarded port');

    server.status = 503;
    await waitFor(
      () => probing.liveDiagnostics.diagnostics(document.uri).some((d) => d.message === 'Readiness probe failed: HTTP probe failed with statuscode: 503'),
      15_000,
      'the live diagnostic of the failing readiness probe',
    );
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
    assert.ok(session.isStopped);
    await waitFor(() => server.open() === 0, 5_000, 'no connection left open after stop');
  } finally {
    await restore();
    cluster.cleanup();
    await server.close();
  }
}, { timeoutMs: 60_000 });

test('with no pod of the manifest in the cluster, starting says so and nothing runs', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const cluster = fakeCluster(server.port);
  writeFileSync(process.env['FAKE_KUBECTL_PODS'] as string, JSON.stringify({ items: [] }));
  const restore = await withSetting('kubectlPath', cluster.kubectl, vscode.ConfigurationTarget.Global);
  try {
    const document = await openFixture('cluster/web.yaml');
    const outcome = await probing.launcher.startCluster({ uri: document.uri, trusted: true });
    assert.ok(!outcome.ok);
    assert.equal(outcome.reason, 'no pod of Deployment "web" with labels app=web in kubectl\'s current namespace: apply the manifest to the cluster first, or probe your app on this machine with Start Probing');
    assert.equal(probing.sessions.forDocument(document.uri), undefined);
    assert.equal(server.requests, 0);
  } finally {
    await restore();
    cluster.cleanup();
    await server.close();
  }
}, { timeoutMs: 30_000 });
