/**
 * The editing benchmarks that must run inside VS Code (bench/extension/*.vstest.ts): started
 * through the extension-host harness (code-server + headless Chromium, see test/e2e), which
 * `npm run test:extension` installs. Their lines are printed as they come.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const CODE_SERVER = join(homedir(), '.cache', 'e2e-code-server-4.100.3', 'node_modules', '.bin', 'code-server');

export async function runExtensionBenchmark(log: (line: string) => void): Promise<void> {
  log('extension — editing inside a real VS Code extension host (code-server 4.100.3)');
  if (!existsSync(CODE_SERVER) && !process.env['CODE_SERVER_BIN']) {
    log('  skipped: code-server is not installed; `npm run test:extension` installs it');
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
