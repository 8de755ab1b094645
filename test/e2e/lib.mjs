// Runs a real VS Code offline: code-server (the VS Code 1.100.3 server and its Node extension
// host) on a random loopback port, with headless Debian Chromium as the only client. Used by
// runExtensionTests.mjs (tests inside the extension host) and uiTest.mjs (assertions on the DOM).
// Background and the errors each setting avoids: docs/e2e-recipe.md.
import { spawn } from 'node:child_process';
import { accessSync, constants, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Keep in step with install-code-server.sh: the last code-server whose postinstall accepts Node 20. */
export const CODE_SERVER_VERSION = '4.100.3';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE_WORKSPACE = join(PROJECT_ROOT, 'test/e2e/fixtures/workspace');

const INSTALL_HINT = 'run `bash test/e2e/install-code-server.sh` first';

export function codeServerBin() {
  if (process.env.CODE_SERVER_BIN) return resolve(process.env.CODE_SERVER_BIN);
  const prefix = process.env.CODE_SERVER_PREFIX ?? join(homedir(), '.cache', `e2e-code-server-${CODE_SERVER_VERSION}`);
  return join(prefix, 'node_modules/.bin/code-server');
}

/** Without these the workbench reaches for the network, which this machine refuses. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium() {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  mustBeExecutable(executablePath, `Chromium (${executablePath}) not found: ${INSTALL_HINT}, or set CHROMIUM_PATH`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

const USER_SETTINGS = {
  // The web workbench defaults to autoSave afterDelay: an edit a test reverts a second later
  // would already be on disk.
  'files.autoSave': 'off',
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
};

/** Servers still running, so that an interrupted harness does not leave them behind. */
const running = new Set();
process.on('exit', () => {
  for (const server of running) server.killNow();
});
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  // process.exit runs the 'exit' listener above, which kills the servers.
  process.once(signal, () => process.exit(128 + number));
}

/**
 * Starts code-server on 127.0.0.1 with a random port and a throw-away profile, extensions
 * directory and TMPDIR (the server leaves vscode-ipc-*.sock files in its TMPDIR).
 * `stop()` kills the whole process group: killing only code-server's pid leaves its
 * fileWatcher child running. `env` adds variables to its environment (and its extension host's).
 */
export async function startCodeServer({ verbose = false, settings = {}, env = {} } = {}) {
  const bin = codeServerBin();
  mustBeExecutable(bin, `code-server not found at ${bin}: ${INSTALL_HINT}, or set CODE_SERVER_BIN`);
  const tmp = mkdtempSync(join(tmpdir(), 'probe-lens-e2e-'));
  mkdirSync(join(tmp, 'user-data', 'User'), { recursive: true });
  writeFileSync(join(tmp, 'user-data', 'User', 'settings.json'), JSON.stringify({ ...USER_SETTINGS, ...settings }, null, 2));
  mkdirSync(join(tmp, 'tmp'));
  // --config keeps code-server from writing ~/.config/code-server/config.yaml.
  writeFileSync(join(tmp, 'config.yaml'), 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');

  const child = spawn(
    bin,
    [
      '--config', join(tmp, 'config.yaml'),
      '--user-data-dir', join(tmp, 'user-data'),
      '--extensions-dir', join(tmp, 'extensions'),
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so stop() can kill all of it
      // An empty gallery turns the marketplace off: no open-vsx.org lookups without internet.
      // `env`: what the caller adds (KUBECONFIG for a test cluster); the extension host inherits it.
      env: { ...process.env, ...env, EXTENSIONS_GALLERY: '{"serviceUrl":""}', TMPDIR: join(tmp, 'tmp') },
    },
  );
  const exited = new Promise((done) => child.once('exit', done));
  let log = '';
  let stopped = false;
  const server = {
    pid: child.pid,
    port: 0,
    /** Where this code-server looks for installed extensions (a .vsix installed there is loaded). */
    extensionsDir: join(tmp, 'extensions'),
    log: () => log,
    /** Synchronous, for the process 'exit' listener. */
    killNow() {
      killGroup(child.pid, 'SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
      running.delete(server);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      killGroup(child.pid, 'SIGTERM');
      await Promise.race([exited, delay(5000)]);
      server.killNow();
    },
    /** A private copy of a workspace folder, so tests may edit files; deleted by stop(). */
    copyWorkspace(folder) {
      const copy = join(tmp, 'workspace', basename(resolve(folder)));
      cpSync(resolve(folder), copy, { recursive: true });
      return copy;
    },
  };
  running.add(server);

  try {
    server.port = await new Promise((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not listen within 60 s:\n${log}`)), 60_000);
      const onOutput = (chunk) => {
        log += chunk;
        if (verbose) process.stderr.write(`[code-server] ${chunk}`);
        const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
        if (match) {
          clearTimeout(timer);
          resolvePort(Number(match[1]));
        }
      };
      child.stdout.on('data', onOutput);
      child.stderr.on('data', onOutput);
      child.once('error', (error) => reject(new Error(`cannot start code-server (${bin}): ${error.message}`)));
      child.once('exit', (code) => reject(new Error(`code-server exited with ${code} before listening:\n${log}`)));
    });
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * The workbench URL for a folder, with an extension under development and optionally its tests
 * (the URL payload the web workbench reads instead of --extensionDevelopmentPath /
 * --extensionTestsPath, which code-server does not accept).
 */
export function workbenchUrl(port, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (path) => `vscode-remote://127.0.0.1:${port}${resolve(path)}`;
  const url = new URL(`http://127.0.0.1:${port}/`);
  // A .code-workspace file opens as a (multi-root) workspace, anything else as a folder.
  url.searchParams.set(folder.endsWith('.code-workspace') ? 'workspace' : 'folder', resolve(folder));
  const payload = [['extensionDevelopmentPath', remote(extensionDevelopmentPath)]];
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}

/**
 * Code 1.139 (code-server 4.139) ignores the URL payload unless
 * developmentOptions.enableSmokeTestDriver is set, and code-server has no flag for it; 1.100
 * does not need this. Patching the configuration as the workbench reads it (rather than
 * rewriting the HTML, which broke the WebSocket) keeps the harness working on a newer
 * CODE_SERVER_BIN.
 */
export async function enableDevelopmentPayload(page) {
  await page.addInitScript(() => {
    const getAttribute = Element.prototype.getAttribute;
    Element.prototype.getAttribute = function (name) {
      const value = getAttribute.call(this, name);
      if (name !== 'data-settings' || this.id !== 'vscode-workbench-web-configuration' || !value) return value;
      const config = JSON.parse(value);
      config.developmentOptions = { ...config.developmentOptions, enableSmokeTestDriver: true };
      return JSON.stringify(config);
    };
  });
}

export function seconds(sinceMs) {
  return `${((Date.now() - sinceMs) / 1000).toFixed(1)} s`;
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function delay(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

function mustBeExecutable(path, message) {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(message);
  }
}
