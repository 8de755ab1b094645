import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { rulesMarkdown } from '../../src/cli/format/ruleDocs';
import { RULE_INFO } from '../../src/core/rules/registry';

test('docs/rules.md is the registry, regenerated (npm run docs)', () => {
  assert.equal(readFileSync('docs/rules.md', 'utf8'), rulesMarkdown(Array.from(RULE_INFO.values())));
});

test('every registered rule has a one-line title and a spec reference', () => {
  for (const rule of RULE_INFO.values()) {
    assert.match(rule.id, /^[YPDL]\d{2}$/, rule.id);
    assert.ok(rule.title.length > 10 && !rule.title.includes('\n'), rule.id);
    assert.match(rule.reference, /(validation-rules|kubelet-probes|design)\.md/, rule.id);
  }
});
