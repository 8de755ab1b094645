/**
 * The editing benchmarks that must run inside VS Code (bench/extension/*.vstest.ts): started
 * through the extension-host harness (code-server + headless Chromium, see test/e2e), which
 * `npm run test:extension` installs. Their lines are printed as they come.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Keep in step with CODE_SERVER_VERSION in test/e2e/lib.mjs (an ES module this CommonJS build cannot load). */
const CODE_SERVER_VERSION = '4.100.3';

/** Where the harness finds code-server: the same rule as `codeServerBin()` in test/e2e/lib.mjs. */
function codeServerBin(): string {
  const explicit = process.env['CODE_SERVER_BIN'];
  if (explicit) return resolve(explicit);
  const prefix = process.env['CODE_SERVER_PREFIX'] ?? join(homedir(), '.cache', `e2e-code-server-${CODE_SERVER_VERSION}`);
  return join(prefix, 'node_modules/.bin/code-server');
}

export async function runExtensionBenchmark(log: (line: string) => void): Promise<void> {
  log(`extension — editing inside a real VS Code extension host (code-server ${CODE_SERVER_VERSION})`);
  const bin = codeServerBin();
  if (!existsSync(bin)) {
    log(`  skipped: code-server is not installed at ${bin}; \`npm run test:extension\` installs it (or set CODE_SERVER_BIN / CODE_SERVER_PREFIX)`);
    return;
  }
  const root = resolve(__dirname, '..', '..');
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, [join(root, 'test/e2e/runExtensionTests.mjs'), '--timeout', '600'], {
      cwd: root,
      env: { ...process.env, PROBE_LENS_VSTEST_DIR: join(root, 'out/bench/extension') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      // The benchmark's own lines are indented; the harness's are its progress.
      for (const line of lines) if (/^ {2,}\S/.test(line) || /passed, \d+ failed/.test(line)) log(line.startsWith('  ✔') ? `  ${line.trim()}` : line);
    });
    child.on('close', (status) => done(status ?? 1));
  });
  if (code !== 0) log(`  the extension-host run exited with ${code}`);
}
