import assert from 'node:assert/strict';
import { checkText, type CheckOptions } from '../../src/core/check';
import { applyTextEdits } from '../../src/core/text/edits';
import type { Finding } from '../../src/core/rules/types';

/** Findings for a YAML text, as `probe-lens check` computes them. */
export function check(yaml: string, options: Partial<CheckOptions> = {}): Finding[] {
  return checkText(yaml, { file: 'test.yaml', ...options });
}

/** Findings of one rule. */
export function findingsOf(rule: string, yaml: string, options: Partial<CheckOptions> = {}): Finding[] {
  return check(yaml, options).filter((f) => f.rule === rule);
}

/** `rule path` pairs: the shape most rule tables assert on. */
export function rulePaths(yaml: string, options: Partial<CheckOptions> = {}): string[] {
  return check(yaml, options).map((f) => `${f.rule} ${f.path}`);
}

/** Indents every line of a block by `spaces`. */
export function indent(block: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return block
    .trim()
    .split('\n')
    .map((line) => (line.length ? pad + line : line))
    .join('\n');
}

/** A Pod whose only container is `web` with the given YAML (fields under the container). */
export function podWith(containerFields: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: web
      image: nginx
${indent(containerFields, 6)}
`;
}

/** A Pod with the given YAML under `spec:` (containers, initContainers, …). */
export function podSpec(specFields: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
${indent(specFields, 2)}
`;
}

/** The text of a finding's range, to check it points at the right token. */
export function textAt(yaml: string, finding: Finding): string {
  const lines = yaml.split('\n');
  const { start, end } = finding.range;
  if (start.line === end.line) return (lines[start.line] ?? '').slice(start.character, end.character);
  return [(lines[start.line] ?? '').slice(start.character), ...lines.slice(start.line + 1, end.line), (lines[end.line] ?? '').slice(0, end.character)].join('\n');
}

/** The text after a finding's (first) quick fix, as the editor applies it. */
export function applyFix(yaml: string, finding: Finding | undefined): string {
  const fix = finding?.fixes?.[0];
  assert.ok(fix, 'finding has a fix');
  return applyTextEdits(yaml, fix.edits);
}
