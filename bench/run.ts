/**
 * `npm run bench`: runs every benchmark in bench/ (or those named on the command line) and prints
 * their results. Benchmarks report; they do not fail the build — goals are printed as PASS/FAIL.
 */
import { runCheckBenchmark } from './check.bench';

interface Benchmark {
  readonly name: string;
  run(log: (line: string) => void): unknown;
}

const BENCHMARKS: readonly Benchmark[] = [{ name: 'check', run: runCheckBenchmark }];

function main(argv: readonly string[]): void {
  const wanted = argv.filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !BENCHMARKS.some((b) => b.name === w));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const selected = wanted.length > 0 ? BENCHMARKS.filter((b) => wanted.includes(b.name)) : BENCHMARKS;
  console.log(`probe-lens benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
  for (const benchmark of selected) {
    const start = performance.now();
    console.log('');
    benchmark.run((line) => console.log(line));
    console.log(`  (${benchmark.name}: ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  }
}

main(process.argv.slice(2));
