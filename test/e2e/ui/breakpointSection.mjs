// The "Breakpoint guard" section of the UI test: a user debugs debugging/server.js (F5, a
// launch.json) while a local session probes it, then stops it at a breakpoint (F9 on the
// heartbeat line). The countdown to the restart the cluster's liveness would cause shows in the
// status bar and above the container in the manifest; going on (Debug: Continue) clears it. The
// same as test/extension/suite/breakpointGuard.vstest.ts, seen on the screen. Takes
// docs/images/breakpoint-guard.png.
//
// The manifest is written here, its containerPort the port the program listens on (a free one),
// so that no portMap setting is needed; liveness probes every 10 s, 3 failures: a 30 s window.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { plain, waitUntil } from './workbench.mjs';

export const BREAKPOINT_SECTION = 'Breakpoint guard';
const MANIFEST = 'debugging/guard.yaml';
const PROGRAM = 'debugging/server.js';
/** The status bar while held (the `$(debug-pause)` codicon has no text): plain text, no backticks. */
const COUNTDOWN = /^paused \d+ s — in the cluster liveness would restart api in \d+ s \(3 × 10 s\)$/;

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

function answers(port) {
  return new Promise((done) => {
    const request = get({ host: '127.0.0.1', port, path: '/healthz', timeout: 500 }, (response) => {
      response.resume();
      done(response.statusCode === 200);
    });
    request.on('error', () => done(false));
    request.on('timeout', () => request.destroy());
  });
}

/** The 1-based line of server.js the breakpoint goes on. */
function breakpointLine(folder) {
  return readFileSync(join(folder, PROGRAM), 'utf8').split('\n').findIndex((l) => l.includes('// BREAKPOINT')) + 1;
}

function manifest(port) {
  return `# Written by the UI test (test/e2e/ui/breakpointSection.mjs): server.js listens on ${port}.
apiVersion: v1
kind: Pod
metadata:
  name: api
spec:
  containers:
    - name: api
      image: example/api:1.0
      ports:
        - name: http
          containerPort: ${port}
      livenessProbe:
        httpGet: {path: /healthz, port: http}
        periodSeconds: 10
        failureThreshold: 3
      readinessProbe:
        httpGet: {path: /healthz, port: http}
        periodSeconds: 5
`;
}

export async function breakpointSection({ page, workbench, folder, section, step, screenshot }) {
  await section(BREAKPOINT_SECTION);
  let port;

  await step('F5 starts server.js under the debugger (launch.json), and a local session probes it until it is ready', async () => {
    port = await freePort();
    writeFileSync(join(folder, MANIFEST), manifest(port));
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    const launch = { version: '0.2.0', configurations: [{ type: 'node', request: 'launch', name: 'Debug server.js', program: '${workspaceFolder}/debugging/server.js', env: { PORT: String(port) }, console: 'internalConsole' }] };
    writeFileSync(join(folder, '.vscode', 'launch.json'), JSON.stringify(launch, null, 2));
    await workbench.closePanel();
    await workbench.openFile(MANIFEST);
    await workbench.runCommand('Debug: Start Debugging');
    await waitUntil(() => answers(port), `server.js to answer on 127.0.0.1:${port}`, 30_000, 250);
    await workbench.runCommand('Probe Lens: Start Probing');
    await workbench.waitForCodeLenses((seen) => seen[0]?.[0] === 'started · ready · restarts 0', 'the container lens to say ready', 20_000);
    // Liveness has had an attempt (its first tick came before the container had started).
    await workbench.waitForCodeLenses((seen) => /^● alive · /.test(seen[1]?.[0] ?? ''), 'the liveness lens to say alive', 20_000);
  });

  await step('F9 on the heartbeat line stops it: the status bar and the container lens count down to the restart', async () => {
    await workbench.openFile(PROGRAM);
    await workbench.goTo(breakpointLine(folder), 3);
    await page.keyboard.press('F9');
    // Stopped: the editor marks the line it stopped on.
    await page.locator('.monaco-editor .debug-top-stack-frame-line').first().waitFor({ timeout: 10_000 });
    const item = workbench.statusBarItem('in the cluster liveness would restart');
    await item.waitFor({ timeout: 10_000 });
    assert.match(plain(await item.innerText()), COUNTDOWN);
    await workbench.openFile(MANIFEST);
    const lenses = await workbench.waitForCodeLenses((seen) => COUNTDOWN.test(seen[0]?.[0] ?? ''), 'the countdown leading the container lens', 10_000);
    assert.deepEqual(lenses[0]?.slice(2), ['Open timeline', 'Stop'], `the container lens line: ${JSON.stringify(lenses[0])}`);
    // It counts: a second later it says another number.
    const before = plain(await item.innerText());
    await waitUntil(async () => plain(await workbench.statusBarItem('in the cluster liveness').innerText()) !== before, 'the countdown to move', 3_000);
  });

  await step('screenshot docs/images/breakpoint-guard.png', async () => {
    // The side bar (Run and Debug) closed: the container's lens line fits the editor.
    await workbench.runCommand('View: Close Primary Side Bar');
    await workbench.statusBarItem('in the cluster liveness').waitFor({ timeout: 5_000 });
    await screenshot(workbench, 'breakpoint-guard.png');
  });

  await step('F9 again removes the breakpoint; Debug: Continue lets it go on: the countdown leaves the status bar and the lens', async () => {
    await workbench.openFile(PROGRAM);
    await workbench.goTo(breakpointLine(folder), 3);
    await page.keyboard.press('F9');
    await workbench.runCommand('Debug: Continue');
    await workbench.openFile(MANIFEST);
    await workbench.statusBarItem('in the cluster liveness').waitFor({ state: 'detached', timeout: 10_000 });
    await workbench.waitForCodeLenses((seen) => seen[0]?.[0] === 'started · ready · restarts 0' || /^started · /.test(seen[0]?.[0] ?? ''), 'the container lens without the countdown', 10_000);
  });

  await step('Debug: Stop and Probe Lens: Stop Probing end both; the Explorer comes back', async () => {
    await workbench.runCommand('Debug: Stop');
    await waitUntil(async () => !(await answers(port)), 'server.js to stop', 10_000, 250);
    await workbench.runCommand('Probe Lens: Stop Probing');
    await workbench.waitForCodeLenses((seen) => seen[0]?.[0] === 'Run probes', 'the static lenses', 10_000);
    await workbench.runCommand('View: Show Explorer');
  });
}
