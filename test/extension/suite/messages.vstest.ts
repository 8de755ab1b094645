/**
 * Every message Probe Lens shows about starting and running probes, inside a real VS Code: the
 * exact sentence, its buttons, and that each button does what it says (notifications are seen
 * and answered through ../notifications.ts; before a button is clicked, neither the Settings
 * editor nor the output is showing, so what shows after is its doing). The cluster is the
 * test API server (test/fixtures/apiserver), reached through the real kubectl.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LocalStarted, ProbeOnceResult } from '../../../src/extension/sessions/launcher';
import { sleep, test, waitFor } from '../harness';
import { answerInputBox, answerQuickPick, captureMessages, clearWorkbench, closeAllEditors, openMachineSettingCall, outputShows, recordCommands, settingsEditorActive } from '../notifications';
import { probingApi, startHealthServer, withSetting } from '../probing';
import { fixtureUri, openFixture } from '../workbench';
import { type ApiServer, requireKubectl, startApiServer } from '../../fixtures/apiserver';
import { freePort } from '../../helpers/httpServers';

/**
 * A cluster for one test: the test API server, a kubeconfig for it in KUBECONFIG (the extension
 * host's environment, which kubectl inherits) and the real kubectl on PATH.
 */
async function withCluster(setup: (server: ApiServer, dir: string) => string | Promise<string>, body: (server: ApiServer) => Promise<void>): Promise<void> {
  requireKubectl();
  const server = await startApiServer();
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-kubeconfig-'));
  const saved = process.env['KUBECONFIG'];
  try {
    process.env['KUBECONFIG'] = await setup(server, dir);
    await body(server);
  } finally {
    if (saved === undefined) delete process.env['KUBECONFIG'];
    else process.env['KUBECONFIG'] = saved;
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

const CLUSTER_POD = { name: 'web-7d9c4-x2x8q', namespace: 'default', labels: { app: 'web' } };

test('kubectl not found: one sentence naming the setting, and Open Settings opens it', async () => {
  const probing = await probingApi();
  const capture = captureMessages((s) => (s.buttons.includes('Open Settings') ? 'Open Settings' : undefined));
  const opened = recordCommands();
  const restore = await withSetting('kubectlPath', '/nonexistent/kubectl', vscode.ConfigurationTarget.Global);
  try {
    await clearWorkbench();
    const document = await openFixture('cluster/web.yaml');
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbingCluster', { uri: document.uri });
    assert.equal(started, undefined);
    const shown = await capture.next(/kubectl was not found/);
    assert.deepEqual(shown, {
      severity: 'error',
      message: 'Probe Lens: kubectl was not found at /nonexistent/kubectl: install kubectl, or set the probeLens.kubectlPath setting to its full path.',
      buttons: ['Open Settings'],
    });
    assert.doesNotMatch(shown.message, /--kubectl/, 'no CLI flag in the extension');
    await waitFor(settingsEditorActive, 5_000, 'the Settings editor');
    assert.deepEqual(opened.calls.filter((c) => /Settings/.test(c.command)), [openMachineSettingCall('probeLens.kubectlPath')], 'at the setting, on the tab that lists it');
    assert.equal(probing.sessions.forDocument(document.uri), undefined);
  } finally {
    opened.restore();
    capture.restore();
    await restore();
    await closeAllEditors();
  }
}, { timeoutMs: 30_000 });

const CLUSTER_FAILURES: readonly (readonly [string, (server: ApiServer, dir: string) => string | Promise<string>, RegExp, RegExp])[] = [
  [
    'the cluster is down',
    async (server, dir) => {
      const kubeconfig = server.writeKubeconfig(dir);
      await server.dispose();
      return kubeconfig;
    },
    /^Probe Lens: kubectl cannot reach the cluster at 127\.0\.0\.1:\d+ \(connection refused\): check that the cluster is running and that kubectl's current context is the right one\.$/,
    /connect: connection refused/,
  ],
  [
    'there is no kubeconfig',
    (_server, dir) => join(dir, 'none'),
    /^Probe Lens: kubectl has no current context \(no kubeconfig, or none chosen in it\): choose one with kubectl config use-context NAME, or set KUBECONFIG\.$/,
    /kubectl proxy/,
  ],
  [
    'the credentials are refused',
    (server, dir) => server.writeKubeconfig(dir, { contexts: [{ name: 'test', token: 'expired-token' }] }),
    /^Probe Lens: the cluster did not accept kubectl's credentials \(Unauthorized\): log in again, or refresh the credentials in your kubeconfig\.$/,
    /Unauthorized/,
  ],
  [
    'RBAC forbids listing pods',
    (server, dir) => {
      server.forbid('pods', { verbs: ['list', 'watch'] });
      return server.writeKubeconfig(dir);
    },
    /^Probe Lens: user "dev" may not list pods in namespace "default": ask your cluster admin for that permission, or use a context whose user has it\.$/,
    /pods is forbidden: User "dev" cannot list resource "pods"/,
  ],
];

for (const [what, setup, sentence, logged] of CLUSTER_FAILURES) {
  test(`kubectl fails because ${what}: one sentence, and Show Output shows what the cluster said`, async () => {
    const probing = await probingApi();
    await withCluster(setup, async () => {
      const capture = captureMessages((s) => (s.buttons.includes('Show Output') ? 'Show Output' : undefined));
      try {
        await clearWorkbench();
        const document = await openFixture('cluster/web.yaml');
        assert.equal(await vscode.commands.executeCommand('probeLens.startProbingCluster', { uri: document.uri }), undefined);
        const shown = await capture.next(/^Probe Lens: /);
        assert.equal(shown.severity, 'error');
        assert.match(shown.message, sentence);
        assert.deepEqual(shown.buttons, ['Show Output']);
        await waitFor(() => outputShows(logged), 10_000, 'the output channel with what the cluster said');
        assert.equal(probing.sessions.forDocument(document.uri), undefined);
      } finally {
        capture.restore();
        await vscode.commands.executeCommand('workbench.action.closePanel');
      }
    });
  }, { timeoutMs: 40_000 });
}

test('no pod of the manifest in the cluster: says where it looked and what to do', async () => {
  await withCluster(
    (server, dir) => server.writeKubeconfig(dir),
    async () => {
      const capture = captureMessages();
      try {
        const document = await openFixture('cluster/web.yaml');
        assert.equal(await vscode.commands.executeCommand('probeLens.startProbingCluster', { uri: document.uri }), undefined);
        assert.deepEqual(await capture.next(/no pod of/), {
          severity: 'error',
          message: 'Probe Lens: no pod of Deployment "web" with labels app=web in namespace "default": apply the manifest to the cluster first, or probe your app on this machine with Start Probing.',
          buttons: [],
        });
      } finally {
        capture.restore();
      }
    },
  );
}, { timeoutMs: 40_000 });

test('port-forward refused by RBAC: the session stops and says once which verb is missing, that kubectl would work, and why its row has stopped', async () => {
  const probing = await probingApi();
  await withCluster(
    (server, dir) => {
      server.addPod({ ...CLUSTER_POD, containers: [{ name: 'web', ports: { 8080: 1 } }] });
      // Enough for kubectl (its SPDY needs "create"), not for a WebSocket (a GET: "get").
      server.forbid('pods/portforward', { verbs: ['get'] });
      return server.writeKubeconfig(dir);
    },
    async () => {
      const capture = captureMessages((s) => (s.buttons.includes('Show Output') ? 'Show Output' : undefined));
      try {
        await clearWorkbench();
        const document = await openFixture('cluster/web.yaml');
        const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbingCluster', { uri: document.uri });
        assert.ok(started, 'the session starts, then meets the refusal');
        const shown = await capture.next(/web-7d9c4-x2x8q/);
        assert.deepEqual(shown, {
          severity: 'error',
          message:
            'Probe Lens: the cluster refused a port-forward to pod web-7d9c4-x2x8q, so probing stopped: user "dev" may create pods/portforward in namespace "default" but not get it: kubectl port-forward works (it falls back to SPDY, a POST, which needs only "create"), but Probe Lens opens a WebSocket, a GET, which the API server authorises as "get" on pods/portforward: ask your cluster admin to add the "get" verb on pods/portforward to your role.',
          buttons: ['Show Output'],
        });
        await waitFor(() => outputShows('so probing stopped'), 5_000, 'Show Output shows the log, which says why');
        assert.equal(started.session.isStopped, true, 'the session has stopped');
        const row = probing.tree.present(probing.tree.find(started.session)!);
        assert.match(row.description, /^stopped \d\d:\d\d(:\d\d)?: the cluster refused a port-forward to pod web-7d9c4-x2x8q · /);
        assert.equal(row.icon.id, 'error');
        assert.match(row.tooltip.markdown, /Stopped: the cluster refused a port\\-forward/);
        await sleep(3_000); // a period each: no attempt meets it again
        assert.equal(capture.shown.filter((s) => /web-7d9c4-x2x8q/.test(s.message)).length, 1, 'said once');
      } finally {
        capture.restore();
        probing.sessions.stopAll();
        await vscode.commands.executeCommand('workbench.action.closePanel');
      }
    },
  );
}, { timeoutMs: 40_000 });

test('events RBAC forbids: one warning saying what will not show, and the session goes on', async () => {
  const probing = await probingApi();
  const app = await startHealthServer();
  await withCluster(
    (server, dir) => {
      server.addPod({ ...CLUSTER_POD, containers: [{ name: 'web', ports: { 8080: app.port } }] });
      server.forbid('events');
      return server.writeKubeconfig(dir);
    },
    async () => {
      const capture = captureMessages();
      try {
        await clearWorkbench();
        const document = await openFixture('cluster/web.yaml');
        const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbingCluster', { uri: document.uri });
        assert.ok(started);
        const shown = await capture.next(/events/);
        assert.equal(shown.severity, 'warning');
        assert.equal(shown.message, `Probe Lens: the cluster's events in namespace "default" cannot be watched, so its kubelet's own events (Unhealthy, Killing, BackOff) will not show beside ours; its verdicts (started, ready, restarts) still do: user "dev" may not list events in namespace "default": ask your cluster admin for that permission, or use a context whose user has it.`);
        await sleep(2_000);
        assert.equal(started.session.isStopped, false, 'probing goes on');
        assert.equal(capture.shown.filter((s) => /events/.test(s.message)).length, 1, 'said once');
      } finally {
        capture.restore();
        probing.sessions.stopAll();
        await app.close();
      }
    },
  );
}, { timeoutMs: 40_000 });

/** A manifest in the workspace whose container port nothing listens on (a free port, found now). */
async function manifestOnFreePort(): Promise<{ uri: vscode.Uri; port: number }> {
  const port = await freePort();
  const uri = fixtureUri(`hint/app-${port}.yaml`);
  const yaml = `apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  containers:
    - name: app
      image: app
      ports:
        - containerPort: ${port}
      readinessProbe:
        httpGet:
          path: /healthz
          port: ${port}
        periodSeconds: 1
`;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(yaml));
  return { uri, port };
}

test('nothing listens on a container port: asked once, and Map Port… maps it; the session then probes the new port', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const { uri, port } = await manifestOnFreePort();
  const capture = captureMessages((s) => (s.buttons.includes('Map Port…') ? 'Map Port…' : undefined));
  const problems: (string | undefined)[] = [];
  const input = answerInputBox(async (options) => {
    for (const typed of ['abc', '0', '70000', String(port), ` ${server.port} `]) {
      const problem = await Promise.resolve(options.validateInput?.(typed));
      problems.push(typeof problem === 'string' ? problem : (problem?.message ?? undefined));
    }
    return String(server.port);
  });
  const config = () => vscode.workspace.getConfiguration('probeLens', uri);
  try {
    await vscode.window.showTextDocument(uri, { preview: false });
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri });
    assert.ok(started);
    const hint = await capture.next(/nothing listens/);
    assert.deepEqual(hint, { severity: 'warning', message: `Probe Lens: nothing listens on 127.0.0.1:${port} — map container port ${port} to a local port?`, buttons: ['Map Port…'] });
    assert.equal(input.asked[0]?.title, `Map container port ${port}`);
    assert.deepEqual(problems, ['A port is a whole number from 1 to 65535.', 'A port is a whole number from 1 to 65535.', 'A port is a whole number from 1 to 65535.', `Port ${port} is the one probed now: type the port your app listens on.`, undefined]);
    const saved = await capture.next(/is now probed at/);
    assert.deepEqual(saved, { severity: 'info', message: `Probe Lens: container port ${port} is now probed at port ${server.port} (probeLens.local.portMap in the workspace folder's settings).`, buttons: [] });
    assert.deepEqual(config().inspect('local.portMap')?.workspaceFolderValue, { [String(port)]: server.port });
    await waitFor(() => probing.sessions.container(uri, 'app', 'app')?.ready, 10_000, 'the container to be ready through the new port');
    assert.ok(server.requests > 0);
    assert.equal(capture.shown.filter((s) => /nothing listens/.test(s.message)).length, 1, 'asked once for the port');
    started.session.dispose();
  } finally {
    capture.restore();
    input.restore();
    probing.sessions.stopAll();
    await config().update('local.portMap', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
    await server.close();
    await closeAllEditors();
    await vscode.workspace.fs.delete(uri);
  }
}, { timeoutMs: 40_000 });

test('Run Probe Once refused on the loopback: the warning offers Map Port…', async () => {
  const { uri, port } = await manifestOnFreePort();
  const capture = captureMessages();
  try {
    const result = await vscode.commands.executeCommand<ProbeOnceResult | undefined>('probeLens.runProbeOnce', uri, 'app', 'app', 'readiness');
    assert.equal(result?.refused?.containerPort, port);
    assert.deepEqual(await capture.next(/readiness/), {
      severity: 'warning',
      message: `Probe Lens: app/app readiness: Readiness probe failed: Get "http://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused — is your app listening on another port? Map container port ${port} to it.`,
      buttons: ['Map Port…'],
    });
  } finally {
    capture.restore();
    await vscode.workspace.fs.delete(uri);
  }
}, { timeoutMs: 20_000 });

test('Start Probing with no manifest open offers the workspace\'s manifests, then probes the one chosen', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  const pick = answerQuickPick((items) => items.find((i) => i.label.endsWith(' web.yaml') && i.description === 'probing'));
  const capture = captureMessages();
  try {
    await closeAllEditors();
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing');
    assert.ok(started, `a session for the manifest chosen (offered ${JSON.stringify(pick.offered)}, shown ${JSON.stringify(capture.shown)})`);
    assert.equal(started.session.uri.toString(), fixtureUri('probing/web.yaml').toString());
    const offered = pick.offered[0] ?? [];
    // The file's name with its icon, its folder beside it.
    const paths = offered.map((i) => `${i.description ? `${i.description}/` : ''}${i.label.replace('$(file) ', '')}`);
    for (const manifest of ['probing/web.yaml', 'cluster/web.yaml', 'healthy.yaml']) assert.ok(paths.includes(manifest), `${manifest} is offered (${paths.join(', ')})`);
    assert.equal(offered.find((i) => i.description === 'cluster')?.detail, 'Deployment web', 'what the manifest holds');
    assert.ok(!paths.some((p) => p?.endsWith('.scenario.yaml')), 'scenario files are not manifests');
    assert.deepEqual([...paths], [...paths].sort(), 'in path order');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), started.session.uri.toString(), 'the manifest chosen is shown');
    assert.deepEqual(capture.shown, [], 'nothing to complain about');
    started.session.dispose();
  } finally {
    pick.restore();
    capture.restore();
    probing.sessions.stopAll();
    await restore();
    await server.close();
    await closeAllEditors();
  }
}, { timeoutMs: 30_000 });

test('Start Probing with no manifest open in a workspace without one: says so in a sentence', async () => {
  const capture = captureMessages();
  // files.exclude hides every YAML file of the fixture workspace from the search.
  await vscode.workspace.getConfiguration('files').update('exclude', { '**/*.yaml': true, '**/*.yml': true }, vscode.ConfigurationTarget.Workspace);
  try {
    await closeAllEditors();
    for (const [command, action] of [
      ['probeLens.startProbing', 'Start Probing'],
      ['probeLens.simulate', 'Simulate'],
      ['probeLens.runProbeOnce', 'Run Probe Once'],
    ] as const) {
      assert.equal(await vscode.commands.executeCommand(command), undefined);
      assert.deepEqual(await capture.next(new RegExp(`^Probe Lens: ${action} needs`)), {
        severity: 'error',
        message: `Probe Lens: ${action} needs a Kubernetes manifest, and no YAML file in this workspace holds a pod spec: open or create one (a Pod, Deployment, Job … with containers).`,
        buttons: [],
      });
    }
  } finally {
    capture.restore();
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
  }
}, { timeoutMs: 30_000 });

test('exec probes switched off: says which setting, and Open Settings opens it', async () => {
  const probing = await probingApi();
  const capture = captureMessages((s) => (s.buttons.includes('Open Settings') ? 'Open Settings' : undefined));
  const opened = recordCommands();
  const restore = await withSetting('exec.probes', 'never', vscode.ConfigurationTarget.Global);
  try {
    await clearWorkbench();
    const document = await openFixture('probing/exec.yaml');
    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.equal(started?.exec, 'disabled');
    assert.deepEqual(await capture.next(/exec probes of exec\.yaml/), {
      severity: 'info',
      message: 'Probe Lens: exec probes of exec.yaml will not run because probeLens.exec.probes is "never": set it to "ask" to run them.',
      buttons: ['Open Settings'],
    });
    await waitFor(settingsEditorActive, 5_000, 'the Settings editor');
    assert.deepEqual(opened.calls.filter((c) => /Settings/.test(c.command)), [openMachineSettingCall('probeLens.exec.probes')]);
  } finally {
    opened.restore();
    capture.restore();
    probing.sessions.stopAll();
    await restore();
    await closeAllEditors();
  }
}, { timeoutMs: 30_000 });

test('a local host that is not the loopback: says which setting allows it, and Open Settings opens it', async () => {
  const capture = captureMessages((s) => (s.buttons.includes('Open Settings') ? 'Open Settings' : undefined));
  const opened = recordCommands();
  const restore = await withSetting('local.host', '10.1.2.3', vscode.ConfigurationTarget.Global);
  try {
    await clearWorkbench();
    const document = await openFixture('probing/web.yaml');
    assert.equal(await vscode.commands.executeCommand('probeLens.startProbing', { uri: document.uri }), undefined);
    assert.deepEqual(await capture.next(/probeLens\.local\.host/), {
      severity: 'error',
      message: 'Probe Lens: probeLens.local.host is 10.1.2.3, not the loopback: add "10.1.2.3" to probeLens.local.allowedHosts to probe it.',
      buttons: ['Open Settings'],
    });
    await waitFor(settingsEditorActive, 5_000, 'the Settings editor');
    assert.deepEqual(opened.calls.filter((c) => /Settings/.test(c.command)), [openMachineSettingCall('probeLens.local.allowedHosts')]);
  } finally {
    opened.restore();
    capture.restore();
    await restore();
    await closeAllEditors();
  }
}, { timeoutMs: 20_000 });

test('an untrusted workspace: the refusal offers Manage Workspace Trust', async () => {
  // Trust cannot be toggled here (see safety.vstest.ts): the outcome the command shows is checked.
  const probing = await probingApi();
  const document = await openFixture('probing/web.yaml');
  const outcome = await probing.launcher.startLocal({ uri: document.uri, trusted: false });
  assert.ok(!outcome.ok);
  assert.match(outcome.reason, /^Probe Lens probes only in a trusted workspace/);
  assert.deepEqual(outcome.remedy, { trust: true });
  const cluster = await probing.launcher.startCluster({ uri: document.uri, trusted: false });
  assert.ok(!cluster.ok && cluster.remedy?.trust === true);
});

test('Restart Container outside a simulation says what to do instead', async () => {
  const probing = await probingApi();
  const capture = captureMessages();
  try {
    probing.sessions.stopAll();
    const document = await openFixture('probing/web.yaml');
    assert.equal(await vscode.commands.executeCommand('probeLens.restartContainer', { uri: document.uri }), undefined);
    assert.deepEqual(await capture.next(/Restart Container/), {
      severity: 'error',
      message: 'Probe Lens: Restart Container needs a running simulation: start one with Probe Lens: Simulate…',
      buttons: [],
    });
  } finally {
    capture.restore();
    await closeAllEditors();
  }
});
