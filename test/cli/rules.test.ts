// `probe-lens rules`: the documentation users read (docs/rules.md is its markdown output).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { RULE_INFO } from '../../src/core/rules/registry';

function rules(format: string): { code: number | null; stdout: string } {
  const result = spawnSync(process.execPath, ['dist/cli.js', 'rules', '--format', format], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout };
}

/** The text of one rule's section: from its anchor to the next anchor (or the end). */
function section(markdown: string, id: string): string {
  const start = markdown.indexOf(`<a id="${id.toLowerCase()}"></a>`);
  assert.ok(start >= 0, `no anchor for ${id}`);
  const next = markdown.indexOf('<a id="', start + 1);
  return markdown.slice(start, next < 0 ? undefined : next);
}

test('rules --format markdown: one section per rule, with an anchor that is its id, the heading right after it', () => {
  const { code, stdout } = rules('markdown');
  assert.equal(code, 0);
  for (const id of RULE_INFO.keys()) {
    assert.match(stdout, new RegExp(`^<a id="${id.toLowerCase()}"></a>\\n\\n### ${id} — \\S`, 'm'), id);
  }
  assert.equal(stdout.match(/^<a id="/gm)?.length, RULE_INFO.size);
});

test('rules --format markdown: each rule says what it means, why it matters, shows a triggering and a corrected manifest, and how to turn it off', () => {
  const { stdout } = rules('markdown');
  for (const id of RULE_INFO.keys()) {
    const text = section(stdout, id);
    assert.match(text, /\*\*What it means\.\*\* \S/, id);
    assert.match(text, /\*\*Why it matters\.\*\* \S/, id);
    assert.match(text, /\*\*Triggers it\.\*\* [^\n]+\n\n(Checked with [^\n]+\n\n)?```yaml\napiVersion: /, id);
    assert.match(text, /\*\*Does not trigger it\.\*\* [^\n]+\n\n(Checked with [^\n]+\n\n)?```yaml\napiVersion: /, id);
    assert.ok(text.includes(`\`probe-lens check --disable ${id} FILE…\``), `${id}: the CLI flag`);
    assert.ok(text.includes(`"probeLens.disabledRules": ["${id}"]`), `${id}: the setting`);
  }
  // An example checked with a setting shows it.
  assert.match(section(stdout, 'L26'), /Checked with `probeLens\.kubernetesVersion` set to `1\.23` \(`--kubernetes-version 1\.23` on the command line\)\./);
});

test('rules --format markdown: an introduction on turning rules off, an index linking every rule, and nothing users do not have', () => {
  const { stdout } = rules('markdown');
  assert.match(stdout, /## Turning rules off\n\n- In VS Code: the `probeLens\.disabledRules` setting/);
  assert.match(stdout, /- On the command line: `probe-lens check --disable L03,L15 FILE…`/);
  for (const id of RULE_INFO.keys()) assert.ok(stdout.includes(`| [${id}](#${id.toLowerCase()}) |`), `index row of ${id}`);
  // References to the specifications behind the rules stay in `--format json` for developers.
  assert.doesNotMatch(stdout, /validation-rules|kubelet-probes|design\.md|§|Reference:/);
  // Rule ids in the text link to their sections.
  assert.match(section(stdout, 'L04'), /Probe Lens also reports \[P06\]\(#p06\) here/);
});

test('rules --format json: every rule with its registry entry and its documentation', () => {
  const { code, stdout } = rules('json');
  assert.equal(code, 0);
  const parsed = JSON.parse(stdout) as { schemaVersion: number; rules: { id: string; reference: string; doc: { name: string; means: string; why: string; bad: { yaml: string }; good: { yaml: string } } }[] };
  assert.equal(parsed.schemaVersion, 1);
  assert.deepEqual(parsed.rules.map((r) => r.id), [...RULE_INFO.keys()]);
  for (const rule of parsed.rules) {
    assert.ok(rule.reference.length > 0, rule.id);
    assert.ok(rule.doc.name && rule.doc.means && rule.doc.why && rule.doc.bad.yaml && rule.doc.good.yaml, rule.id);
  }
});

test('check --format sarif: each rule\'s help is its documentation, with no pointer to documents users do not have', () => {
  const result = spawnSync(process.execPath, ['dist/cli.js', 'check', 'examples/web-deployment.yaml', '--format', 'sarif'], { encoding: 'utf8' });
  const driver = JSON.parse(result.stdout).runs[0].tool.driver as { rules: { id: string; fullDescription: { text: string }; help: { text: string; markdown: string } }[] };
  assert.deepEqual(driver.rules.map((r) => r.id), [...RULE_INFO.keys()]);
  for (const rule of driver.rules) {
    assert.doesNotMatch(JSON.stringify([rule.fullDescription, rule.help]), /validation-rules|kubelet-probes|design\.md|§|docs\/rules\.md/, rule.id);
    assert.match(rule.help.text, new RegExp(`^${rule.id} — `), rule.id);
    assert.match(rule.help.markdown, /\*\*What it means\.\*\* [\s\S]*\*\*Triggers it\.\*\* [\s\S]*```yaml\n[\s\S]*\*\*Turn it off\.\*\* /, rule.id);
  }
  // Rule ids stay plain text there: a link to a section of docs/rules.md would lead nowhere beside an alert.
  assert.match(driver.rules.find((r) => r.id === 'L04')?.help.markdown ?? '', /Probe Lens also reports P06 here/);
});
