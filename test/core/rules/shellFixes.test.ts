/**
 * L19 and L20 reason about how a shell reads its argv, and their quick fixes rewrite commands.
 * A fix must never turn a working probe into a broken one, so these tests run the argv before
 * and after, with the shells exec probes really meet: /bin/sh (dash on Debian) and bash.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { shellScriptIndex, shellWord } from '../../../src/core/rules/runtime/shellInvocation';
import { applyFix, findingsOf, podWith } from '../../helpers/manifests';
import { scratchDir } from '../../helpers/scratch';

const SHELLS = ['/bin/sh', '/bin/bash'].filter((shell) => existsSync(shell));
const work = scratchDir('probe-lens-shell-');
after(() => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, 'status'), 'all good\nready\n');
writeFileSync(join(work, 'a.ready'), '');

/** Runs an exec probe's argv as the runtime does (no shell of its own): exit code and stdout. */
function run(argv: readonly string[]): { code: number | null; stdout: string } {
  const [program, ...args] = argv as [string, ...string[]];
  const result = spawnSync(program, args, { cwd: work, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work } });
  return { code: result.status, stdout: result.stdout };
}

function commandOf(yaml: string): string[] {
  return (parse(yaml) as { spec: { containers: { livenessProbe: { exec: { command: string[] } } }[] } }).spec.containers[0]?.livenessProbe.exec.command ?? [];
}

const probeWith = (command: readonly string[]) => podWith(`livenessProbe:\n  exec:\n    command: ${JSON.stringify(command)}`);

describe('L20: what the shells really do with sh -c and the arguments after it', () => {
  for (const shell of SHELLS) {
    test(`L20: ${shell} -c -e "script" runs the script with -e set (no finding)`, () => {
      const argv = [shell, '-c', '-e', 'false; echo not reached'];
      assert.deepEqual(findingsOf('L20', probeWith(argv)), []);
      assert.deepEqual(run(argv), { code: 1, stdout: '' }, '-e is an option: the script stops at false');
      assert.equal(shellScriptIndex(argv), 3);
    });

    test(`L20: ${shell} -c with the command split over arguments: only the first runs; the fix runs them all, and means the same`, () => {
      const broken = [shell, '-c', '-e', 'grep', '-c', 'ok|ready', 'status'];
      assert.deepEqual(run(broken), { code: 2, stdout: '' }, 'grep alone, with no pattern: usage error');
      const [finding] = findingsOf('L20', probeWith(broken));
      assert.ok(finding);
      const fixed = commandOf(applyFix(probeWith(broken), finding));
      assert.deepEqual(fixed, [shell, '-c', '-e', "grep -c 'ok|ready' status"], 'the options stay where they were');
      // What the author meant: grep -c "ok|ready" status, as one argv. Two lines hold neither
      // "ok|ready" literally, so the count is 0 and grep exits 1, as the argv would.
      assert.deepEqual(run(fixed), run(['grep', '-c', 'ok|ready', 'status']));
    });

    test(`L20: ${shell} -c with a script that reads $1: the arguments are meant (no finding)`, () => {
      const argv = [shell, '-c', 'test -f "$1" && echo yes', 'probe', 'a.ready'];
      assert.deepEqual(findingsOf('L20', probeWith(argv)), []);
      assert.deepEqual(run(argv), { code: 0, stdout: 'yes\n' });
    });
  }
});

describe('L19: the sh -c fix runs what the argv meant', () => {
  const CASES: readonly { argv: readonly string[]; expected: { code: number; stdout: string } }[] = [
    { argv: ['grep', '-q', 'all good', 'status', '&&', 'echo', 'found'], expected: { code: 0, stdout: 'found\n' } },
    { argv: ['ls', './*.ready'], expected: { code: 0, stdout: './a.ready\n' } },
    { argv: ['test', '-f', '$HOME/status', '&&', 'echo', 'home'], expected: { code: 0, stdout: 'home\n' } },
    { argv: ['printf', '%s|%s\\n', '$(echo a b)', "it's"], expected: { code: 0, stdout: "a b|it's\n" } },
  ];
  for (const { argv, expected } of CASES) {
    for (const shell of SHELLS) {
      test(`L19: ${JSON.stringify(argv)} through ${shell}`, () => {
        const [finding] = findingsOf('L19', probeWith(argv));
        assert.ok(finding, 'L19 fires');
        const fixed = commandOf(applyFix(probeWith(argv), finding));
        assert.deepEqual(fixed.slice(0, 2), ['sh', '-c']);
        assert.deepEqual(run([shell, ...fixed.slice(1)]), expected);
      });
    }
  }

  test('shellWord: each argument stays one word, operators stay operators, expansions still expand', () => {
    for (const shell of SHELLS) {
      const words = ['plain', 'all good', 'ok|ready', '%s\\n', "it's", '"quoted"', 'a;b', '#hash'];
      const script = `printf '[%s]' ${words.map(shellWord).join(' ')}`;
      assert.equal(run([shell, '-c', script]).stdout, words.map((w) => `[${w}]`).join(''), shell);
    }
    assert.equal(shellWord('|'), '|');
    assert.equal(shellWord('$HOME/x'), '$HOME/x');
    assert.equal(shellWord('$(date +%s)'), '"$(date +%s)"');
  });
});
