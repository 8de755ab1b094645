// `npm test` after the build: the set-up, the node tests, then the extension tests, while the 10-minute
// cluster soak (test/soak/) runs beside them — it is mostly waiting on a period, and one core of
// two is idle under node's test runner. The soak runs from a copy of the transpiled tests of its
// own (out-soak/), since the extension step rebuilds out/. Each suite prints its own closing
// line; the soak's output comes last, whole, then one line naming what failed. Exit 1 if any did.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOAK_DIR = 'out-soak';

/** Runs a command to its end, its output shown as it comes (`inherit`) or kept (`capture`). */
function run(command, args, { capture = false, env = process.env } = {}) {
  const child = spawn(command, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
  let output = '';
  if (capture) {
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
  }
  const done = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output })));
  return { child, done };
}

function testFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...testFiles(path));
    else if (name.endsWith('.test.js')) found.push(path);
  }
  return found.sort();
}

// What the tests need beyond npm ci, installed by the project's own scripts before any suite
// starts: code-server and Chromium (the extension tests, and the node tests that open a page in
// Chromium, which would otherwise skip on a fresh machine), helm and kubectl (the chart and
// overlay tests). Each is idempotent and costs well under a second once done.
for (const [command, args] of [
  ['bash', ['test/e2e/install-code-server.sh']],
  [process.execPath, ['scripts/install-renderers.mjs']],
]) {
  const installed = await run(command, args).done;
  if (installed.code !== 0) {
    console.log(`failed: set-up (${[command, ...args].join(' ')})`);
    process.exit(1);
  }
}

const transpiled = await run(process.execPath, ['esbuild.config.mjs', '--tests-only', `--outdir=${SOAK_DIR}`]).done;
if (transpiled.code !== 0) process.exit(transpiled.code);
const soak = run(process.execPath, ['--test', '--test-reporter=spec', join(SOAK_DIR, 'test/soak/clusterSoak.soak.js')], { capture: true });

const failed = [];
const unit = await run(process.execPath, ['--test', '--test-reporter=spec', ...testFiles('out/test')]).done;
if (unit.code !== 0) failed.push('node tests');
else {
  const extension = await run('npm', ['run', 'test:extension']).done;
  if (extension.code !== 0) failed.push('extension tests');
}
if (failed.length > 0) soak.child.kill('SIGTERM');
const soaked = await soak.done;
process.stdout.write(`\n── cluster soak (${SOAK_DIR}/test/soak/clusterSoak.soak.js) ──\n${soaked.output}`);
if (soaked.code !== 0 && failed.length === 0) failed.push('cluster soak');
console.log(failed.length === 0 ? 'all suites passed: node tests, extension tests, cluster soak' : `failed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
