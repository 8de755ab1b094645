/**
 * The timeline panel in a real VS Code (code-server + headless Chromium, see test/e2e): one full
 * redraw at 100 000 events against the same panel with none, and the time to first paint of
 * recordings of 10, 100 and 1 000 pods × 3 probes × 24 h (BENCH_TIMELINE_FIRST_PAINT_PODS picks
 * others). Driven by `test/e2e/uiTest.mjs --bench`, which reads the webview's own measurements;
 * its figures are printed as they come. The engine's lateness with the panel open is measured by
 * the `extension` benchmark (bench/extension/timeline.vstest.ts).
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

export async function runTimelinePanelBenchmark(log: (line: string) => void): Promise<void> {
  log('timeline-panel — the panel inside a real VS Code (Chromium)');
  const root = resolve(__dirname, '..', '..');
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, [join(root, 'test/e2e/uiTest.mjs'), '--only', 'timeline benchmark', '--bench'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let pending = '';
    let figures = false;
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('timeline benchmark (')) figures = true;
        else if (figures && /^ {2,}\S/.test(line)) log(line);
        else if (/^\s*✘|passed, \d+ failed/.test(line)) log(`  ${line.trim()}`);
      }
    });
    child.on('close', (status) => done(status ?? 1));
  });
  if (code !== 0) log(`  the UI run exited with ${code} (is code-server installed? \`npm run test:extension\` installs it)`);
}
