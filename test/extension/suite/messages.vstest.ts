/**
 * Every message Probe Lens shows about starting and running probes, inside a real VS Code: the
 * exact sentence, its buttons, and that each button does what it says (notifications are seen
 * and answered through ../notifications.ts; before a button is clicked, neither the Settings
 * editor nor the output is showing, so what shows after is its doing). There is no cluster:
 * kubectl is a stand-in script that writes what a real kubectl writes to stderr (the texts
 * test/core/k8s/kubectlErrors.test.ts checks the classifier against).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LocalStarted, ProbeOnceResult } from '../../../src/extension/sessions/launcher';
import { sleep, test, waitFor } from '../harness';
import { answerInputBox, answerQuickPick, captureMessages, clearWorkbench, closeAllEditors, openMachineSettingCall, outputShows, recordCommands, settingsEditorActive } from '../notifications';
import { probingApi, startHealthServer, withSetting } from '../probing';
import { fixtureUri, openFixture } from '../workbench';
import { freePort } from '../../helpers/httpServers';

/** A kubectl stand-in: `get` prints `pods` (a List) or fails with `getStderr`; `port-forward` fails with `forwardStderr`. */
function standInKubectl(options: { getStderr?: string; pods?: unknown[]; forwardStderr?: string }): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-kubectl-'));
  writeFileSync(join(dir, 'get.err'), options.getStderr ?? '');
  writeFileSync(join(dir, 'get.out'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: options.pods ?? [] }));
  writeFileSync(join(dir, 'forward.err'), options.forwardStderr ?? '');
  const path = join(dir, 'kubectl');
  writeFileSync(
    path,
    `#!/bin/sh
case "$1" in
  get) if [ -s "${dir}/get.err" ]; then cat "${dir}/get.err" >&2; exit 1; fi; cat "${dir}/get.out";;
  port-forward) cat "${dir}/forward.err" >&2; exit 1;;
  *) echo "error: unknown command \\"$1\\" for \\"kubectl\\"" >&2; exit 1;;
esac
`,
    { mode: 0o755 },
  );
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const REFUSED_6443 = `${Array.from({ length: 5 }, (_, i) => `E1124 10:00:0${i}.123456   1234 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \\"https://127.0.0.1:6443/api?timeout=32s\\": dial tcp 127.0.0.1:6443: connect: connection refused"`).join('\n')}
The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
`;

const CLUSTER_POD = {
  kind: 'Pod',
  metadata: { name: 'web-7d9c4-x2x8q', namespace: 'default', uid: 'uid-web', labels: { app: 'web' } },
  spec: { containers: [{ name: 'web' }] },
  status: { phase: 'Running', podIP: '10.244.0.7', conditions: [{ type: 'Ready', status: 'True' }] },
};

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

for (const [what, stderr, sentence] of [
  ['the cluster is down', REFUSED_6443, "kubectl cannot reach the cluster at 127.0.0.1:6443 (connection refused): check that the cluster is running and that kubectl's current context is the right one."],
  [
    'there is no kubeconfig',
    'The connection to the server localhost:8080 was refused - did you specify the right host or port?\n',
    'kubectl has no current context (no kubeconfig, or none chosen in it): choose one with kubectl config use-context NAME, or set KUBECONFIG.',
  ],
  ['the credentials are refused', 'error: You must be logged in to the server (Unauthorized)\n', "the cluster did not accept kubectl's credentials (Unauthorized): log in again, or refresh the credentials in your kubeconfig."],
  [
    'RBAC forbids listing pods',
    'Error from server (Forbidden): pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "default"\n',
    'user "dev" may not list pods in namespace "default": ask your cluster admin for that permission, or use a context whose user has it.',
  ],
] as const) {
  test(`kubectl fails because ${what}: one sentence, and Show Output shows kubectl's whole stderr`, async () => {
    const probing = await probingApi();
    const kubectl = standInKubectl({ getStderr: stderr });
    const capture = captureMessages((s) => (s.buttons.includes('Show Output') ? 'Show Output' : undefined));
    const restore = await withSetting('kubectlPath', kubectl.path, vscode.ConfigurationTarget.Global);
    try {
      await clearWorkbench();
      const document = await openFixture('cluster/web.yaml');
      assert.equal(await vscode.commands.executeCommand('probeLens.startProbingCluster', { uri: document.uri }), undefined);
      const shown = await capture.next(/^Probe Lens: /);
      assert.deepEqual(shown, { severity: 'error', message: `Probe Lens: ${sentence}`, buttons: ['Show Output'] });
      assert.doesNotMatch(shown.message, /E1124|memcache/, 'none of the raw klog lines');
      const lastLine = stderr.trim().split('\n').at(-1) as string;
      await waitFor(() => outputShows(lastLine), 10_000, 'the output channel with kubectl\'s stderr');
      assert.equal(probing.sessions.forDocument(document.uri), undefined);
    } finally {
      capture.restore();
      await restore();
      kubectl.cleanup();
      await vscode.commands.executeCommand('workbench.action.closePanel');
    }
  }, { timeoutMs: 30_000 });
}

test('no pod of the manifest in the cluster: says what to do', async () => {
  const kubectl = standInKubectl({ pods: [] });
  const capture = captureMessages();
  const restore = await withSetting('kubectlPath', kubectl.path, vscode.ConfigurationTarget.Global);
  try {
    const document = await openFixture('cluster/web.yaml');
    assert.equal(await vscode.commands.executeCommand('probeLens.startProbingCluster', { uri: document.uri }), undefined);
    assert.deepEqual(await capture.next(/no pod of/), {
      severity: 'error',
      message: 'Probe Lens: no pod of Deployment "web" with labels app=web in kubectl\'s current namespace: apply the manifest to the cluster first, or probe your app on this machine with Start Probing.',
      buttons: [],
    });
  } finally {
    capture.restore();
    await restore();
    kubectl.cleanup();
  }
}, { timeoutMs: 30_000 });

for (const [what, forwardStderr, message] of [
  [
    'RBAC forbids port-forwarding',
    'error: error upgrading connection: pods "web-7d9c4-x2x8q" is forbidden: User "dev" cannot create resource "pods/portforward" in API group "" in the namespace "default"\n',
    'Probe Lens: port-forward to pod web-7d9c4-x2x8q is down: user "dev" may not port-forward to pods in namespace "default": ask your cluster admin for that permission, or use a context whose user has it.',
  ],
  [
    'the pod is gone (a rollout replaced it)',
    'Error from server (NotFound): pods "web-7d9c4-x2x8q" not found\n',
    "Probe Lens: pod web-7d9c4-x2x8q is gone from the cluster (replaced or deleted): start probing in the cluster again to find the manifest's pod anew.",
  ],
] as const) {
  test(`port-forward fails because ${what}: one warning per pod and reason, however often it retries`, async () => {
    const probing = await probingApi();
    const kubectl = standInKubectl({ pods: [CLUSTER_POD], forwardStderr });
    const capture = captureMessages((s) => (s.buttons.includes('Show Output') ? 'Show Output' : undefined));
    const restore = await withSetting('kubectlPath', kubectl.path, vscode.ConfigurationTarget.Global);
    try {
      await clearWorkbench();
      const document = await openFixture('cluster/web.yaml');
      const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbingCluster', { uri: document.uri });
      assert.ok(started, 'the session starts: the tunnel retries on its own');
      const shown = await capture.next(/web-7d9c4-x2x8q/);
      assert.deepEqual(shown, { severity: 'warning', message, buttons: ['Show Output'] });
      await waitFor(() => outputShows(forwardStderr.trim()), 10_000, 'the output channel with kubectl\'s stderr');
      await sleep(3_500); // the first retries come after 1 s and 2 s
      assert.equal(capture.shown.filter((s) => /web-7d9c4-x2x8q/.test(s.message)).length, 1, 'said once');
      started.session.dispose();
    } finally {
      capture.restore();
      probing.sessions.stopAll();
      await restore();
      kubectl.cleanup();
      await vscode.commands.executeCommand('workbench.action.closePanel');
    }
  }, { timeoutMs: 30_000 });
}

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
