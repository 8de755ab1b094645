/**
 * One table of command ids (src/extension/base/commandIds.ts), held against what package.json
 * contributes and against where commands are registered: commands/ and nowhere else, each by its
 * table entry. (rust-analyzer keeps such a table in editors/code/src/main.ts.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { COMMANDS } from '../../src/extension/base/commandIds';
import { sources } from './importGraph';

interface Contributes {
  readonly commands: readonly { readonly command: string }[];
  readonly menus?: Readonly<Record<string, readonly { readonly command?: string }[]>>;
  readonly keybindings?: readonly { readonly command: string }[];
  readonly walkthroughs?: readonly { readonly steps: readonly { readonly description: string }[] }[];
}

const contributes = (JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: Contributes }).contributes;
const table = new Set<string>(Object.values(COMMANDS));

test('package.json contributes exactly the commands of the table', () => {
  assert.deepEqual(contributes.commands.map((c) => c.command).sort(), [...table].sort());
});

test('every menu, keybinding and walkthrough link names a command of the table', () => {
  const named = [
    ...Object.values(contributes.menus ?? {}).flatMap((items) => items.flatMap((item) => (item.command ? [item.command] : []))),
    ...(contributes.keybindings ?? []).map((k) => k.command),
    ...(contributes.walkthroughs ?? []).flatMap((w) => w.steps.flatMap((s) => Array.from(s.description.matchAll(/command:(probeLens\.[\w.]+)/g), (m) => m[1] ?? ''))),
  ].filter((id) => id.startsWith('probeLens.'));
  assert.ok(named.length > 0, 'the scan found the menus');
  for (const id of named) assert.ok(table.has(id), `${id} is not in base/commandIds.ts`);
});

test('commands are registered in src/extension/commands/ only, each once, by its table entry', () => {
  const registered: string[] = [];
  for (const file of sources('src/extension')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/registerCommand\(\s*([^,\s]+)/g)) {
      assert.match(file, /src\/extension\/commands\//, `${file} registers a command (${m[1]}): register it in commands/`);
      const key = /^COMMANDS\.(\w+)$/.exec(m[1] ?? '')?.[1];
      if (key) registered.push(key);
      else assert.equal(m[1], 'id', `${file}: registerCommand(${m[1]}) — name the command from COMMANDS`);
    }
    // Helpers that register through a local `register(id, …)` pass table entries to it.
    for (const m of text.matchAll(/\bregister\(\s*COMMANDS\.(\w+)/g)) registered.push(m[1] ?? '');
  }
  assert.deepEqual(registered.sort(), Object.keys(COMMANDS).sort());
});

test('no command id is written as a string outside the table (a renamed id cannot leave a caller behind)', () => {
  for (const file of sources('src')) {
    if (file.endsWith('base/commandIds.ts')) continue;
    for (const [n, line] of readFileSync(file, 'utf8').split('\n').entries()) {
      if (/^\s*(\*|\/\/)/.test(line)) continue;
      for (const m of line.matchAll(/'(probeLens\.[\w.]+)'/g)) assert.ok(!table.has(m[1] ?? ''), `${file}:${n + 1} writes '${m[1]}': use COMMANDS`);
    }
  }
});
