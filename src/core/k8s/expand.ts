import type { EnvVar } from '../manifest';

/**
 * The kubelet's static `$(VAR)` expansion of an exec probe's command (docs/spec/kubelet-probes.md E1, E5):
 * `ExpandContainerCommandOnlyStatic` in `pkg/kubelet/container/helpers.go` over the algorithm of
 * `third_party/forked/golang/expansion/expand.go`. Ported step by step rather than as a regular
 * expression, because its edge cases are what a user sees:
 * - `$$` is an escaped `$`, so `$$(A)` → `$(A)` and `$$$(A)` → `$` + the value of A;
 * - `$(` starts a reference that runs to the *first* `)`; whatever is in between is the name, so
 *   `$(A$(B))` looks up the name `A$(B` (undefined → left as `$(A$(B)`, the last `)` copied as is);
 * - a `$(` with no `)` anywhere after it is copied and scanning resumes right after the `(`;
 * - `$` followed by anything else is copied with that character (`$x`, `${A}`, `$?`);
 * - a `$` that is the last character is copied;
 * - values are inserted verbatim: a value that itself contains `$(B)` is not expanded again.
 *
 * Only the `$`, `(` and `)` code units ever matter and none of them can be half of a surrogate
 * pair, so walking UTF-16 code units copies every other character intact. That matches the
 * current upstream, which decodes the rune after a `$`; older releases (before the `utf8` fix)
 * converted the *byte* after `$` with `string(byte)`, mangling `$é` into invalid UTF-8, and that
 * bug is deliberately not reproduced (a JavaScript string cannot carry those bytes anyway).
 */
export function expandStatic(text: string, env: readonly EnvVar[]): string {
  return expand(text, staticMapping(env));
}

/** One `expandStatic` per argument, the way the kubelet maps over `exec.command`. */
export function expandCommand(command: readonly string[], env: readonly EnvVar[]): string[] {
  const mapping = staticMapping(env);
  return command.map((argument) => expand(argument, mapping));
}

const OPERATOR = '$';
const OPENER = '(';
const CLOSER = ')';

/**
 * `v1EnvVarsToMap` + `MappingFuncFor`: the map is built by assigning `result[env.Name] =
 * env.Value` in list order, so when a name repeats the *last* entry wins. Only the literal `value`
 * is used: an entry defined by `valueFrom` has no literal value and maps to "" (it is defined, so
 * it does not stay verbatim). A missing name is Go's zero value "", which `$()` can look up.
 */
function staticMapping(env: readonly EnvVar[]): (name: string) => string {
  const values = new Map<string, string>();
  for (const entry of env) {
    values.set(typeof entry.name === 'string' ? entry.name : '', typeof entry.value === 'string' ? entry.value : '');
  }
  return (name) => values.get(name) ?? OPERATOR + OPENER + name + CLOSER;
}

/** `expansion.Expand`, with its cursor/checkpoint bookkeeping kept so the two can be compared. */
function expand(input: string, mapping: (name: string) => string): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    // A `$` as the very last character is not an operator: it is copied with the tail below.
    if (input[cursor] !== OPERATOR || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const { read, isVar, advance } = tryReadVariableName(input.slice(cursor + 1));
    out += isVar ? mapping(read) : read;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

/** `tryReadVariableName`: `input` starts just after a `$` and is never empty. */
function tryReadVariableName(input: string): { read: string; isVar: boolean; advance: number } {
  const first = input[0] as string;
  if (first === OPERATOR) return { read: OPERATOR, isVar: false, advance: 1 };
  if (first === OPENER) {
    const close = input.indexOf(CLOSER, 1);
    if (close >= 0) return { read: input.slice(1, close), isVar: true, advance: close + 1 };
    // Unterminated: emit `$(` and advance past the `(` only, so a later `$` is still seen.
    return { read: OPERATOR + OPENER, isVar: false, advance: 1 };
  }
  // Upstream copies the whole rune after `$`; copying one code unit is the same, because the
  // second half of a surrogate pair is then copied by the next checkpoint slice.
  return { read: OPERATOR + first, isVar: false, advance: 1 };
}
