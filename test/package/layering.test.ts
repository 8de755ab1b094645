import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { circles, type Import, importGraph, importsOf, roomOf, sources } from './importGraph';

/** What a file imports, as written (one scan of the sources: importGraph.ts's). */
function imports(file: string): string[] {
  return importsOf(file).map((i) => i.specifier);
}

// docs/design.md §1: core never imports vscode, the extension, the CLI, or the DOM.
test('src/core imports neither vscode nor the extension, the CLI or the webview', () => {
  for (const file of sources('src/core')) {
    for (const target of imports(file)) {
      assert.notEqual(target, 'vscode', `${file} imports vscode`);
      assert.doesNotMatch(target, /(^|\/)(extension|cli|webview)(\/|$)/, `${file} imports ${target}`);
    }
  }
});

test('core is type-checked without the DOM library, so a DOM global in it fails the typecheck', () => {
  const config = JSON.parse(readFileSync('tsconfig.json', 'utf8')) as { compilerOptions: { lib: string[] } };
  assert.ok(!config.compilerOptions.lib.some((lib) => lib.toLowerCase().startsWith('dom')), config.compilerOptions.lib.join());
});

test('src/cli does not import vscode or the extension', () => {
  for (const file of sources('src/cli')) {
    for (const target of imports(file)) {
      assert.notEqual(target, 'vscode', `${file} imports vscode`);
      assert.doesNotMatch(target, /(^|\/)extension(\/|$)/, `${file} imports ${target}`);
    }
  }
});

// The webview runs in a browser sandbox: no vscode module, no node built-ins, no extension or CLI
// code. Of core it may reach only the timeline's pure model and core/text's pure words (and
// types, which vanish when bundled).
test('src/webview and src/shared import only each other, core/timeline, core/text, and core types', () => {
  for (const file of [...sources('src/webview'), ...sources('src/shared')]) {
    const text = readFileSync(file, 'utf8');
    for (const target of imports(file)) {
      assert.notEqual(target, 'vscode', `${file} imports vscode`);
      assert.doesNotMatch(target, /^node:|^(fs|path|child_process|net|http|https|os)$/, `${file} imports ${target}`);
      assert.doesNotMatch(target, /(^|\/)(extension|cli)(\/|$)/, `${file} imports ${target}`);
      const typeOnly = new RegExp(`import\\s+type\\s[^;]*?from\\s+['"]${target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`).test(text);
      if (/\/core\//.test(target) && !typeOnly) assert.match(target, /\/core\/(timeline|text)\//, `${file} imports ${target} (only core/timeline and core/text may be bundled into the webview)`);
    }
  }
});

test('src/core/timeline, bundled into the webview, takes only types from the rest of core', () => {
  for (const file of sources('src/core/timeline')) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:^|\n)import\s+(?!type\s)[^;]*?from\s+['"]([^'"]+)['"]/g)) {
      assert.match(match[1] ?? '', /^\.\/[^/]+$/, `${file} imports ${match[1]} at run time`);
    }
  }
});

test('the layering scan itself sees imports (it would catch a stray one)', () => {
  const seen = imports('src/extension/extension.ts');
  for (const expected of ['vscode', './editor/diagnostics']) assert.ok(seen.includes(expected), `${expected} not among ${seen.join(', ')}`);
});

// ─── Floors: which room may import which ───────────────────────────────────────────────────────
//
// Each layer's rooms (its first-level folders, and `.` for its top-level files) stand on floors,
// lowest first. A room imports only rooms on floors below its own, and itself; rooms on one floor
// never import each other. A new folder must be given a floor here, so the next arrow up fails
// this test rather than a review.

const FLOORS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'src/core': [
    ['base'], // Clock, Disposable, seeded random, child processes that cannot outlive their bounds
    ['text'], // ranges, edits, lines, Markdown/HTML escaping, durations in words
    ['manifest'], // reading YAML into models; where a field is written; ports, handler titles
    ['k8s'], // Kubernetes semantics without I/O: $(VAR) expansion, hosts, validation helpers
    ['probers'], // HTTP, TCP, gRPC, exec: one attempt each
    ['rules'], // the checks, their docs and the timing formulas
    ['fixes'], // quick fixes that need more than a rule's own edit
    ['render'], // charts and overlays rendered by the real helm and kubectl; findings placed back in their sources
    ['engine'], // the kubelet: workers, results, pod runtimes, the manager
    ['scenario'], // how a simulated app behaves
    ['targets'], // where attempts go: local, simulated (and the simulation)
    ['kubeclient'], // kubectl proxy, REST, watch, port-forward and exec streams
    ['cluster'], // probing in a cluster: pods followed, the kubelet's verdicts, the cluster target
    ['session'], // a session's snapshot and its words
    ['timeline'], // the timeline's events and view model (bundled into the webview)
    ['editor'], // what an editor shows: the incremental checker, hover and lens text
    ['history'], // what a recording holds and measures
    ['explain', 'recommend', 'replay', 'pause'], // the four questions, none asking another
    ['.'], // check.ts: the front door
  ],
  'src/extension': [
    ['base'], // settings, command ids, the webview page shell
    ['documents'], // the manifest models of open documents, positions
    ['safety'], // workspace trust, exec consent
    ['rendering'], // charts and overlays of open files, rendered as they are edited
    ['sessions'], // probing sessions and what they give the surfaces
    ['debug'], // the breakpoint guard
    ['tree'], // the Probes view
    ['timeline'], // the timeline panels
    ['commands'], // every command, registered in commands/registerCommands.ts
    ['editor'], // diagnostics, lenses, hovers, quick fixes, the status bar
    ['.'], // extension.ts and the wiring it calls: the composition root
  ],
  'src/webview/timeline': [
    ['model'], // DOM-free state
    ['words'], // what the panel says
    ['render'], // the canvas
    ['views'], // the DOM around it
    ['.'], // the app, its host channel, the test hooks
  ],
  'src/cli': [['format'], ['.']],
};

function floorOf(layer: string, room: string): number {
  const floor = (FLOORS[layer] ?? []).findIndex((rooms) => rooms.includes(room));
  assert.ok(floor >= 0, `${layer}/${room} has no floor in FLOORS (layering.test.ts): give it one`);
  return floor;
}

function upward(graph: ReadonlyMap<string, readonly Import[]>): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    const layer = Object.keys(FLOORS).find((l) => file.startsWith(`${l}/`));
    if (!layer) continue;
    const from = roomOf(file, layer);
    for (const { to } of imports) {
      if (to === undefined || !to.startsWith(`${layer}/`)) continue;
      const room = roomOf(to, layer);
      if (room === from) continue;
      if (floorOf(layer, room) >= floorOf(layer, from)) found.push(`${file} → ${to} (${layer}: ${from} may not import ${room})`);
    }
  }
  return found;
}

test('no circle of imports anywhere in src/, type-only imports included', () => {
  assert.deepEqual(circles(importGraph('src')), []);
});

test('no import runs up a floor or sideways within core, the extension, the webview and the CLI', () => {
  assert.deepEqual(upward(importGraph('src')), []);
});

test('the floor check and the circle check would catch a stray import', () => {
  const graph = new Map<string, Import[]>([
    ['src/core/text/a.ts', [{ from: 'src/core/text/a.ts', to: 'src/core/engine/b.ts', specifier: '../engine/b', typeOnly: true }]],
    ['src/core/engine/b.ts', [{ from: 'src/core/engine/b.ts', to: 'src/core/text/a.ts', specifier: '../text/a', typeOnly: false }]],
    ['src/core/explain/c.ts', [{ from: 'src/core/explain/c.ts', to: 'src/core/replay/d.ts', specifier: '../replay/d', typeOnly: false }]],
  ]);
  assert.deepEqual(circles(graph), [['src/core/engine/b.ts', 'src/core/text/a.ts']]);
  assert.deepEqual(upward(graph), ['src/core/text/a.ts → src/core/engine/b.ts (src/core: text may not import engine)', 'src/core/explain/c.ts → src/core/replay/d.ts (src/core: explain may not import replay)']);
  // The scan itself sees the repository's imports.
  assert.ok(importGraph('src').get('src/extension/extension.ts')?.some((i) => i.to === 'src/extension/editor/diagnostics.ts'));
});
