// Builds the shipped bundles into dist/ and, with --with-tests, transpiles src/, test/ and bench/
// file by file into out/ so `node --test` can import any module (no bundling, no type check:
// `npm run typecheck` does that). --tests-only skips the bundles; --outdir=DIR transpiles into
// DIR instead of out/ (for several test runs at once).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = new Set(process.argv.slice(2));
const watch = args.has('--watch');
const production = args.has('--production');
const testsOnly = args.has('--tests-only');
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'out';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

const common = {
  bundle: true,
  define: { PROBE_LENS_VERSION: JSON.stringify(version) },
  sourcemap: !production,
  minify: production,
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * Probers are their own files (dist/probers/*.js), reached only through the dynamic imports of the
 * local target: `check` and an idle extension never parse undici or grpc-js (~1 MB).
 */
const PROBERS = ['http', 'tcp', 'grpc', 'exec'];
const lazyProbers = {
  name: 'lazy-probers',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^\\.\\./probers/(${PROBERS.join('|')})$`) }, (args) => ({ path: `./probers/${args.path.split('/').pop()}.js`, external: true }));
  },
};

const bundles = [
  // The extension host loads CommonJS; `vscode` is provided by the host.
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', external: ['vscode'], plugins: [lazyProbers] },
  // No `vscode` external: a stray import of it from core or cli fails this build (design §1).
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' }, plugins: [lazyProbers] },
  {
    ...common,
    entryPoints: Object.fromEntries(PROBERS.map((name) => [name, `src/core/probers/${name}.ts`])),
    outdir: 'dist/probers',
    platform: 'node',
    format: 'cjs',
  },
  // The timeline's browser code: the panel's webview and the CLI's HTML page load the same file.
  // Chromium 120+: VS Code 1.100's Electron and Debian's Chromium both are newer.
  { ...common, entryPoints: ['src/webview/timeline/main.ts'], outfile: 'dist/webview/timeline.js', platform: 'browser', format: 'iife', target: 'chrome120' },
];

/**
 * The webview's icons, copied next to the bundles: a packaged extension has no node_modules, and
 * webviews may only load from dist/ and media/ (localResourceRoots).
 */
function copyCodicons() {
  const from = 'node_modules/@vscode/codicons/dist';
  mkdirSync('dist/codicons', { recursive: true });
  for (const name of ['codicon.css', 'codicon.ttf']) copyFileSync(join(from, name), join('dist/codicons', name));
  // The icons are CC BY 4.0: their licence travels with them.
  copyFileSync('node_modules/@vscode/codicons/LICENSE', 'dist/codicons/LICENSE');
}

function listSources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listSources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

async function buildTests() {
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: ['src', 'test', 'bench'].flatMap(listSources),
    outdir,
    outbase: '.',
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // As in the bundles, a lazy `import('../probers/http')` becomes a `require`: node's ESM
    // loader would refuse the extension-less path.
    supported: { 'dynamic-import': false },
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

if (watch) {
  copyCodicons();
  const contexts = await Promise.all(bundles.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.error('esbuild: watching src/ …');
} else {
  if (!testsOnly) {
    await Promise.all(bundles.map((options) => esbuild.build(options)));
    copyCodicons();
  }
  if (testsOnly || args.has('--with-tests')) await buildTests();
}
