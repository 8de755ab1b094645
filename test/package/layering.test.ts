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

// design.md §1: core never imports vscode, the extension, the CLI, or the DOM.
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

test('the layering scan itself sees imports (it would catch a stray one)', () => {
  const seen = imports('src/extension/extension.ts');
  for (const expected of ['vscode', './diagnostics']) assert.ok(seen.includes(expected), `${expected} not among ${seen.join(', ')}`);
});
