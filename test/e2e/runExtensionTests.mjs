#!/usr/bin/env node
// Mode A: runs a test module inside a real VS Code extension host, as @vscode/test-electron
// does, but offline: code-server hosts VS Code 1.100.3 and headless Chromium is only the client
// that makes it start an extension host. The workbench requires the tests module and awaits its
// run(); what the extension host logs comes back through window.codeAutomationLog and run()'s
// outcome through window.codeAutomationExit (the hooks @vscode/test-web uses).
//
//   node test/e2e/runExtensionTests.mjs [--ext DIR] [--tests FILE] [--workspace DIR]
//        [--in-place] [--timeout SECONDS] [--screenshot FILE] [--verbose]
// --timeout bounds the silence, not the run: every test has its own timeout (at most 60 s), so
// a suite that prints nothing for that long is stuck, while a whole suite's time only grows
// with its tests and the machine's load (a busy clean run took 187 s against a total of 180 s).
// Defaults: the project root, out/test/extension/runner.js, test/e2e/fixtures/workspace.
// A workspace folder holding a .code-workspace file opens as that (multi-root) workspace.
// The workspace is copied to a temporary folder first, unless --in-place.
//
// It also takes the VS Code command line @vscode/test-electron builds, so it can be given as
// runTests({ vscodeExecutablePath }) (see runWithTestElectron.mjs):
//   [folder] --extensionDevelopmentPath=DIR --extensionTestsPath=FILE   (other flags are ignored)
//
// Exit code: the tests' (0 passed, 1 failed), 124 on timeout, 2 on a harness error.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { format, parseArgs } from 'node:util';
import { enableDevelopmentPayload, FIXTURE_WORKSPACE, launchChromium, PROJECT_ROOT, seconds, startCodeServer, workbenchUrl } from './lib.mjs';

const { values: options, positionals } = parseArgs({
  strict: false, // test-electron adds --no-sandbox, --extensions-dir=… and the like
  allowPositionals: true,
  options: {
    ext: { type: 'string' },
    extensionDevelopmentPath: { type: 'string' },
    tests: { type: 'string' },
    extensionTestsPath: { type: 'string' },
    workspace: { type: 'string' },
    'in-place': { type: 'boolean' },
    timeout: { type: 'string' },
    screenshot: { type: 'string' },
    verbose: { type: 'boolean' },
  },
});
const extensionDevelopmentPath = options.ext ?? options.extensionDevelopmentPath ?? PROJECT_ROOT;
const extensionTestsPath = options.tests ?? options.extensionTestsPath ?? join(PROJECT_ROOT, 'out/test/extension/runner.js');
const workspace = options.workspace ?? positionals[0] ?? FIXTURE_WORKSPACE;
const timeoutSeconds = Number(options.timeout ?? process.env.E2E_TIMEOUT ?? 120);
const verbose = Boolean(options.verbose ?? process.env.E2E_VERBOSE);

// The workbench forwards its own chatter through codeAutomationLog along with the extension
// host's console; only the latter is the tests' output.
const WORKBENCH_NOISE =
  /^(Ignoring fetching additional builtin|Updating additional builtin|Creating a socket|Resolving connection token|Resolved connection token|\[Service Worker\]|ChatSessionStore|\[AgentHost|\[ChatModelSelection|\[AccountPolicyGate|Timed out waiting for authentication provider)/;
// Reasons the extension silently does not load, which only the server log gives.
const SERVER_LOG_PROBLEMS = /not compatible|Error loading extension|Cannot activate|Activating extension .* failed/i;

const started = Date.now();
let exitCode = 2;
let silenceTimer;
let silenceEnded = () => {};
/** Restarts the silence bound: the extension host said something. */
function heardFrom() {
  clearTimeout(silenceTimer);
  silenceTimer = setTimeout(() => silenceEnded(), timeoutSeconds * 1000);
}
let server;
let browser;
try {
  if (!existsSync(extensionTestsPath)) {
    throw new Error(`${extensionTestsPath} does not exist: build the tests first (node esbuild.config.mjs --tests-only)`);
  }
  server = await startCodeServer({ verbose });
  console.log(`[harness] code-server on 127.0.0.1:${server.port} (${seconds(started)})`);
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const testsFinished = new Promise((resolveExit) => {
    void page.exposeFunction('codeAutomationLog', (_type, args) => {
      const line = format(...[].concat(args));
      if (WORKBENCH_NOISE.test(line)) {
        if (verbose) console.log(line);
        return;
      }
      heardFrom();
      console.log(line);
    });
    void page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  });
  page.on('pageerror', (error) => console.error('[pageerror]', error.message));
  // A webview closed while it loads a resource leaves VS Code's webview service worker waiting
  // 30 s for the answer (pre/service-worker.js), and no webview of the window loads meanwhile:
  // tests that time out waiting for a webview next are its victims, not its cause.
  page.on('requestfailed', (request) => {
    if (request.url().includes('.vscode-resource.') && request.failure()?.errorText === 'net::ERR_ABORTED') {
      console.log(`[harness] a webview was closed while loading ${new URL(request.url()).pathname}: webviews opened in the next 30 s may not load`);
    }
  });
  if (verbose) page.on('console', (message) => console.error(`[browser ${message.type()}] ${message.text()}`));
  await enableDevelopmentPayload(page);
  const copied = options['in-place'] ? workspace : server.copyWorkspace(workspace);
  // A folder holding a .code-workspace file is opened as that workspace (multi-root).
  const workspaceFile = readdirSync(copied).find((name) => name.endsWith('.code-workspace'));
  const folder = workspaceFile ? join(copied, workspaceFile) : copied;
  await page.goto(workbenchUrl(server.port, { folder, extensionDevelopmentPath, extensionTestsPath }));

  const timedOut = new Promise((resolveExit) => {
    silenceEnded = () => {
      console.log(`[harness] no output for ${timeoutSeconds} s: the tests are stuck`);
      resolveExit(124);
    };
    heardFrom();
  });
  exitCode = await Promise.race([testsFinished, timedOut]);
  clearTimeout(silenceTimer);
  if (options.screenshot) await page.screenshot({ path: options.screenshot }).catch(() => {});
  for (const line of server.log().split('\n')) if (SERVER_LOG_PROBLEMS.test(line)) console.log(`[code-server] ${line}`);
  console.log(`[harness] extension tests exited with ${exitCode} (${seconds(started)})`);
} catch (error) {
  console.error('[harness]', error instanceof Error ? error.message : error);
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
}
process.exit(exitCode);
