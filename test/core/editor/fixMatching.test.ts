import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixesOf, problemOf } from '../../../src/core/editor/fixMatching';
import { type CheckSettings, IncrementalChecker } from '../../../src/core/editor/incrementalChecker';
import { presentFindings } from '../../../src/core/rules/present';

const SETTINGS: CheckSettings = { disabledRules: new Set(), context: { minorVersion: 33 } };

const TEXT = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: web
      image: nginx
      ports: [{name: http, containerPort: 8080}]
      livenessProbe:
        httpGet: {path: /healthz, port: "8080"}
        successThreshold: 2
`;

test('a published diagnostic leads back to its problem by rule, words and range, and to its fixes, the likeliest first', () => {
  const snapshot = new IncrementalChecker('web.yaml').check(TEXT, SETTINGS);
  const problems = presentFindings(snapshot.findings);
  const p12 = problems.find((p) => p.primary.rule === 'P12');
  assert.ok(p12, problems.map((p) => p.primary.rule).join());
  const published = { rule: 'P12', message: p12.headline, range: p12.primary.range };
  assert.deepEqual(problemOf(snapshot, published), p12);
  const fixes = fixesOf(p12, snapshot, TEXT);
  assert.ok(fixes.length > 0);
  assert.match(fixes[0]?.title ?? '', /successThreshold/);
});

test('a diagnostic of an older version (other words, a moved range, another rule) matches nothing: its edits would land in the wrong place', () => {
  const snapshot = new IncrementalChecker('web.yaml').check(TEXT, SETTINGS);
  const p12 = presentFindings(snapshot.findings).find((p) => p.primary.rule === 'P12');
  assert.ok(p12);
  const { range } = p12.primary;
  assert.equal(problemOf(snapshot, { rule: 'P12', message: `${p12.headline} (old)`, range }), undefined);
  assert.equal(problemOf(snapshot, { rule: 'P12', message: p12.headline, range: { start: { line: range.start.line + 1, character: 0 }, end: range.end } }), undefined);
  assert.equal(problemOf(snapshot, { rule: 'P07', message: p12.headline, range }), undefined);
});
