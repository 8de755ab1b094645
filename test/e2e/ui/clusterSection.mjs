// The "Cluster session" section of the UI test: *Start Probing in the Cluster* as a user runs it,
// through the real kubectl against the test API server (test/fixtures/apiserver, built into out/
// by `node esbuild.config.mjs --with-tests`). The same scenario as
// test/extension/suite/clusterMode.vstest.ts, seen on the screen: the kubeconfig's contexts in a
// quick pick, then the cluster's kubelet disagreeing with our probes in the Probes view, the
// container's code lens and the Problems panel. Takes docs/images/cluster-context-picker.png and
// docs/images/cluster-disagreement.png; then RBAC refusing the port-forward, cluster-refused.png.
//
// The cluster has to exist before code-server starts: KUBECONFIG is read from the environment the
// extension host inherits. So uiTest.mjs calls startClusterFixture() first, passes its `env` to
// startCodeServer, and disposes of it at the end.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../lib.mjs';
import { plain, waitUntil } from './workbench.mjs';

/** The section's name, for `--only`: a run that does not select it need not start the cluster. */
export const CLUSTER_SECTION = 'Cluster session';
const MANIFEST = 'cluster/web.yaml';
const COMMAND = 'Probe Lens: Start Probing in the Cluster';
/** What showQuickPick is titled: the command's own title. */
const PICKER_TITLE = 'Start Probing in the Cluster';
const POD = { name: 'web-5d4f8b7c9-x2k4q', namespace: 'shop' };
const POD_IP = '10.244.1.5';
/** The current context first; kind-dev is the one to pick (namespace shop, where the pod is). */
const CONTEXTS = [
  { name: 'staging', namespace: 'default' },
  { name: 'kind-dev', namespace: 'shop' },
];
/** What the cluster's kubelet says when the app listens on 127.0.0.1 only: the pod IP refuses it. */
const REFUSED = `Readiness probe failed: Get "http://${POD_IP}:8080/healthz": dial tcp ${POD_IP}:8080: connect: connection refused`;

/** The Probes view's rows of the cluster session, as `level label — description`, top to bottom. */
const DISAGREEING_ROWS = ['2 web — Ready · kubelet: NotReady', '3 web — ready · restarts 0 · kubelet: not ready (disagrees)'];
/** Our readiness probe, passing through port-forward. */
const READINESS_ROW = /^4 readiness — \d+\/\d+ ok · \d+ ms$/;
const CONTAINER_LENS = 'started · ready · restarts 0 · kubelet: not ready';
/** The disagreement's first line (all the Problems panel has room for) leads with the cause. */
const DISAGREEMENT_CAUSE = "web likely listens on 127.0.0.1 only: the kubelet's readiness probe is refused, ours passes";
const DISAGREEMENT = "The kubelet says web is not Ready (its probe of the pod IP is refused) while ours pass through port-forward, which containerd 1.7.27 connects to 127.0.0.1 inside the pod: the app likely listens on 127.0.0.1 only.";
const KUBELET_EVENT = `The cluster's kubelet: ${REFUSED}`;

/** The test helpers, transpiled into out/ (CommonJS). */
function compiled(path) {
  const require = createRequire(import.meta.url);
  try {
    return require(join(PROJECT_ROOT, 'out', path));
  } catch (error) {
    throw new Error(`cannot load out/${path} (${error.message.split('\n')[0]}): run \`node esbuild.config.mjs --with-tests\` first`);
  }
}

/** An app answering GET /healthz with 200 on 127.0.0.1: what the pod's port 8080 forwards to. */
async function startHealthApp() {
  const server = createServer((request, response) => {
    response.writeHead(request.url === '/healthz' ? 200 : 404, { 'content-type': 'text/plain' });
    response.end(request.url === '/healthz' ? 'ok' : 'not found');
  });
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen({ host: '127.0.0.1', port: 0 }, done);
  });
  return {
    port: server.address().port,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

/**
 * The test cluster: the API server, a kubeconfig with the contexts staging (current) and
 * kind-dev, pod web-5d4f8b7c9-x2k4q in shop (IP 10.244.1.5) whose port 8080 is forwarded to a
 * local app answering /healthz, its container not Ready for the kubelet, and the kubelet's
 * Unhealthy event saying why. `env` goes to code-server; `dispose()` stops it all.
 */
export async function startClusterFixture() {
  const apiserver = compiled('test/fixtures/apiserver/index.js');
  apiserver.requireKubectl();
  const app = await startHealthApp();
  // The server reads its certificate from test/fixtures/tls under the working directory.
  const cwd = process.cwd();
  let server;
  try {
    process.chdir(PROJECT_ROOT);
    server = await apiserver.startApiServer();
  } finally {
    process.chdir(cwd);
  }
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-ui-cluster-'));
  const kubeconfig = server.writeKubeconfig(dir, { contexts: CONTEXTS });
  server.addPod({ ...POD, labels: { app: 'web' }, podIP: POD_IP, containers: [{ name: 'web', ports: { 8080: app.port } }] });
  server.setReady(POD, 'web', false);
  server.addEvent(POD, { reason: 'Unhealthy', message: REFUSED, container: 'web' });
  return {
    kubeconfig,
    env: { KUBECONFIG: kubeconfig },
    /** From now on, RBAC gives the user "create" on pods/portforward but not "get": enough for kubectl, not for a WebSocket. */
    refuseWebSocketPortForward: () => server.forbid('pods/portforward', { verbs: ['get'] }),
    async dispose() {
      // A run that failed before its Stop step, its code-server then killed, leaves the extension
      // host's kubectl proxy (its own process group): not left on the machine.
      for (const pid of compiled('test/helpers/kubectlProcesses.js').kubectlProcesses(kubeconfig)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // Gone meanwhile.
        }
      }
      await server.dispose();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a run given `--only <only>` runs the section (Steps selects sections the same way). */
export function clusterSectionSelected(only) {
  return only === undefined || CLUSTER_SECTION.toLowerCase().includes(only.toLowerCase());
}

/**
 * The section. `cluster` is what startClusterFixture() returned (undefined when the section is
 * not selected); `screenshot` and `treeRows` are uiTest.mjs's (a README screenshot; the rows of a
 * tree view).
 */
export async function clusterSection({ page, workbench, section, step, options, screenshot, treeRows, cluster }) {
  await section(CLUSTER_SECTION);
  let probes;
  /** The cluster session's rows (whatever ended session another section left is replaced by it). */
  const clusterRows = async () => (await treeRows(probes)).map((row) => ({ ...row, text: `${row.level} ${row.label}${row.description ? ` — ${row.description}` : ''}` }));
  /** The Problems panel's rows, as their text (a row: `<message> probe-lens [Ln 18, Col 11]`). */
  const problemRows = async () => (await page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map(plain);

  await step(`${MANIFEST} open beside the Probes view`, async () => {
    assert.ok(cluster, 'the test cluster was started before code-server (startClusterFixture)');
    await workbench.closePanel();
    await workbench.runCommand('View: Close All Editors');
    // The Explorer in the side bar, the workspace's tree folded, room for the Probes view's rows.
    await workbench.runCommand('View: Show Explorer');
    await workbench.togglePane(basename(resolve(options.workspace)), false);
    await workbench.resizeSidebar(480);
    probes = await workbench.togglePane('Probes');
    await workbench.openFile(MANIFEST);
    await workbench.waitForCodeLenses((seen) => seen[0]?.join(' | ') === 'Run probes | Simulate', 'the static lenses of web.yaml');
  });

  await step(`${COMMAND} asks which kubeconfig context, the current one first`, async () => {
    await workbench.runCommand(COMMAND);
    const picker = workbench.quickInput;
    await picker.locator('.quick-input-title', { hasText: PICKER_TITLE }).waitFor({ timeout: 15_000 });
    await workbench.quickInputRow('kind-dev').waitFor({ timeout: 10_000 });
    const rows = await picker.locator('.quick-input-list .monaco-list-row').evaluateAll((nodes) =>
      nodes.map((row) => ({
        icon: /codicon-([\w-]+)/.exec(row.querySelector('.label-name .codicon')?.className ?? '')?.[1] ?? '',
        label: row.querySelector('.label-name')?.textContent ?? '',
        description: row.querySelector('.label-description')?.textContent ?? '',
        detail: row.querySelector('.quick-input-list-label-meta .label-name, .quick-input-list-detail .label-name')?.textContent ?? '',
      })),
    );
    const shown = rows.map((row) => [row.icon, plain(row.label), plain(row.description), plain(row.detail)]);
    if (options.verbose) console.log('    picker:', JSON.stringify(shown));
    assert.deepEqual(
      shown,
      [
        ['cloud', 'staging', 'current context', 'cluster probe-lens-test · namespace default · user staging-user'],
        ['cloud', 'kind-dev', '', 'cluster probe-lens-test · namespace shop · user kind-dev-user'],
      ],
      `the context picker's rows: ${JSON.stringify(shown)}`,
    );
    const placeholder = await picker.locator('input.input').getAttribute('placeholder');
    assert.equal(placeholder, 'Which kubeconfig context? (set probeLens.cluster.context to skip this)', `the picker's placeholder: ${placeholder}`);
  });

  await step('screenshot docs/images/cluster-context-picker.png', async () => {
    // kind-dev under the keyboard's focus, as a user about to pick it sees it.
    await page.keyboard.press('ArrowDown');
    await workbench.quickInput.locator('.monaco-list-row.focused', { hasText: 'kind-dev' }).waitFor({ timeout: 5_000 });
    await screenshot(workbench, 'cluster-context-picker.png');
  });

  await step('choosing kind-dev starts the session: the Probes view follows the cluster pod, the status bar names context and namespace', async () => {
    await page.keyboard.press('Enter');
    await workbench.quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
    let rows = [];
    await waitUntil(async () => (rows = await clusterRows()).length >= 4 && rows[0].label === 'web.yaml', () => `the cluster session's rows: ${JSON.stringify(rows.map((row) => row.text))}`, 20_000);
    assert.equal(rows[0].icon === 'history', false, 'a running session, not the ended one');
    const status = workbench.statusBarItem('kind-dev · shop');
    await status.waitFor({ timeout: 15_000 });
    const text = plain(await status.innerText());
    if (options.verbose) console.log('    status bar:', JSON.stringify(text));
    assert.match(text, /kind-dev · shop$/, `the status bar item: ${text}`);
    assert.equal(await status.locator('.codicon-cloud').count(), 1, 'a cloud icon before kind-dev');
  });

  await step("ours ready beside the kubelet's not ready; after 20 s of it, the disagreement in the tree, the lens and Problems", async () => {
    let rows = [];
    await waitUntil(
      async () => (rows = await clusterRows()).some((row) => row.level === 3 && row.description.endsWith('(disagrees)')),
      () => `the container row to say it disagrees: ${JSON.stringify(rows.map((row) => row.text))}`,
      45_000,
    );
    if (options.verbose) console.log('    rows:', JSON.stringify(rows.map((row) => row.text)));
    assert.equal(rows[0].label, 'web.yaml');
    assert.deepEqual(rows.slice(1, 3).map((row) => row.text), DISAGREEING_ROWS, `the rows: ${JSON.stringify(rows.map((row) => row.text))}`);
    assert.match(rows[3]?.text ?? '', READINESS_ROW, `the readiness row: ${rows[3]?.text}`);
    assert.equal(rows[2].icon, 'warning', `the container row's icon: ${rows[2].icon}`);
    const lenses = await workbench.waitForCodeLenses((seen) => seen.some((line) => line[0] === CONTAINER_LENS), 'the container lens flagging the disagreement', 15_000);
    if (options.verbose) console.log('    lenses:', JSON.stringify(lenses));
    const container = workbench.activeEditor.locator('.codelens-decoration', { hasText: 'kubelet: not ready' }).first();
    // Its text is the same before the disagreement opens: the warning icon is what says it (the lens follows the view within a second).
    await waitUntil(async () => (await container.locator('.codicon-warning').count()) === 1, 'a warning icon before "kubelet:" in the lens', 5_000);
    await workbench.activeEditor.locator('.squiggly-warning').first().waitFor({ timeout: 10_000 });
  });

  await step("the tree rows' texts show whole in a 480 px side bar", async () => {
    const widths = await probes.locator('.monaco-list-row .monaco-icon-label-container').evaluateAll((nodes) => nodes.map((node) => ({ text: node.textContent, scrollWidth: node.scrollWidth, clientWidth: node.clientWidth })));
    const cut = widths.filter((row) => row.scrollWidth > row.clientWidth);
    assert.deepEqual(cut, [], 'rows whose text is cut off');
    // The container lens is one line with its "Open timeline" and "Stop": how much of it the editor's width hides.
    const lens = await workbench.activeEditor.evaluate((editor) => {
      const line = [...editor.querySelectorAll('.codelens-decoration')].find((node) => node.textContent.includes('kubelet:'));
      const minimap = editor.querySelector('.minimap')?.getBoundingClientRect().left ?? editor.getBoundingClientRect().right;
      return { right: Math.round(line.scrollWidth + line.getBoundingClientRect().left), visibleUntil: Math.round(minimap) };
    });
    if (options.verbose) console.log(`    container lens: ends at x=${lens.right}, the text area ends at x=${lens.visibleUntil}`);
  });

  await step("the pod row's tooltip names the cluster pod and its IP, and the cluster's newest events", async () => {
    await probes.locator('.monaco-list-row[aria-level="2"]').first().hover();
    const tooltip = page.locator('.workbench-hover').filter({ visible: true, hasText: POD.name }).first();
    await tooltip.waitFor({ timeout: 10_000 });
    const text = plain(await tooltip.innerText());
    if (options.verbose) console.log('    pod tooltip:', JSON.stringify(text));
    assert.ok(text.includes(`Probed through pod ${POD.name} (${POD_IP}) in namespace shop.`), `the tooltip: ${text}`);
    assert.ok(text.includes('connect: connection refused'), `the cluster's Unhealthy event in the tooltip: ${text}`);
    await workbench.parkMouse();
  });

  await step('the Problems panel: our warning with its explanation, the kubelet\'s own failure beside it', async () => {
    await page.keyboard.press('Control+Shift+M');
    let rows = [];
    await waitUntil(
      async () => (rows = await problemRows()).some((row) => row.startsWith(DISAGREEMENT_CAUSE)) && rows.some((row) => row.startsWith("The cluster's kubelet:")),
      () => `both cluster diagnostics in Problems: ${JSON.stringify(rows)}`,
      10_000,
    );
    if (options.verbose) console.log('    problems:', JSON.stringify(rows));
    const ours = rows.find((row) => row.startsWith(DISAGREEMENT_CAUSE));
    assert.match(ours, /\[Ln 18, Col 11\]/, `on readinessProbe (line 18): ${ours}`);
    assert.ok(ours.includes(DISAGREEMENT), `the whole explanation on the row's second line: ${ours}`);
    const theirs = rows.find((row) => row.startsWith("The cluster's kubelet:"));
    assert.ok(theirs.startsWith(KUBELET_EVENT), `the kubelet's row: ${theirs}`);
    // Their icons: a warning for ours, information for the kubelet's.
    const icons = (start) => page.locator('.markers-panel .monaco-list-row', { hasText: start }).first().locator('.marker-icon').getAttribute('class');
    assert.match(await icons(DISAGREEMENT_CAUSE), /\bwarning\b/);
    assert.match(await icons("The cluster's kubelet:"), /\binfo\b/);
  });

  await step('screenshot docs/images/cluster-disagreement.png', async () => {
    // The readiness probe's key in view, under its lens, with the squiggle.
    await workbench.clickText('readinessProbe');
    await workbench.codeLensesSettled();
    await screenshot(workbench, 'cluster-disagreement.png', { relayout: true });
  });

  await step('hovering the squiggled readinessProbe key shows the whole explanation, which Problems cuts off', async () => {
    const key = workbench.activeEditor.locator('.view-line span span', { hasText: /^\s*readinessProbe\s*$/ }).first();
    // The mouse moved there rather than key.hover(): the lenses, redrawn at each probe (every
    // second), keep the line from being "stable" for Playwright's actionability check.
    const box = await key.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    const hover = workbench.hover;
    await hover.locator('.hover-contents, .hover-row', { hasText: 'likely listens on 127.0.0.1 only' }).first().waitFor({ timeout: 10_000 });
    const text = plain(await hover.innerText());
    if (options.verbose) console.log('    hover:', JSON.stringify(text));
    assert.ok(text.includes(DISAGREEMENT), `the hover: ${text}`);
    assert.ok(text.includes(KUBELET_EVENT), `the kubelet's event in the hover: ${text}`);
    // For a person to look at (not a README image).
    mkdirSync(options.failures, { recursive: true });
    await page.screenshot({ path: join(options.failures, 'cluster-hover.png'), animations: 'disabled' });
    await workbench.parkMouse();
    await page.keyboard.press('Escape');
    await hover.waitFor({ state: 'hidden', timeout: 5_000 });
  });

  await step('Probe Lens: Stop Probing ends the session and leaves no kubectl behind', async () => {
    const { kubectlProcesses, kubectlProcessesAfter } = compiled('test/helpers/kubectlProcesses.js');
    assert.ok(kubectlProcesses(cluster.kubeconfig).length > 0, 'the kubectl proxy is seen while the session runs (so the check below can fail)');
    await workbench.runCommand('Probe Lens: Stop Probing');
    await workbench.statusBarItem('kind-dev · shop').waitFor({ state: 'detached', timeout: 10_000 });
    let rows = [];
    await waitUntil(async () => /^ended \d\d:\d\d/.test((rows = await clusterRows())[0]?.description ?? ''), () => `the ended session's row: ${JSON.stringify(rows.map((row) => row.text))}`, 10_000);
    await workbench.waitForCodeLenses((seen) => seen[0]?.[0] === 'Run probes', 'the static lenses after the session');
    assert.deepEqual(await kubectlProcessesAfter(cluster.kubeconfig, 5_000), [], 'no kubectl left once stopped');
    await workbench.closePanel();
  });

  await step('RBAC refusing the WebSocket port-forward: the session stops, the error says which verb and that kubectl would work, the row says why', async () => {
    const { kubectlProcessesAfter } = compiled('test/helpers/kubectlProcesses.js');
    const refusal = cluster.refuseWebSocketPortForward();
    try {
      await workbench.runCommand(COMMAND);
      await workbench.quickInputRow('kind-dev').waitFor({ timeout: 15_000 });
      await workbench.quickInputRow('kind-dev').click();
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'so probing stopped' }).first();
      await toast.waitFor({ timeout: 20_000 });
      const said = plain(await toast.innerText());
      if (options.verbose) console.log('    toast:', JSON.stringify(said));
      assert.ok(said.includes(`Probe Lens: the cluster refused a port-forward to pod ${POD.name}, so probing stopped: user "dev" may create pods/portforward in namespace "shop" but not get it: kubectl port-forward works`), `the notification: ${said}`);
      assert.ok(said.includes('Show Output'), `its button: ${said}`);
      let rows = [];
      await waitUntil(async () => /^stopped \d\d:\d\d(:\d\d)?: the cluster refused a port-forward to pod /.test((rows = await clusterRows())[0]?.description ?? ''), () => `the stopped session's row: ${JSON.stringify(rows.map((row) => row.text))}`, 10_000);
      assert.equal(rows[0].icon, 'error', `the session row's icon: ${rows[0].icon}`);
      await workbench.parkMouse();
      mkdirSync(options.images, { recursive: true });
      await page.screenshot({ path: join(options.images, 'cluster-refused.png'), animations: 'disabled' });
      assert.deepEqual(await kubectlProcessesAfter(cluster.kubeconfig, 5_000), [], 'no kubectl left once it stopped');
      await workbench.clearNotifications();
    } finally {
      refusal.dispose();
    }
  });
}
