/**
 * `check` against the bare YAML parse it is built on. Goals (issue): at ≈10k lines the full check
 * costs ≤ 1.3× `parseAllDocuments` alone, it grows linearly (100k lines ≤ 11× the 10k time), and
 * checking loads no prober code. Everything is measured in one process and one run, so the ratio
 * compares like with like; the figures are printed, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import { checkText } from '../src/core/check';
import { DEFAULT_LIMITS, DEFAULT_MINOR_VERSION, parseManifest } from '../src/core/manifest';
import { readYamlFile } from '../src/core/manifest/yamlFile';
import { checkManifest } from '../src/core/rules/run';
import { generateManifest } from './generate';
import { median } from './stats';

export interface CheckBenchResult {
  readonly name: 'check';
  readonly rows: readonly SizeRow[];
  readonly goals: readonly Goal[];
}

interface SizeRow {
  readonly label: string;
  readonly lines: number;
  readonly documents: number;
  readonly containers: number;
  readonly findings: number;
  /** Medians in milliseconds. */
  readonly parse: number;
  readonly parseWithLineCounter: number;
  readonly check: number;
  /** Fastest runs: less sensitive to other processes on a busy machine. */
  readonly parseMin: number;
  readonly checkMin: number;
  /** Median over rounds of check/parse measured in the same round: the figure the goal uses. */
  readonly ratio: number;
  /** The same with CPU time instead of wall-clock time (information). */
  readonly cpuRatio: number;
  /** Where `check`'s time goes (medians, ms), measured at the goal size only. */
  readonly stages?: Stages;
}

interface Stages {
  /** readYamlFile: Parser + Composer with the checker's options (YAML 1.1, LineCounter). */
  readonly readYaml: number;
  /** parseManifest minus readYaml: the navigator and decoder building pod specs as each document is read. */
  readonly model: number;
  /** checkManifest on an already parsed manifest: every rule. */
  readonly rules: number;
}

interface Goal {
  readonly text: string;
  readonly pass: boolean;
}

const SIZES = [
  { label: '1k', lines: 1_000, runs: 36, warmups: 6, stages: false },
  { label: '10k', lines: 10_000, runs: 24, warmups: 3, stages: true },
  { label: '100k', lines: 100_000, runs: 6, warmups: 1, stages: false },
] as const;

const RATIO_GOAL = 1.3;
const GROWTH_GOAL = 11;

/**
 * Wall-clock and CPU time (all threads: GC helpers included) of one call, in ms. No forced GC
 * between runs: on a 2-core machine a forced full GC leaves concurrent GC work behind and makes
 * the heap regrow inside the next timed run, which inflated every figure by 1.5–2×.
 */
function time(fn: () => unknown): { wall: number; cpu: number } {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

interface Samples {
  /** One entry per measured round, in round order, so contenders can be paired by round. */
  readonly wall: number[];
  readonly cpu: number[];
}

/**
 * Runs the contenders in turn within each round (rather than all runs of one, then the other), so
 * a slow phase of the machine or the JIT hits all of them alike; the order rotates every round,
 * so no contender always pays for the garbage its fixed predecessor left.
 */
function measure<K extends string>(runs: number, warmups: number, contenders: Record<K, () => unknown>): Record<K, Samples> {
  const names = Object.keys(contenders) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, { wall: [], cpu: [] } as Samples])) as Record<K, Samples>;
  for (let round = 0; round < warmups + runs; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as K;
      const { wall, cpu } = time(contenders[name]);
      if (round >= warmups) {
        samples[name].wall.push(wall);
        samples[name].cpu.push(cpu);
      }
    }
  }
  return samples;
}

/** Median of the per-round ratios a/b: a machine slow for a moment slows both of a pair alike. */
function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((value, i) => value / (b[i] ?? Number.NaN)));
}

function measureSize(size: (typeof SIZES)[number]): SizeRow {
  const generated = generateManifest(size.lines);
  const { text } = generated;
  const file = 'bench.yaml';
  const findings = checkText(text, { file }).length;
  const manifest = parseManifest(text);
  const context = { minorVersion: DEFAULT_MINOR_VERSION };
  // At the goal size the stages of `check` run in the same rounds, so they compare with `parse`;
  // each is timed on its own input, so none is a difference of two noisy medians.
  const stageContenders = {
    readYaml: () => readYamlFile(text, DEFAULT_LIMITS, () => undefined),
    // The model is built inside the read (each document as it is composed): parseManifest − readYaml.
    model: () => parseManifest(text),
    rules: () => checkManifest(manifest, { file, context }),
  };
  const contenders: Record<string, () => unknown> = {
    parse: () => parseAllDocuments(text),
    parseWithLineCounter: () => parseAllDocuments(text, { lineCounter: new LineCounter() }),
    check: () => checkText(text, { file }),
    ...(size.stages ? stageContenders : {}),
  };
  const samples = measure(size.runs, size.warmups, contenders) as Record<'parse' | 'parseWithLineCounter' | 'check', Samples> &
    Partial<Record<keyof typeof stageContenders, Samples>>;
  let stages: Stages | undefined;
  if (samples.readYaml && samples.model && samples.rules) {
    const readYaml = median(samples.readYaml.wall);
    stages = { readYaml, model: Math.max(0, median(samples.model.wall) - readYaml), rules: median(samples.rules.wall) };
  }
  return {
    label: size.label,
    lines: generated.lines,
    documents: generated.documents,
    containers: generated.containers,
    findings,
    parse: median(samples.parse.wall),
    parseWithLineCounter: median(samples.parseWithLineCounter.wall),
    check: median(samples.check.wall),
    parseMin: Math.min(...samples.parse.wall),
    checkMin: Math.min(...samples.check.wall),
    ratio: pairedRatio(samples.check.wall, samples.parse.wall),
    cpuRatio: pairedRatio(samples.check.cpu, samples.parse.cpu),
    ...(stages ? { stages } : {}),
  };
}

const PROBER_MODULE = /[\\/]node_modules[\\/](undici|@grpc[\\/]grpc-js)[\\/]|[\\/]src[\\/]core[\\/]probers[\\/]/;

interface LoadedModules {
  /** Prober modules in require.cache: must be none. */
  readonly probers: string[];
  readonly total: number;
  /** The src/core areas loaded (information): `manifest`, `rules`, … */
  readonly coreAreas: string[];
}

function loadedModules(keys: readonly string[]): LoadedModules {
  const areas = new Set<string>();
  for (const key of keys) {
    const match = /[\\/]src[\\/]core[\\/]([^\\/]+)[\\/]/.exec(key);
    if (match?.[1]) areas.add(match[1]);
  }
  return { probers: keys.filter((k) => PROBER_MODULE.test(k)), total: keys.length, coreAreas: [...areas].sort() };
}

/**
 * Whether checking loads prober code (undici, @grpc/grpc-js, src/core/probers), asked twice: of
 * this process after all the check runs, and of a fresh node process that only checks a manifest
 * (so that benchmarks added to this run later cannot blur the answer).
 */
/**
 * `here`: the modules this process loaded while the benchmark checked (the runner itself has
 * loaded undici already, for the HTTP benchmark's baseline); `fresh`: all those a process that
 * only checks loads.
 */
function proberModulesLoadedByCheck(loadedBefore: ReadonlySet<string>): { here: LoadedModules; fresh: LoadedModules | { error: string } } {
  const here = loadedModules(Object.keys(require.cache).filter((module) => !loadedBefore.has(module)));
  const script = `
    const { checkText } = require(${JSON.stringify(join(__dirname, '..', 'src', 'core', 'check.js'))});
    const { generateManifest } = require(${JSON.stringify(join(__dirname, 'generate.js'))});
    checkText(generateManifest(300).text, { file: 'probe.yaml' });
    process.stdout.write(JSON.stringify(Object.keys(require.cache)));
  `;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (child.status !== 0) return { here, fresh: { error: (child.stderr || `exit ${child.status}`).trim().slice(0, 300) } };
  return { here, fresh: loadedModules(JSON.parse(child.stdout) as string[]) };
}

const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);

export function runCheckBenchmark(log: (line: string) => void = console.log): CheckBenchResult {
  const loadedBefore = new Set(Object.keys(require.cache));
  log('check: generated Deployments (2–4 containers, all three probes, env, ports, resources)');
  const rows = SIZES.map((size) => {
    const row = measureSize(size);
    log(`  ${row.label}: ${row.lines} lines, ${row.documents} documents, ${row.containers} containers, ${row.findings} findings — measured`);
    return row;
  });

  const header = ['size', 'lines', 'docs', 'parse ms', 'parse+lc ms', 'check ms', 'check/parse', '(cpu)', 'min: parse', 'check'];
  const table = rows.map((r) => [
    r.label,
    String(r.lines),
    String(r.documents),
    ms(r.parse),
    ms(r.parseWithLineCounter),
    ms(r.check),
    `${r.ratio.toFixed(2)}×`,
    `${r.cpuRatio.toFixed(2)}×`,
    ms(r.parseMin),
    ms(r.checkMin),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? '').length)));
  const format = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  log('');
  log(`  ${format(header)}`);
  for (const row of table) log(`  ${format(row)}`);
  log('  parse = yaml parseAllDocuments(text), default options; parse+lc = the same with {lineCounter} (information);');
  log('  check = checkText. Wall-clock medians after warm-up. check/parse = median of the per-round ratios (each round runs');
  log('  both); (cpu) = the same in process CPU time; min = the fastest runs.');
  for (const r of rows) {
    if (!r.stages) continue;
    const { readYaml, model, rules } = r.stages;
    const of = (n: number) => `${(n / r.parse).toFixed(2)}×`;
    log(
      `  where check's time goes at ${r.label} (stage medians / bare parse median): readYamlFile ${ms(readYaml)} ms ${of(readYaml)}` +
        ` + pod-spec model ${ms(model)} ms ${of(model)} + rules ${ms(rules)} ms ${of(rules)} = ${of(readYaml + model + rules)}`,
    );
  }

  const byLabel = (label: string) => rows.find((r) => r.label === label);
  const r10k = byLabel('10k');
  const r100k = byLabel('100k');
  const goals: Goal[] = [];
  if (r10k) {
    const { ratio } = r10k;
    goals.push({ text: `check/parse at 10k lines = ${ratio.toFixed(2)}× (goal ≤ ${RATIO_GOAL}×; CPU time ${r10k.cpuRatio.toFixed(2)}×)`, pass: ratio <= RATIO_GOAL });
  }
  if (r10k && r100k) {
    // Each size in a process of its own: in this one, the 100k runs follow the bare parse's
    // retained trees and pay for collecting them. The in-process figure is printed for information.
    const alone = (lines: number, runs: number) => {
      const child = spawnSync(process.execPath, [join(__dirname, 'checkAlone.js'), String(lines), String(runs)], { encoding: 'utf8' });
      return JSON.parse(child.stdout) as { median: number; min: number };
    };
    const small = alone(10_000, 15);
    const large = alone(100_000, 5);
    const growth = large.median / small.median;
    const lineGrowth = r100k.lines / r10k.lines;
    goals.push({
      text:
        `growth check(100k)/check(10k) = ${growth.toFixed(2)}× for ${lineGrowth.toFixed(2)}× the lines, each size in a fresh process ` +
        `(${small.median.toFixed(0)} → ${large.median.toFixed(0)} ms; goal ≤ ${GROWTH_GOAL}×; in this process: check ${(r100k.check / r10k.check).toFixed(2)}×, bare parse ${(r100k.parse / r10k.parse).toFixed(2)}×)`,
      pass: growth <= GROWTH_GOAL,
    });
  }
  const { here, fresh } = proberModulesLoadedByCheck(loadedBefore);
  const describeLoaded = (where: string, m: LoadedModules) =>
    `${where}: ${m.total} modules, src/core areas ${m.coreAreas.join(', ')}; ${m.probers.length ? `prober modules: ${m.probers.join(', ')}` : 'none from undici, @grpc/grpc-js or src/core/probers'}`;
  if ('error' in fresh) {
    goals.push({ text: `check loads no prober code: the fresh process failed (${fresh.error})`, pass: false });
  } else {
    goals.push({
      text: `check loads no prober code — ${describeLoaded('loaded by checking in this process', here)} | ${describeLoaded('a fresh process', fresh)}`,
      pass: here.probers.length === 0 && fresh.probers.length === 0,
    });
  }
  log('');
  for (const goal of goals) log(`  ${goal.pass ? 'PASS' : 'FAIL'}  ${goal.text}`);
  return { name: 'check', rows, goals };
}
