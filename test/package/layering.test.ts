import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return Array.from(text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g), (m) => m[1] ?? m[2] ?? m[3] ?? '');
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
// code. Of core it may reach only the timeline's pure model (and types, which vanish when bundled).
test('src/webview and src/shared import only each other, core/timeline, and core types', () => {
  for (const file of [...sources('src/webview'), ...sources('src/shared')]) {
    const text = readFileSync(file, 'utf8');
    for (const target of imports(file)) {
      assert.notEqual(target, 'vscode', `${file} imports vscode`);
      assert.doesNotMatch(target, /^node:|^(fs|path|child_process|net|http|https|os)$/, `${file} imports ${target}`);
      assert.doesNotMatch(target, /(^|\/)(extension|cli)(\/|$)/, `${file} imports ${target}`);
      const typeOnly = new RegExp(`import\\s+type\\s[^;]*?from\\s+['"]${target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`).test(text);
      if (/\/core\//.test(target) && !typeOnly) assert.match(target, /\/core\/timeline\//, `${file} imports ${target} (only core/timeline may be bundled into the webview)`);
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
  for (const expected of ['vscode', './diagnostics']) assert.ok(seen.includes(expected), `${expected} not among ${seen.join(', ')}`);
});
