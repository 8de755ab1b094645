/**
 * `node out/bench/checkAlone.js LINES RUNS`: times `checkText` alone on a generated manifest, in a
 * process of its own, and prints `{median, min}` in ms. The growth goal is judged on these: in
 * the shared benchmark process each size inherits the heap and garbage of everything before it.
 */
import { checkText } from '../src/core/check';
import { generateManifest } from './generate';
import { median } from './stats';

function main(lines: number, runs: number): void {
  const { text } = generateManifest(lines);
  checkText(text, { file: 'bench.yaml' });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    checkText(text, { file: 'bench.yaml' });
    times.push(performance.now() - start);
  }
  process.stdout.write(`${JSON.stringify({ median: median(times), min: Math.min(...times) })}\n`);
}

if (require.main === module) main(Number(process.argv[2]), Number(process.argv[3]));
