/**
 * `npm run bench`: runs every benchmark in bench/ (or those named on the command line) and prints
 * their results. Each measures a baseline in the same run and prints its goal as PASS/FAIL;
 * benchmarks report, they do not fail the build.
 */
import { runChartsBenchmark } from './charts.bench';
import { runCheckBenchmark } from './check.bench';
import { runClusterBenchmark } from './cluster.bench';
import { runExtensionBenchmark } from './extension.bench';
import { runHeapBenchmark } from './heap.bench';
import { runHttpBenchmark } from './http.bench';
import { runInsightsBenchmark } from './insights.bench';
import { runScheduleBenchmark } from './schedule.bench';
import { runSimulateBenchmark } from './simulate.bench';
import { runTimelineBenchmark } from './timeline.bench';
import { runTimelinePanelBenchmark } from './timelinePanel.bench';

interface Benchmark {
  readonly name: string;
  run(log: (line: string) => void): unknown;
}

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'check', run: runCheckBenchmark },
  { name: 'charts', run: runChartsBenchmark },
  { name: 'simulate', run: runSimulateBenchmark },
  { name: 'heap', run: runHeapBenchmark },
  { name: 'http', run: runHttpBenchmark },
  { name: 'cluster', run: runClusterBenchmark },
  { name: 'schedule', run: runScheduleBenchmark },
  { name: 'timeline', run: runTimelineBenchmark },
  { name: 'extension', run: runExtensionBenchmark },
  { name: 'timeline-panel', run: runTimelinePanelBenchmark },
  { name: 'insights', run: runInsightsBenchmark },
];

async function main(argv: readonly string[]): Promise<void> {
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
    await benchmark.run((line) => console.log(line));
    console.log(`  (${benchmark.name}: ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  }
}

void main(process.argv.slice(2));
