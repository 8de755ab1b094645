/**
 * What kubectl accepts, Probe Lens accepts; what it refuses gets a Y01 error. kubectl cuts a file
 * at its `---` lines and hands each piece to sigs.k8s.io/yaml (go-yaml v2, non-strict). The
 * expected values below were recorded from that library (sigs.k8s.io/yaml 1.3.0 over
 * gopkg.in/yaml.v2 2.4.0, `yaml.YAMLToJSON` on each piece): `ok` with the JSON it produced, or
 * the error it gave.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/core/manifest';
import { readYamlFile } from '../../src/core/manifest/yamlFile';
import { check, podWith } from '../helpers/manifests';

interface GoVerdict {
  readonly name: string;
  readonly yaml: string;
  /** `sigs.k8s.io/yaml.YAMLToJSON`'s JSON, or its error. */
  readonly go: { json: unknown } | { error: string };
}

const VERDICTS: readonly GoVerdict[] = [
  // A quoted scalar's continuation lines may sit at (or left of) the key's column: libyaml's
  // scanner does not look at indentation inside quotes. YAML 1.2 and `yaml` refuse it.
  { name: "multi-line '…' closing at the key's column", yaml: `metadata:\n  annotations:\n    x: '[\n        {"a": 1}\n    ]'\nspec: {}\n`, go: { json: { metadata: { annotations: { x: '[ {"a": 1} ]' } }, spec: {} } } },
  { name: "multi-line '…' continued at column 0", yaml: `metadata:\n  annotations:\n    x: '[\n{"a": 1}\n]'\n`, go: { json: { metadata: { annotations: { x: '[ {"a": 1} ]' } } } } },
  { name: 'multi-line "…" continued left of its key', yaml: 'metadata:\n  annotations:\n    x: "a\n  b"\n', go: { json: { metadata: { annotations: { x: 'a b' } } } } },
  { name: "an escaped '' on a continued line", yaml: "a: 'it''s\n  ok'\n", go: { json: { a: "it's ok" } } },
  { name: 'a sequence item quoted over two lines at column 0', yaml: "- a\n- 'b\nc'\n", go: { json: ['a', 'b c'] } },
  // Flow collections ignore indentation in go-yaml too.
  { name: 'a flow sequence wrapped left of its key', yaml: 'spec:\n  containers:\n  - name: web\n    args: [a,\n  b]\n', go: { json: { spec: { containers: [{ name: 'web', args: ['a', 'b'] }] } } } },
  { name: 'a quoted item of a flow sequence at column 0', yaml: "spec:\n  containers:\n  - name: web\n    args: [a,\n'b\nc']\n", go: { json: { spec: { containers: [{ name: 'web', args: ['a', 'b c'] }] } } } },
  // go-yaml breaks lines at a lone CR (old Mac line ends).
  { name: 'lines ended by a lone CR', yaml: 'a: 1\rb: 2\r', go: { json: { a: 1, b: 2 } } },
  // Non-strict: the last value of a repeated key wins, without an error.
  { name: 'a repeated key', yaml: 'a: 1\na: 2\n', go: { json: { a: 2 } } },
  // What go-yaml refuses.
  { name: 'an unknown escape', yaml: 'a: "\\x"\n', go: { error: 'yaml: did not find expected hexdecimal number' } },
  { name: 'a key indented past its sibling', yaml: 'a:\n  b: x\n   c: y\n', go: { error: 'yaml: line 3: mapping values are not allowed in this context' } },
  { name: 'a block scalar line left of its indentation', yaml: 'a: |\n  x\n b\n', go: { error: 'yaml: line 2: did not find expected key' } },
  { name: 'a compact nested mapping', yaml: 'a: b: c\n', go: { error: 'yaml: mapping values are not allowed in this context' } },
  { name: 'a map key after sequence items', yaml: 'a:\n  - b\n  c: d\n', go: { error: "yaml: line 2: did not find expected '-' indicator" } },
  { name: 'a reserved character starting a plain scalar', yaml: 'key: @value\n', go: { error: 'yaml: found character that cannot start any token' } },
  { name: 'a tab as indentation', yaml: 'a:\n  b: 1\n\tc: 2\n', go: { error: 'yaml: line 3: found a tab character that violates indentation' } },
  { name: 'an undefined alias', yaml: 'a: *x\n', go: { error: "yaml: unknown anchor 'x' referenced" } },
  { name: 'an unclosed flow sequence', yaml: 'a: [1, 2\nb: 3\n', go: { error: "yaml: line 1: did not find expected ',' or ']'" } },
  { name: 'an unclosed quote', yaml: "a: 'x\nb: 3\n", go: { error: 'yaml: line 3: found unexpected end of stream' } },
];

/** Each document's syntax errors and, when it has none, its value. */
function read(text: string) {
  return readYamlFile(text, DEFAULT_LIMITS, (source, yaml) => ({ errors: source.errors, warnings: source.warnings, value: source.errors.length === 0 ? yaml?.toJS() : undefined })).documents;
}

describe('Y01: the same verdict as kubectl (go-yaml v2) on what is and is not YAML', () => {
  for (const verdict of VERDICTS) {
    test(`Y01: ${'error' in verdict.go ? 'refused' : 'accepted'} like kubectl: ${verdict.name}`, () => {
      const [document] = read(verdict.yaml);
      if ('error' in verdict.go) {
        assert.ok(document && document.errors.length > 0, `kubectl says ${verdict.go.error}`);
      } else {
        assert.deepEqual(document?.errors, []);
        assert.deepEqual(document?.value, verdict.go.json);
      }
    });
  }

  test("Y01: the repaired quote keeps the file's own positions: findings after it are on their lines", () => {
    // kubernetes/dashboard's init-container-error-pod.yaml, reduced.
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: init-container-error
  annotations:
    pod.beta.kubernetes.io/init-containers: '[
        {
            "name": "install"
        }
    ]'
spec:
  containers:
    - name: alpine
      image: alpine:3.4
      livenessProbe:
        tcpSocket: {port: 80}
        successThreshold: 2
`;
    const findings = check(text);
    assert.deepEqual(
      findings.map((f) => [f.rule, f.range.start.line, f.range.start.character, f.range.end.character]),
      [['P12', 16, 26, 27]],
    );
  });

  test('Y01: a quote that never closes is still an error, at the line kubectl names', () => {
    const text = `${podWith('args: [\'sleep')}\n`;
    const errors = check(text).filter((f) => f.rule === 'Y01');
    assert.ok(errors.length > 0);
    assert.ok(errors.every((f) => f.severity === 'error'));
  });

  test('Y01: an unclosed bracket is not "repaired" by pulling in the next document', () => {
    const text = `a: [1, 2\n---\nb: [3]\n`;
    const [first, second] = read(text);
    assert.ok((first?.errors.length ?? 0) > 0);
    assert.deepEqual(second?.value, { b: [3] });
  });
});

test('Y01: tags go-yaml takes without a word (!foo, !!foo) are no warning either', () => {
  for (const yaml of ['a: !foo {b: 1}\n', 'a: !!foo bar\n']) {
    const [document] = read(yaml);
    assert.deepEqual([document?.errors, document?.warnings], [[], []], yaml);
  }
});
