/**
 * `check` over a folder of 10 Helm charts against the renders it cannot do without. Goal (issue
 * 21): the whole check — every chart rendered, checked, and its findings placed by a proof render
 * — within 1.2× the sum of one `helm template` of each chart, run one after another in the same
 * run (renders run in parallel up to the cores, so the proofs ride on the second core). The
 * charts are `helm create`'s, each with a different probe mistake, made by the real helm; the
 * figures are printed, never asserted.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats';

interface Goal {
  readonly text: string;
  readonly pass: boolean;
}

export interface ChartsBenchResult {
  readonly name: 'charts';
  readonly charts: number;
  readonly findings: number;
  /** Medians in milliseconds. */
  readonly sumOfRenders: number;
  readonly check: number;
  readonly ratio: number;
  readonly goals: readonly Goal[];
}

const ROUNDS = 5;

/** Ten probe mistakes, one per chart, each written where chart authors write them (values.yaml). */
const MISTAKES: readonly ((values: string) => string)[] = [
  (v) => v,
  (v) => v.replace('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: http\n  successThreshold: 2\n'),
  (v) => v.replace('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: http\n  timeoutSeconds: 30\n'),
  (v) => v.replace('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: metrics\n'),
  (v) => v.replace('readinessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'readinessProbe:\n  httpGet:\n    path: /\n    port: "8080"\n'),
  (v) => v.replace('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: http\n  failureThreshold: 1\n'),
  (v) => v.replace('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  exec:\n    command: ["curl -f localhost/healthz"]\n'),
  (v) => v.replace('readinessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'readinessProbe:\n  httpGet:\n    path: /\n    port: http\n  initialDelaySeconds: 60\n'),
  (v) => v.replace('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: http\n  periodSeconds: 0\n'),
  (v) => v.replace('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  tcpSocket:\n    port: http\n  initialDelaySeconds: -1\n'),
];

export function runChartsBenchmark(log: (line: string) => void = console.log): ChartsBenchResult | undefined {
  let helm: string;
  try {
    helm = (JSON.parse(readFileSync('.renderers.json', 'utf8')) as { helm4: { path: string } }).helm4.path;
  } catch {
    log('charts: skipped — no .renderers.json (run node scripts/install-renderers.mjs; npm run bench does)');
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-bench-charts-'));
  try {
    const env = { ...process.env, HELM_NO_PLUGINS: '1' };
    const roots = MISTAKES.map((mistake, i) => {
      const name = `app${i}`;
      execFileSync(helm, ['create', name], { cwd: dir, env, stdio: 'ignore' });
      const values = join(dir, name, 'values.yaml');
      writeFileSync(values, mistake(readFileSync(values, 'utf8')));
      return join(dir, name);
    });
    const renderAll = () => {
      const start = performance.now();
      for (const root of roots) execFileSync(helm, ['template', 'release-name', root, '--kube-version', 'v1.33.0'], { env, stdio: ['ignore', 'ignore', 'ignore'] });
      return performance.now() - start;
    };
    let findings = 0;
    const checkAll = () => {
      const start = performance.now();
      const result = spawnSync(process.execPath, ['dist/cli.js', 'check', dir, '--helm', helm, '--format', 'json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const ms = performance.now() - start;
      findings = (JSON.parse(result.stdout) as { findings: unknown[] }).findings.length;
      return ms;
    };
    renderAll();
    checkAll(); // warm the file cache and helm's own
    const sums: number[] = [];
    const checks: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const sum = renderAll();
      const check = checkAll();
      sums.push(sum);
      checks.push(check);
      ratios.push(check / sum);
    }
    const ratio = median(ratios);
    const goals = [{ text: `check of ${roots.length} charts ≤ 1.2× the sum of their renders: ${ratio.toFixed(2)}× (${availableParallelism()} cores)`, pass: ratio <= 1.2 }];
    log(`charts: ${roots.length} charts from helm create, each with a probe mistake in values.yaml; ${findings} findings, each placed by a proof render`);
    log(`  sum of ${roots.length} helm template, one after another: ${median(sums).toFixed(0)} ms (median of ${ROUNDS})`);
    log(`  probe-lens check of the folder (a process: start, render, check, prove, place): ${median(checks).toFixed(0)} ms`);
    log(`  check / sum of renders: ${ratio.toFixed(2)} (median of the per-round ratios)`);
    log('');
    for (const goal of goals) log(`  ${goal.pass ? 'PASS' : 'FAIL'}  ${goal.text}`);
    return { name: 'charts', charts: roots.length, findings, sumOfRenders: median(sums), check: median(checks), ratio, goals };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
