/**
 * *Start Probing in the Cluster* inside a real VS Code, through the real kubectl against the test
 * API server (test/fixtures/apiserver), the probes landing on a real server on 127.0.0.1: the
 * context picked from the kubeconfig, where it probes shown in the Probes view and the status
 * bar, and the cluster's kubelet disagreeing with our probes shown — with its explanation — in
 * the view, the lens and the Problems.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LocalStarted } from '../../../src/extension/sessions/launcher';
import { type ApiServer, requireKubectl, startApiServer } from '../../fixtures/apiserver';
import { kubectlProcesses, kubectlProcessesAfter } from '../../helpers/kubectlProcesses';
import { test, waitFor } from '../harness';
import { answerQuickPick, clearWorkbench } from '../notifications';
import { type HealthServer, probingApi, startHealthServer, withSetting } from '../probing';
import { openFixture } from '../workbench';

const POD = { name: 'web-5d4f8b7c9-x2k4q', namespace: 'shop' };
/** What the cluster's kubelet says when the app listens on 127.0.0.1 only: the pod IP refuses it. */
const REFUSED = 'Readiness probe failed: Get "http://10.244.1.5:8080/healthz": dial tcp 10.244.1.5:8080: connect: connection refused';

test('Start Probing in the Cluster: the context picked from the kubeconfig; the kubelet disagreeing with our probes is shown with its explanation', async () => {
  requireKubectl();
  const probing = await probingApi();
  const app = await startHealthServer();
  const server: ApiServer = await startApiServer();
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-cluster-mode-'));
  const saved = process.env['KUBECONFIG'];
  const pick = answerQuickPick((items) => items.find((item) => item.label.includes('kind-dev')));
  try {
    const kubeconfig = server.writeKubeconfig(dir, { contexts: [{ name: 'staging', namespace: 'default' }, { name: 'kind-dev', namespace: 'shop' }] });
    process.env['KUBECONFIG'] = kubeconfig;
    // The app answers through port-forward (the pod's loopback) while the kubelet, dialling the pod IP, is refused.
    server.addPod({ ...POD, labels: { app: 'web' }, podIP: '10.244.1.5', containers: [{ name: 'web', ports: { 8080: app.port } }] });
    server.setReady(POD, 'web', false);
    server.addEvent(POD, { reason: 'Unhealthy', message: REFUSED, container: 'web' });
    await clearWorkbench();
    const document = await openFixture('cluster/web.yaml');

    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbingCluster', { uri: document.uri });
    assert.ok(started, 'the session started');
    const offered = pick.offered[0] ?? [];
    assert.deepEqual(
      offered.map((item) => [item.label, item.description, item.detail]),
      [
        ['$(cloud) staging', 'current context', 'cluster probe-lens-test · namespace default · user staging-user'],
        ['$(cloud) kind-dev', '', 'cluster probe-lens-test · namespace shop · user kind-dev-user'],
      ],
      'the current context first, each with its cluster, namespace and user',
    );
    const session = probing.sessions.forDocument(document.uri);
    assert.ok(session);
    const sessionRow = probing.tree.present(probing.tree.find(session)!);
    assert.match(sessionRow.tooltip.markdown, /through the API server \(kubectl proxy\) · kind\\-dev · shop/);
    assert.match(sessionRow.description, / · kind-dev · shop$/, 'the session row names where it probes');
    await waitFor(() => probing.statusBar.text?.endsWith('$(cloud) kind-dev · shop'), 10_000, 'the status bar naming the context and namespace');

    // Ours: Ready through the tunnel; the kubelet's: not Ready. After the comparer's 20 s, the disagreement.
    const container = () => probing.tree.present(probing.tree.find(session, 'web', 'web')!);
    await waitFor(() => container().description.startsWith('ready · restarts 0 · kubelet: not ready'), 15_000, 'ours ready beside the kubelet\'s not ready');
    const disagreement = await waitFor(
      () => probing.liveDiagnostics.diagnostics(document.uri).find((d) => d.message.startsWith("web likely listens on 127.0.0.1 only: the kubelet's readiness probe is refused, ours passes\n")),
      35_000,
      'the disagreement in the Problems',
    );
    assert.equal(disagreement.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(disagreement.message, /The kubelet says web is not Ready \(its probe of the pod IP is refused\) while ours pass through port-forward, which containerd 1\.7\.27 connects to 127\.0\.0\.1 inside the pod: the app likely listens on 127\.0\.0\.1 only\./);
    assert.equal(document.getText(disagreement.range), 'readinessProbe', 'on the readiness probe\'s key');
    const theirs = probing.liveDiagnostics.diagnostics(document.uri).find((d) => d.message.startsWith("The cluster's kubelet: Readiness probe failed:"));
    assert.ok(theirs, 'the cluster\'s own failure beside ours');
    assert.equal(theirs.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(theirs.message, `The cluster's kubelet: ${REFUSED}`);

    await waitFor(() => probing.statusBar.text?.startsWith('$(warning) web: kubelet says not ready, ours ready'), 5_000, 'the status bar leading with the disagreement');
    const row = container();
    assert.equal(row.icon.id, 'warning');
    assert.equal(row.description, 'ready · restarts 0 · kubelet: not ready (disagrees)');
    const lenses = await waitFor(async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri, 100);
      const titles = found.map((lens) => lens.command?.title ?? '');
      return titles.some((title) => title.includes('$(warning) kubelet: not ready')) && titles;
    }, 10_000, 'the container lens flagging the disagreement');
    assert.ok(lenses.includes('started · ready · restarts 0 · $(warning) kubelet: not ready'), lenses.join('\n'));
    const pod = probing.tree.present(probing.tree.find(session, 'web')!);
    assert.equal(pod.description, 'Ready · kubelet: NotReady');
    assert.match(pod.tooltip.markdown.replace(/\\(.)/g, '$1'), /Probed through pod web-5d4f8b7c9-x2k4q \(10\.244\.1\.5\) in namespace shop\./);

    assert.ok(kubectlProcesses(kubeconfig).length > 0, 'the kubectl proxy is seen while the session runs (so the check below can fail)');
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
    assert.deepEqual(await kubectlProcessesAfter(kubeconfig, 2_000), [], 'no kubectl left once stopped');
  } finally {
    pick.restore();
    await vscode.commands.executeCommand('probeLens.stopProbing', {});
    if (saved === undefined) delete process.env['KUBECONFIG'];
    else process.env['KUBECONFIG'] = saved;
    await server.dispose();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, { timeoutMs: 70_000 });

test('probeLens.cluster.allPods: each pod of the Deployment a row of its own under the manifest pod, each probed on its own port', async () => {
  requireKubectl();
  const probing = await probingApi();
  const apps = [await startHealthServer(), await startHealthServer()];
  const server: ApiServer = await startApiServer();
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-cluster-all-'));
  const saved = process.env['KUBECONFIG'];
  const restore = await withSetting('cluster.allPods', true, vscode.ConfigurationTarget.Global);
  try {
    process.env['KUBECONFIG'] = server.writeKubeconfig(dir);
    const names = ['web-5d4f8b7c9-aaaaa', 'web-5d4f8b7c9-bbbbb'];
    names.forEach((name, i) => server.addPod({ name, namespace: 'default', labels: { app: 'web' }, containers: [{ name: 'web', ports: { 8080: (apps[i] as HealthServer).port } }] }));
    await clearWorkbench();
    const document = await openFixture('cluster/web.yaml');
    assert.ok(await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbingCluster', { uri: document.uri }));
    const session = probing.sessions.forDocument(document.uri);
    assert.ok(session);
    const manifestPod = probing.tree.find(session, 'web');
    assert.ok(manifestPod);
    const rows = await waitFor(() => {
      const children = probing.tree.getChildren(manifestPod);
      return children.length === 2 && children.every((c) => probing.tree.present(c).description.startsWith('Ready')) && children;
    }, 15_000, 'a Ready row per cluster pod under the manifest pod');
    assert.deepEqual(rows.map((row) => row.kind === 'pod' && row.pod), names);
    assert.equal(probing.tree.present(manifestPod).description, '2 pods · 2 Ready');
    for (const row of rows) {
      const [container] = probing.tree.getChildren(row);
      assert.ok(container && container.kind === 'container');
      const [probe] = probing.tree.getChildren(container);
      assert.ok(probe && probe.kind === 'probe');
      assert.equal(probing.tree.getParent(probe), container, 'each row finds its parent (reveal walks up)');
      assert.equal(probing.tree.getParent(container), row);
      assert.equal(probing.tree.getParent(row), manifestPod);
    }
    assert.ok(apps.every((app) => app.requests > 0), 'each pod probed on its own port');
  } finally {
    for (const session of probing.sessions.all) session.dispose();
    await restore();
    if (saved === undefined) delete process.env['KUBECONFIG'];
    else process.env['KUBECONFIG'] = saved;
    await server.dispose();
    await Promise.all(apps.map((app) => app.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}, { timeoutMs: 40_000 });
