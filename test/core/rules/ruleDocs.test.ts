// The user documentation of every rule (docs/rules.md, the editor's rule page): complete, and
// its examples true — each manifest said to trigger a rule does, checked as `probe-lens check`
// checks it with the settings the docs show, and each corrected one does not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CheckOptions, checkText, parseKubernetesVersion } from '../../../src/core/check';
import { parseManifest, type ProbeModel } from '../../../src/core/manifest';
import { P04 } from '../../../src/core/rules/api/handler';
import { blocksOf, inlineSpans, RULE_DOCS, rulePage, type RuleExample } from '../../../src/core/rules/docs';
import { RULE_INFO } from '../../../src/core/rules/registry';
import type { Finding } from '../../../src/core/rules/types';

/** Checks an example the way the editor does with the settings it declares. */
function checkExample(example: RuleExample): Finding[] {
  const options: Partial<CheckOptions> = {};
  const { kubernetesVersion, expectedStartupSeconds } = example.settings ?? {};
  if (kubernetesVersion !== undefined) {
    const minorVersion = parseKubernetesVersion(kubernetesVersion);
    assert.ok(minorVersion !== undefined, `an example's kubernetesVersion must be one the setting accepts: ${kubernetesVersion}`);
    Object.assign(options, { minorVersion });
  }
  if (expectedStartupSeconds !== undefined) Object.assign(options, { expectedStartupSeconds });
  return checkText(example.yaml, { file: 'example.yaml', ...options });
}

function describe(findings: readonly Finding[]): string {
  return findings.map((f) => `${f.rule}: ${f.message}`).join('\n') || 'no findings';
}

for (const info of RULE_INFO.values()) {
  const doc = RULE_DOCS.get(info.id);

  test(`${info.id}: documented with what it means, why it matters, an example that triggers it and a corrected one`, () => {
    assert.ok(doc, `${info.id} has no entry in src/core/rules/docs`);
    assert.ok(doc.name.length >= 8 && doc.name.length <= 50 && !doc.name.endsWith('.'), `${info.id} name: "${doc.name}"`);
    assert.ok(doc.means.length >= 40, `${info.id}: what it means`);
    assert.ok(doc.why.length >= 40, `${info.id}: why it matters`);
    for (const example of [doc.bad, doc.good]) {
      assert.ok(example.caption.length > 3, `${info.id}: an example without a caption`);
      assert.match(example.yaml, /^(apiVersion: [^\n]+\nkind: \w+\n)/, `${info.id}: an example is a complete manifest`);
    }
    assert.notEqual(doc.bad.yaml, doc.good.yaml, `${info.id}: the corrected example differs`);
  });

  if (!doc) continue;

  if (doc.onlyWithoutDefaulting) {
    test(`${info.id}: as its docs say, the API server's defaulting makes the example valid, and the rule reports it without that defaulting`, () => {
      assert.deepEqual(checkExample(doc.bad).map((f) => f.rule), [], describe(checkExample(doc.bad)));
      assert.equal(info.id, 'P04', 'only P04 is known to be unreachable through defaulting; another rule needs its own check here');
      const probe = onlyProbe(doc.bad.yaml);
      const raw = probe.spec.httpGet?.path;
      assert.equal(raw, '', 'the example writes an empty path');
      const handler = probe.effective.handler;
      assert.equal(handler?.type, 'httpGet');
      const undefaulted: ProbeModel = Object.create(probe, { effective: { value: { ...probe.effective, handler: { ...handler, path: raw } } } });
      assert.deepEqual(P04.check(undefaulted, { minorVersion: 33 }).map((issue) => issue.path), ['spec.containers[0].readinessProbe.httpGet.path']);
    });
  } else {
    test(`${info.id}: the documented example that triggers it does, with no other finding than those its docs name`, () => {
      const findings = checkExample(doc.bad);
      assert.ok(findings.some((f) => f.rule === info.id), `${info.id} not reported for its example; got:\n${describe(findings)}`);
      const also = new Set(doc.bad.alsoTriggers ?? []);
      const others = findings.filter((f) => f.rule !== info.id);
      assert.deepEqual(others.filter((f) => !also.has(f.rule)), [], `findings the docs do not mention:\n${describe(others)}`);
      for (const rule of also) assert.ok(others.some((f) => f.rule === rule), `the docs say ${rule} is reported too, but it is not`);
    });
  }

  test(`${info.id}: the corrected example has no finding at all`, () => {
    assert.equal(doc.good.alsoTriggers, undefined, 'a corrected example triggers nothing');
    const findings = checkExample(doc.good);
    assert.deepEqual(findings, [], describe(findings));
  });
}

test('every documented rule is a registered rule', () => {
  assert.deepEqual([...RULE_DOCS.keys()].filter((id) => !RULE_INFO.has(id)), []);
});

test('the docs name no document a user does not have (the specifications behind the rules)', () => {
  for (const [id, doc] of RULE_DOCS) {
    const text = JSON.stringify(doc);
    assert.doesNotMatch(text, /validation-rules|kubelet-probes|design\.md|§/, id);
  }
});

test('the docs use only the Markdown both renderers understand: paragraphs, "- " lists, `code`, **bold**', () => {
  for (const info of RULE_INFO.values()) {
    const doc = RULE_DOCS.get(info.id);
    if (!doc) continue;
    const texts = rulePage(info, doc).sections.flatMap((section) => section.blocks.flatMap((block) => (block.type === 'paragraph' ? [block.text] : block.type === 'list' ? block.items : [])));
    for (const text of texts) {
      for (const span of inlineSpans(text).filter((s) => s.kind === 'text' || s.kind === 'strong')) {
        assert.doesNotMatch(span.text, /[`*]|\]\(|^#|<\/?[a-z]/i, `${info.id}: markup neither renderer handles in "${span.text}"`);
      }
    }
  }
});

test('an example\'s other findings are registered rules, and the text links every rule id it names', () => {
  for (const [id, doc] of RULE_DOCS) {
    for (const rule of doc.bad.alsoTriggers ?? []) assert.ok(RULE_INFO.has(rule) && rule !== id, `${id}: ${rule}`);
  }
  assert.deepEqual(inlineSpans('see P06 and `P06`, not P99'), [
    { kind: 'text', text: 'see ' },
    { kind: 'rule', text: 'P06' },
    { kind: 'text', text: ' and ' },
    { kind: 'code', text: 'P06' },
    { kind: 'text', text: ', not P99' },
  ]);
  assert.deepEqual(blocksOf('One.\n\n- a\n- b\n\nTwo\nlines.'), [
    { type: 'paragraph', text: 'One.' },
    { type: 'list', items: ['a', 'b'] },
    { type: 'paragraph', text: 'Two lines.' },
  ]);
});

function onlyProbe(yaml: string): ProbeModel {
  const probes = parseManifest(yaml).documents.flatMap((d) => d.podSpecs.flatMap((p) => p.containers.flatMap((c) => c.probes)));
  assert.equal(probes.length, 1);
  return probes[0] as ProbeModel;
}
