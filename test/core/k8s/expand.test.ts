import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandCommand, expandStatic } from '../../../src/core/k8s/expand';
import type { EnvVar } from '../../../src/core/manifest';

test('E5: the spec example — a defined name expands, an undefined one stays verbatim', () => {
  assert.deepEqual(expandCommand(['echo', 'some $(A) $(B)'], [{ name: 'A', value: 'script' }]), ['echo', 'some script $(B)']);
});

test('E5: an env entry defined by valueFrom expands to "" (defined, no literal value)', () => {
  const env: EnvVar[] = [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }];
  assert.equal(expandStatic('curl http://$(POD_IP):8080/', env), 'curl http://:8080/');
});

test('E5: a name defined twice takes the last value (v1EnvVarsToMap assigns in list order)', () => {
  const env: EnvVar[] = [
    { name: 'A', value: 'first' },
    { name: 'A', value: 'second' },
  ];
  assert.equal(expandStatic('$(A)', env), 'second');
  assert.equal(expandStatic('$(A)', [{ name: 'A', value: 'literal' }, { name: 'A', valueFrom: { secretKeyRef: {} } }]), '');
});

test('E5: with an empty env nothing is replaced, only $$ is unescaped', () => {
  assert.equal(expandStatic('$(A) $$(A) $$ $x $(', []), '$(A) $(A) $ $x $(');
  assert.deepEqual(expandCommand([], []), []);
  assert.equal(expandStatic('', []), '');
});

test('E5: names are whatever lies between "$(" and the first ")" — odd characters included', () => {
  const env: EnvVar[] = [
    { name: 'A B', value: 'space' },
    { name: 'a.b-c', value: 'dotted' },
    { name: 'é', value: 'accent' },
    { name: '', value: 'empty-name' },
    { name: 'A$(B', value: 'nested' },
  ];
  assert.equal(expandStatic('$(A B)', env), 'space');
  assert.equal(expandStatic('$(a.b-c)', env), 'dotted');
  assert.equal(expandStatic('$(é)', env), 'accent');
  assert.equal(expandStatic('$()', env), 'empty-name');
  assert.equal(expandStatic('$(A$(B))', env), 'nested)');
  // An entry with no name is Go's zero value "", which is what `$()` looks up.
  assert.equal(expandStatic('[$()]', [{ value: 'nameless' }]), '[nameless]');
  assert.equal(expandStatic('[$()]', []), '[$()]');
});

test('E5: values are inserted verbatim, never expanded again', () => {
  const env: EnvVar[] = [
    { name: 'A', value: 'x' },
    { name: 'REF', value: '$(A)' },
    { name: 'DOLLARS', value: '$$' },
  ];
  assert.equal(expandStatic('$(REF)', env), '$(A)');
  assert.equal(expandStatic('$(DOLLARS)', env), '$$');
});

test('E5: non-ASCII characters next to the operator are copied intact (rune-aware upstream)', () => {
  assert.equal(expandStatic('5$€ $é $😀 $(A)😀', [{ name: 'A', value: 'ä' }]), '5$€ $é $😀 ä😀');
});

test('E5: expandCommand expands each argument separately', () => {
  const env: EnvVar[] = [{ name: 'PORT', value: '8080' }];
  assert.deepEqual(expandCommand(['sh', '-c', 'nc -z localhost $(PORT)', '$(PORT'], env), ['sh', '-c', 'nc -z localhost 8080', '$(PORT']);
});

/** The table of upstream `expand_test.go` (doExpansionTest), case for case. */
const UPSTREAM_ENV: EnvVar[] = [
  { name: 'VAR_A', value: 'A' },
  { name: 'VAR_B', value: 'B' },
  { name: 'VAR_C', value: 'C' },
  { name: 'VAR_REF', value: '$(VAR_A)' },
  { name: 'VAR_EMPTY', value: '' },
];
const UPSTREAM_CASES: readonly (readonly [name: string, input: string, expected: string])[] = [
  ['whole string', '$(VAR_A)', 'A'],
  ['repeat', '$(VAR_A)-$(VAR_A)', 'A-A'],
  ['beginning', '$(VAR_A)-1', 'A-1'],
  ['middle', '___$(VAR_B)___', '___B___'],
  ['end', '___$(VAR_C)', '___C'],
  ['compound', '$(VAR_A)_$(VAR_B)_$(VAR_C)', 'A_B_C'],
  ['escape & expand', '$$(VAR_B)_$(VAR_A)', '$(VAR_B)_A'],
  ['compound escape', '$$(VAR_A)_$$(VAR_B)', '$(VAR_A)_$(VAR_B)'],
  ['mixed in escapes', 'f000-$$VAR_A', 'f000-$VAR_A'],
  ['backslash escape ignored', 'foo\\$(VAR_C)bar', 'foo\\Cbar'],
  ['backslash escape ignored (2)', 'foo\\\\$(VAR_C)bar', 'foo\\\\Cbar'],
  ['lots of backslashes', 'foo\\\\\\\\$(VAR_A)bar', 'foo\\\\\\\\Abar'],
  ['nested var references', '$(VAR_A$(VAR_B))', '$(VAR_A$(VAR_B))'],
  ['nested var references second type', '$(VAR_A$(VAR_B)', '$(VAR_A$(VAR_B)'],
  ['value is a reference', '$(VAR_REF)', '$(VAR_A)'],
  ['value is a reference x 2', '%%$(VAR_REF)--$(VAR_REF)%%', '%%$(VAR_A)--$(VAR_A)%%'],
  ['empty var', 'foo$(VAR_EMPTY)bar', 'foobar'],
  ['unterminated expression', 'foo$(VAR_Awhoops!', 'foo$(VAR_Awhoops!'],
  ['expression without operator', 'f00__(VAR_A)__', 'f00__(VAR_A)__'],
  ['shell special vars pass through', '$?_boo_$!', '$?_boo_$!'],
  ['bare operators are ignored', '$VAR_A', '$VAR_A'],
  ['undefined vars are passed through', '$(VAR_DNE)', '$(VAR_DNE)'],
  ['multiple (even) operators, var undefined', '$$$$$$(BIG_MONEY)', '$$$(BIG_MONEY)'],
  ['multiple (even) operators, var defined', '$$$$$$(VAR_A)', '$$$(VAR_A)'],
  ['multiple (odd) operators, var undefined', '$$$$$$$(GOOD_ODDS)', '$$$$(GOOD_ODDS)'],
  ['multiple (odd) operators, var defined', '$$$$$$$(VAR_A)', '$$$A'],
  ['missing open expression', '$VAR_A)', '$VAR_A)'],
  ['shell syntax ignored', '${VAR_A}', '${VAR_A}'],
  ['trailing incomplete expression not consumed', '$(VAR_B)_______$(A', 'B_______$(A'],
  ['trailing incomplete expression, no content, is not consumed', '$(VAR_C)_______$(', 'C_______$('],
  ['operator at end of input string is preserved', '$(VAR_A)foobarzab$', 'Afoobarzab$'],
  ['shell escaped incomplete expr', 'foo-\\$(VAR_A', 'foo-\\$(VAR_A'],
  ['lots of $( in middle', '--$($($($($--', '--$($($($($--'],
  ['lots of $( in beginning', '$($($($($--foo$(', '$($($($($--foo$('],
  ['lots of $( at end', 'foo0--$($($($(', 'foo0--$($($($('],
  ['escaped operators in variable names are not escaped', '$(foo$$var)', '$(foo$$var)'],
  ['newline not expanded', '\n', '\n'],
];

for (const [name, input, expected] of UPSTREAM_CASES) {
  test(`E5: upstream expand_test.go — ${name}`, () => {
    assert.equal(expandStatic(input, UPSTREAM_ENV), expected);
  });
}

test('E5: "$(" runs to the first ")"; an unclosed one is copied and scanning resumes after the "("', () => {
  const env: EnvVar[] = [{ name: 'A', value: 'x' }];
  // The name here is `$(A`, which is undefined: the whole reference is copied back.
  assert.equal(expandStatic('$($(A)', env), '$($(A)');
  // No ")" follows, so "$(" is copied and the "$$" after it is still unescaped.
  assert.equal(expandStatic('$($$', env), '$($');
  assert.equal(expandStatic('$(A', env), '$(A');
  assert.equal(expandStatic('$', env), '$');
  assert.equal(expandStatic('$$', env), '$');
  assert.equal(expandStatic('$$$', env), '$$');
  assert.equal(expandStatic('$$(A)', env), '$(A)');
  assert.equal(expandStatic('$(A)$', env), 'x$');
  assert.equal(expandStatic('(($(A)))', env), '((x))');
});
