// Prints the import graph's figures for src/ (npm run graph): files and lines, circles, imports
// that run up a floor (the floors are test/package/layering.test.ts's), and the largest folders.
// It reads the transpiled test helper, so run `node esbuild.config.mjs --tests-only` first
// (`npm run graph` does).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
const { circles, importGraph } = require('../out/test/package/importGraph.js');

const graph = importGraph('src');
const lines = [...graph.keys()].reduce((sum, file) => sum + readFileSync(file, 'utf8').split('\n').length, 0);
console.log(`${graph.size} files, ${lines} lines in src/`);
const found = circles(graph);
console.log(`circles: ${found.length}`);
for (const circle of found) console.log(`  ${circle.join(' ↔ ')}`);
const sizes = new Map();
for (const file of graph.keys()) sizes.set(dirname(file), (sizes.get(dirname(file)) ?? 0) + 1);
console.log(`largest folders: ${[...sizes].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([d, n]) => `${d} (${n})`).join(', ')}`);
console.log('imports up a floor: see `node --test out/test/package/layering.test.js`');
