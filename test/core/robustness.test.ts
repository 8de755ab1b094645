/**
 * The manifest reader never throws and never runs away (issue: "a YAML syntax error is a finding
 * with its range; a Helm-templated document is skipped with one info finding; an alias bomb, a
 * 50 MB file, a 10 000-document file all finish in bounded time and memory with a clear finding
 * where a limit was hit"). Time bounds here are generous ceilings so CI cannot hang, not benchmarks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_LIMITS, type ManifestLimits } from '../../src/core/manifest';
import type { Finding } from '../../src/core/rules/types';
import { assertFindingsWellFormed, assertLimitHidesTheRest, checkInChild, seededBytes } from '../helpers/invariants';
import { check, podWith } from '../helpers/manifests';

/** A valid Pod whose one problem (P12) proves its document was checked. */
const CHECKED_POD = podWith(`livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2`);

const limits = (overrides: Partial<ManifestLimits>): ManifestLimits => ({ ...DEFAULT_LIMITS, ...overrides });

/** Checks, asserts the invariants every finding must hold, and times it. */
function checked(text: string, options: { limits?: ManifestLimits } = {}): { findings: Finding[]; ms: number } {
  const start = performance.now();
  const findings = check(text, options);
  const ms = performance.now() - start;
  assertFindingsWellFormed(text, findings);
  assertLimitHidesTheRest(findings);
  return { findings, ms };
}

/** How long the yaml library alone takes to read `text` (what the check cannot be faster than). */
function bareParseMs(text: string): number {
  const start = performance.now();
  parseAllDocuments(text);
  return performance.now() - start;
}

const rulesOf = (findings: readonly Finding[], doc?: number) => findings.filter((f) => doc === undefined || f.doc === doc).map((f) => f.rule);
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle));
const heapMb = () => process.memoryUsage().heapUsed / (1024 * 1024);

/** A broken Pod, then CHECKED_POD: the broken document is doc 0, the good one doc 1. */
function brokenThenGood(brokenSpec: string): string {
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: broken\nspec:\n${brokenSpec}---\n${CHECKED_POD}`;
}

/** Y01 findings of doc 0 only, the P12 of doc 1 still there, and nothing else. */
function assertOnlySyntaxErrorsThenChecked(findings: readonly Finding[]): Finding[] {
  const errors = findings.filter((f) => f.doc === 0);
  assert.ok(errors.length > 0, 'the broken document has findings');
  for (const f of errors) {
    assert.equal(f.rule, 'Y01', `only syntax errors in a broken document, got ${f.rule}: ${f.message}`);
    assert.equal(f.severity, 'error');
    assert.match(f.message, /^YAML: /);
  }
  assert.deepEqual(rulesOf(findings, 1), ['P12'], 'the valid document after the broken one is still checked');
  return errors;
}

/** True when some finding's range starts on, or spans, the 0-based `line`. */
const covers = (f: Finding, line: number) => f.range.start.line <= line && line <= f.range.end.line;

describe('Y01: YAML syntax errors are findings with their range, never exceptions', () => {
  test('Y01: an unclosed flow sequence is an error where the sequence should have ended; the next document is still checked', () => {
    const text = brokenThenGood('  containers:\n    - name: web\n      image: nginx\n      command: [sh, -c, "sleep 1"\n      ports: []\n');
    const errors = assertOnlySyntaxErrorsThenChecked(checked(text).findings);
    const open = lineOf(text, 'command: [');
    // Reported at the first line that cannot continue the sequence (the next key), not at EOF.
    assert.ok(
      errors.some((f) => f.range.start.line === open || f.range.start.line === open + 1),
      `an error on line ${open} or ${open + 1}: ${JSON.stringify(errors)}`,
    );
    assert.ok(errors.some((f) => /Flow sequence/.test(f.message)));
  });

  test('Y01: an unclosed flow sequence at the end of a document is reported inside the file', () => {
    const text = brokenThenGood('  containers: [ {name: web, image: nginx}\n');
    const errors = assertOnlySyntaxErrorsThenChecked(checked(text).findings);
    const open = lineOf(text, 'containers: [');
    assert.ok(errors.every((f) => f.range.start.line >= open && f.range.start.line <= open + 1), JSON.stringify(errors));
  });

  test('Y01: a key indented deeper than its sibling is an error spanning that line', () => {
    const text = brokenThenGood('  containers:\n    - name: web\n       image: nginx\n');
    const errors = assertOnlySyntaxErrorsThenChecked(checked(text).findings);
    const bad = lineOf(text, '       image: nginx');
    assert.ok(errors.some((f) => covers(f, bad)), `an error covering line ${bad}: ${JSON.stringify(errors)}`);
  });

  test('Y01: a key indented shallower than its sibling is an error on that line', () => {
    const text = brokenThenGood('  containers:\n    - name: web\n   image: nginx\n');
    const errors = assertOnlySyntaxErrorsThenChecked(checked(text).findings);
    const bad = lineOf(text, '   image: nginx');
    assert.ok(errors.some((f) => f.range.start.line === bad && /same column/.test(f.message)), JSON.stringify(errors));
  });

  test('Y01: tab indentation is an error on the line of the tab', () => {
    const text = brokenThenGood('  containers:\n    - name: web\n\t  image: nginx\n');
    const errors = assertOnlySyntaxErrorsThenChecked(checked(text).findings);
    const bad = lineOf(text, '\t  image');
    assert.ok(errors.some((f) => f.range.start.line === bad && f.range.start.character === 0 && /Tabs/.test(f.message)), JSON.stringify(errors));
  });

  test('Y01: a duplicate key is a warning on the value kubectl drops, and the document is checked with the last one', () => {
    // sigs.k8s.io/yaml (go-yaml v2, non-strict): `{"imagePullPolicy":"Never"}`, no error; the probe's
    // repeated successThreshold is read as its last value, 2.
    const text = podWith('imagePullPolicy: Always\nimagePullPolicy: Never\nlivenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 1\n  successThreshold: 2');
    const { findings } = checked(text);
    const duplicates = findings.filter((f) => f.rule === 'Y01');
    assert.deepEqual(
      duplicates.map((f) => [f.severity, f.range.start.line, f.range.start.character, f.range.end.character]),
      [
        ['warning', lineOf(text, 'imagePullPolicy: Always'), 6, 21],
        ['warning', lineOf(text, 'successThreshold: 1'), 8, 24],
      ],
    );
    assert.equal(duplicates[0]?.message, 'YAML: key "imagePullPolicy" is set again on the next line: kubectl keeps only the last value and drops this one without a word (kustomize and Flux refuse the file)');
    const p12 = findings.find((f) => f.rule === 'P12');
    assert.equal(p12?.message, 'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1');
    assert.equal(p12?.range.start.line, lineOf(text, 'successThreshold: 2'));
  });

  test('Y01: a broken document between two valid ones is the only one not checked', () => {
    const text = `${CHECKED_POD}---\nkind: Pod\nspec:\n  containers: [\n---\n${CHECKED_POD}`;
    const { findings } = checked(text);
    assert.deepEqual(rulesOf(findings, 0), ['P12']);
    assert.ok(rulesOf(findings, 1).length > 0 && rulesOf(findings, 1).every((r) => r === 'Y01'));
    assert.deepEqual(rulesOf(findings, 2), ['P12']);
  });

  test('Y01: an undefined alias is "unknown anchor" at the alias, as go-yaml says', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers: *nope\n`;
    const { findings } = checked(text);
    assert.deepEqual(rulesOf(findings), ['Y01']);
    const [f] = findings;
    assert.match(f?.message ?? '', /unknown anchor 'nope' referenced/);
    assert.equal(f?.range.start.line, 5);
    assert.equal(f?.range.start.character, text.split('\n')[5]?.indexOf('*nope'));
  });

  test('Y01: an alias used before its anchor is an unknown anchor too', () => {
    const text = `kind: Pod\nspec:\n  containers: *c\nlater: &c [{name: web, image: nginx}]\n`;
    const { findings } = checked(text);
    assert.deepEqual(rulesOf(findings), ['Y01']);
    assert.match(findings[0]?.message ?? '', /unknown anchor 'c'/);
    assert.equal(findings[0]?.range.start.line, 2);
  });

  test('a flow-map entry without a value ({name: web, image}) in a document with aliases is checked, not thrown on', () => {
    const text = `kind: Pod\nspec:\n  containers:\n    - {name: web, image}\n    - name: b\n      image: b\n      livenessProbe: &p {tcpSocket: {port: 1}}\n      readinessProbe: *p\n`;
    const { findings } = checked(text);
    assert.ok(findings.every((f) => !f.rule.startsWith('Y')), JSON.stringify(findings));
  });

  test('Y01: tiny inputs with a valueless pair next to an alias ({*, ? *a, {a, *b}) are findings, not exceptions', () => {
    for (const text of ['{*', '? *a', '{a, *b}', 'x: &b 1\ny: {a, c: *b}\n']) {
      assert.doesNotThrow(() => checked(text), JSON.stringify(text));
    }
  });

  test('Y01: positions after a multi-line stray scalar ({a: 1} then plain lines) stay on the right lines', () => {
    const text = `{a: 1}\nfoo\nbar\nbaz\n---\n${CHECKED_POD}`;
    const { findings } = checked(text);
    const syntax = findings.filter((f) => f.doc === 0);
    assert.ok(syntax.length > 0 && syntax.every((f) => f.rule === 'Y01'));
    assert.ok(syntax.some((f) => f.range.start.line === 1), 'the stray scalar starts on line 1');
    const p12 = findings.find((f) => f.rule === 'P12');
    assert.equal(p12?.range.start.line, lineOf(text, 'successThreshold'), 'the next document keeps its lines');
  });
});

describe('Y03: templated documents are skipped with one info finding', () => {
  const HELM = `apiVersion: v1
kind: Pod
metadata:
  name: {{ .Values.name }}
spec:
  containers:
{{- if .Values.web.enabled }}
    - name: web
      image: "{{ .Values.image }}"
      livenessProbe:
        tcpSocket: {port: {{ .Values.port }}}
        successThreshold: 2
{{- end }}
`;

  test('Y03: a Helm template ({{ .Values.x }}, {{- if }}) gives exactly one info finding at its start and nothing else', () => {
    const { findings } = checked(HELM);
    assert.equal(findings.length, 1, JSON.stringify(findings));
    const [f] = findings;
    assert.equal(f?.rule, 'Y03');
    assert.equal(f?.severity, 'info');
    assert.deepEqual(f?.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  });

  test('Y03: each templated document of a file is skipped on its own; the plain ones between are checked', () => {
    const text = `${HELM}---\n${CHECKED_POD}---\nkind: Deployment\nspec:\n  replicas: {{ .Values.replicas }}\n`;
    const { findings } = checked(text);
    assert.deepEqual(
      findings.map((f) => `${f.rule}@${f.doc}`),
      ['Y03@0', 'P12@1', 'Y03@2'],
    );
    const third = findings.find((f) => f.doc === 2);
    assert.equal(third?.range.start.line, lineOf(text, 'kind: Deployment') - 1, 'at the start of the document (its --- line)');
  });

  test('Y03: a template that is not even valid YAML is still one info finding, no syntax errors', () => {
    const text = `kind: Pod\nspec:\n  containers:\n  {{ include "containers" . | nindent 4 }}\n  {{- with .Values.x }}: [\n`;
    const { findings } = checked(text);
    assert.deepEqual(rulesOf(findings), ['Y03']);
  });
});

describe('Y02: aliases cannot make the check run away', () => {
  const HEAD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n';

  test('Y02: a merge-key alias bomb in a container stops at the node budget, quickly and in bounded memory', () => {
    // 10 merges per level, 20 levels: 10^20 nodes once expanded, in 1.5 kB.
    let text = `${HEAD}x0: &m0 {name: web, image: nginx}\n`;
    for (let i = 1; i <= 20; i++) text += `x${i}: &m${i} {<<: [${Array(10).fill(`*m${i - 1}`).join(', ')}]}\n`;
    text += 'spec:\n  containers:\n    - *m20\n';
    const heapBefore = heapMb();
    const { findings, ms } = checked(text);
    assert.ok(heapMb() - heapBefore < 200, `heap grew by ${(heapMb() - heapBefore).toFixed(0)} MB`);
    assert.ok(ms < 5000, `took ${ms.toFixed(0)} ms`);
    assert.deepEqual(rulesOf(findings), ['Y02']);
    assert.equal(findings[0]?.severity, 'error');
    assert.match(findings[0]?.message ?? '', /more than 200000 nodes once aliases are expanded/);
  });

  test('Y02: a container aliased 300 times with aliased probes and headers stops at the node budget', () => {
    const text =
      `${HEAD}h: &h {name: X-Probe, value: kubelet}\nhs: &hs [${Array(100).fill('*h').join(', ')}]\n` +
      'p: &p {httpGet: {port: 8080, httpHeaders: *hs}}\n' +
      'c: &c {name: web, image: nginx, livenessProbe: *p, readinessProbe: *p, startupProbe: *p}\n' +
      `spec:\n  containers: [${Array(300).fill('*c').join(', ')}]\n`;
    const heapBefore = heapMb();
    const { findings, ms } = checked(text);
    assert.ok(heapMb() - heapBefore < 300, `heap grew by ${(heapMb() - heapBefore).toFixed(0)} MB`);
    assert.ok(ms < 5000, `took ${ms.toFixed(0)} ms`);
    assert.deepEqual(rulesOf(findings), ['Y02']);
  });

  test('Y02: the merge-key bomb fits in a 256 MB heap (peak, in a child process)', () => {
    let text = `${HEAD}x0: &m0 {name: web, image: nginx, livenessProbe: {httpGet: {port: 80, path: /}}}\n`;
    for (let i = 1; i <= 12; i++) text += `x${i}: &m${i} {<<: [${Array(9).fill(`*m${i - 1}`).join(', ')}]}\n`;
    text += `spec:\n  containers: [${Array(50).fill('*m12').join(', ')}]\n`;
    const child = checkInChild(text, { maxOldSpaceMb: 256, repeat: 2 });
    assert.equal(child.status, 0, `child failed (${child.signal ?? child.status}): ${child.stderr.slice(0, 500)}`);
    assert.deepEqual(rulesOf(child.findings ?? []), ['Y02']);
  });

  test('Y02: a billion-laughs bomb of nested sequences used as containers finishes fast, in bounded memory, as errors', () => {
    // The checker does not expand what it need not decode: each item of `containers` is a
    // sequence, a D02 type error, so the bomb is never unfolded (go-yaml would refuse it as
    // "excessive aliasing"). What matters here: bounded, and reported as errors.
    let text = `${HEAD}l0: &l0 [{name: web, image: nginx}]\n`;
    for (let i = 1; i <= 9; i++) text += `l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]\n`;
    text += 'spec:\n  containers: *l9\n';
    const heapBefore = heapMb();
    const { findings, ms } = checked(text);
    assert.ok(heapMb() - heapBefore < 200, `heap grew by ${(heapMb() - heapBefore).toFixed(0)} MB`);
    assert.ok(ms < 5000, `took ${ms.toFixed(0)} ms`);
    assert.ok(findings.length > 0 && findings.length <= 10, `${findings.length} findings`);
    for (const f of findings) {
      assert.equal(f.severity, 'error');
      assert.match(f.path, /^spec\.containers\[\d\]$/);
    }
  });

  test('Y02: a self-referencing merge key (&c {<<: *c}) stops at the depth limit', () => {
    const text = `${HEAD}spec:\n  containers:\n    - &c {name: web, image: nginx, <<: *c}\n`;
    const { findings, ms } = checked(text);
    assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
    assert.deepEqual(rulesOf(findings), ['Y02']);
    assert.match(findings[0]?.message ?? '', /nesting deeper than 64 levels/);
  });

  test('Y02: a probe that merges itself stops at the depth limit', () => {
    const text = `${HEAD}spec:\n  containers:\n    - name: web\n      image: nginx\n      livenessProbe: &p\n        httpGet: {port: 80}\n        <<: *p\n`;
    assert.deepEqual(rulesOf(checked(text).findings), ['Y02']);
  });

  test('Y02: a self-referencing sequence (a: &a [*a]) used as containers terminates with an error', () => {
    // `containers[0]` is the sequence itself, a D02 type error; the cycle is never followed.
    // go-yaml would say "anchor 'a' value contains itself" (see the report).
    const text = `${HEAD}a: &a [*a]\nspec:\n  containers: *a\n`;
    const { findings, ms } = checked(text);
    assert.ok(ms < 2000);
    assert.ok(findings.length > 0 && findings.every((f) => f.severity === 'error'), JSON.stringify(findings));
    const inline = checked(`${HEAD}spec:\n  containers: &a [*a]\n`).findings;
    assert.ok(inline.length > 0 && inline.every((f) => f.severity === 'error'), JSON.stringify(inline));
  });

  test('Y02: with a small node budget a plain Pod is cut short, the other documents keep their own budget', () => {
    const text = `${CHECKED_POD}---\nkind: ConfigMap\ndata: {a: b}\n---\n${CHECKED_POD}`;
    const { findings } = checked(text, { limits: limits({ maxNodeVisitsPerDocument: 20 }) });
    assert.deepEqual(
      findings.map((f) => `${f.rule}@${f.doc}`),
      ['Y02@0', 'Y02@2'],
    );
    assert.match(findings[0]?.message ?? '', /more than 20 nodes/);
    const generous = checked(text, { limits: limits({ maxNodeVisitsPerDocument: 60 }) }).findings;
    assert.deepEqual(rulesOf(generous), ['P12', 'P12']);
  });

  test('Y02: with a small depth limit the limit is reported where it was hit', () => {
    const { findings } = checked(CHECKED_POD, { limits: limits({ maxDepth: 3 }) });
    assert.deepEqual(rulesOf(findings), ['Y02']);
    assert.match(findings[0]?.message ?? '', /nesting deeper than 3 levels/);
    assert.ok(findings[0] && findings[0].range.start.line > 0);
  });
});

describe('Y02: file size and document count limits', () => {
  const FIFTY_MB = 50 * 1024 * 1024;

  test('Y02: a 50 MB file (one huge comment) is not parsed: one finding, at once (default limits)', () => {
    const text = `# ${'x'.repeat(FIFTY_MB)}\n`;
    const heapBefore = heapMb();
    const { findings, ms } = checked(text);
    assert.ok(ms < 1000, `took ${ms.toFixed(0)} ms`);
    assert.ok(heapMb() - heapBefore < 300, `heap grew by ${(heapMb() - heapBefore).toFixed(0)} MB`);
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.equal(f?.rule, 'Y02');
    assert.equal(f?.severity, 'error');
    assert.equal(f?.doc, 0);
    assert.match(f?.message ?? '', /file not checked: 50\.0 MB is more than the 8\.0 MB/);
  });

  test('Y02: a 50 MB file of many valid documents is not parsed either (default limits)', () => {
    const copies = Math.ceil(FIFTY_MB / (CHECKED_POD.length + 4));
    const text = Array(copies).fill(CHECKED_POD).join('---\n');
    assert.ok(text.length >= FIFTY_MB);
    const { findings, ms } = checked(text);
    // Parsing these 50 MB would take tens of seconds: the bound tells "not parsed" from "parsed",
    // with room for a loaded machine (how fast the check is, bench/ measures).
    assert.ok(ms < 5000, `took ${ms.toFixed(0)} ms`);
    assert.deepEqual(rulesOf(findings), ['Y02']);
  });

  test('Y02: a 50 MB file fits in a 384 MB heap (peak, in a child process)', () => {
    const child = checkInChild(`# ${'y'.repeat(FIFTY_MB)}\n`, { maxOldSpaceMb: 384 });
    assert.equal(child.status, 0, `child failed (${child.signal ?? child.status}): ${child.stderr.slice(0, 500)}`);
    assert.deepEqual(rulesOf(child.findings ?? []), ['Y02']);
    assert.ok((child.runMs?.[0] ?? Infinity) < 1000);
  });

  test('Y02: maxFileChars is inclusive: a file at the limit is checked, one character more is not', () => {
    const at = checked(CHECKED_POD, { limits: limits({ maxFileChars: CHECKED_POD.length }) }).findings;
    assert.deepEqual(rulesOf(at), ['P12']);
    const over = checked(`${CHECKED_POD} `, { limits: limits({ maxFileChars: CHECKED_POD.length }) }).findings;
    assert.deepEqual(rulesOf(over), ['Y02']);
  });

  test('Y02: 10 001 documents (default limits): the first 10 000 are checked, a Y02 at document 10 000 says the rest was not', () => {
    const docs: string[] = Array(10_001).fill('kind: ConfigMap\nmetadata: {name: c}\n');
    docs[9_999] = CHECKED_POD; // the last one checked
    docs[10_000] = CHECKED_POD; // the first one not checked
    const text = docs.join('---\n');
    const { findings, ms } = checked(text);
    assert.ok(ms < 20_000, `took ${ms.toFixed(0)} ms`);
    assert.deepEqual(
      findings.map((f) => `${f.rule}@${f.doc}`),
      ['P12@9999', 'Y02@10000'],
    );
    const y02 = findings[1];
    assert.match(y02?.message ?? '', /only the first 10000 documents were checked; this one and the rest were not/);
    // The finding points at document 10 000 itself: its `---` line.
    const lines = text.split('\n');
    assert.equal(lines[y02?.range.start.line ?? -1], '---');
    assert.equal(lines.slice(0, y02?.range.start.line).filter((l) => l === '---').length, 9_999);
  });

  test('Y02: exactly 10 000 documents (default limits) are all checked, with no Y02', () => {
    const docs: string[] = Array(10_000).fill('kind: ConfigMap\nmetadata: {name: c}\n');
    docs[9_999] = CHECKED_POD;
    const { findings } = checked(docs.join('---\n'));
    assert.deepEqual(
      findings.map((f) => `${f.rule}@${f.doc}`),
      ['P12@9999'],
    );
  });

  test('Y02: empty documents (--- runs, comment-only, ~) do not count toward maxDocuments', () => {
    const text = ['---', '# only a comment', '---', CHECKED_POD, '---', '---', '~', '---', CHECKED_POD, '---', CHECKED_POD, '---', '# nothing', '---', CHECKED_POD].join('\n');
    const { findings } = checked(text, { limits: limits({ maxDocuments: 3 }) });
    assert.deepEqual(
      findings.map((f) => `${f.rule}@${f.doc}`),
      ['P12@0', 'P12@1', 'P12@2', 'Y02@3'],
    );
  });
});

describe('garbage in: no throw, sensible findings', () => {
  test('random bytes read as UTF-8 and as Latin-1 never throw and give well-formed findings', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const bytes = seededBytes(seed, 64 + seed * 97);
      for (const text of [Buffer.from(bytes).toString('utf8'), Buffer.from(bytes).toString('latin1')]) {
        const { ms } = checked(text);
        assert.ok(ms < 2000, `seed ${seed} took ${ms.toFixed(0)} ms`);
      }
    }
  });

  test('a NUL-laden text never throws', () => {
    checked('\0'.repeat(1000));
    checked(`a\0b: c\0\n\0\0\n---\n${CHECKED_POD.replace(/ /g, ' \0')}`);
    // NUL inside a scalar of an otherwise valid Pod: refused as go-yaml refuses control characters.
    const nul = checked(CHECKED_POD.replace('nginx', 'ngi\0nx')).findings;
    assert.deepEqual(rulesOf(nul), ['Y01']);
    assert.match(nul[0]?.message ?? '', /control characters are not allowed \(U\+0000\)/);
  });

  test('an empty file, whitespace, comments only, --- only and ... only give no findings', () => {
    for (const text of ['', '\n', '   \n\t\n', '# a comment\n# another\n', '---', '---\n---\n---\n', '...\n', '---\n...\n---\n...\n', '~\n', 'null\n']) {
      assert.deepEqual(checked(text).findings, [], JSON.stringify(text));
    }
  });

  test('a document that is only a scalar, a list or a map without kind gives no findings', () => {
    for (const text of ['hello\n', '42\n', '- a\n- b\n', 'apiVersion: v1\n', 'kind: 7\n', 'kind: [Pod]\n', 'kind: Pod\n', 'kind: Pod\nspec: []\n']) {
      assert.deepEqual(checked(text).findings, [], JSON.stringify(text));
    }
  });

  test('a byte order mark and CRLF line endings give the same findings as plain LF', () => {
    const lf = checked(CHECKED_POD).findings;
    assert.deepEqual(checked(`\uFEFF${CHECKED_POD}`).findings, lf);
    assert.deepEqual(checked(CHECKED_POD.replace(/\n/g, '\r\n')).findings, lf);
  });

  test('lone surrogates, astral characters and odd line breaks never throw', () => {
    checked(CHECKED_POD.replace('name: web', 'name: "\uD800🦄\uDFFF"'));
    checked(CHECKED_POD.replace(/\n/g, '\r'));
    checked(CHECKED_POD.replace(/\n/g, '\u2028'));
    checked('\uD800: \uDC00\n');
  });

  test('a huge single line (a 5 MB scalar) is checked in bounded time', () => {
    const { findings, ms } = checked(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${'n'.repeat(5_000_000)}\nspec: {}\n`);
    assert.deepEqual(findings, []);
    assert.ok(ms < 10_000, `took ${ms.toFixed(0)} ms`);
  });

  test('Y02: 200 000 containers in one flow sequence on one line stop at the node budget', () => {
    const text = `kind: Pod\nspec:\n  containers: [${Array(200_000).fill('{}').join(',')}]\n`;
    const { findings, ms } = checked(text);
    assert.ok(ms < 20_000, `took ${ms.toFixed(0)} ms`);
    assert.deepEqual(rulesOf(findings), ['Y02']);
  });
});

/**
 * Nesting deep enough to overflow the `yaml` composer's stack (~800 levels when cold) once made V8
 * abort the process on a later check ("FATAL ERROR: RegExpCompiler Allocation failed"): no
 * try/catch can stop that, so readYamlFile measures each document's nesting on its CST and refuses
 * a document that nests too deep before composing it (maxNesting, Y02); the others are still checked.
 * These run in a child process, several times, so a regression shows as a failed test rather
 * than a test file that died.
 */
describe('Y02: nesting deep enough to overflow the YAML composer is refused, never a crash', () => {
  const nestingY02 = (findings: readonly Finding[]) => {
    const limits = findings.filter((f) => f.rule === 'Y02');
    return limits.length === 1 && /nests deeper than 500 levels/.test(limits[0]?.message ?? '') && findings.every((f) => f.rule === 'Y02' || f.rule === 'P12');
  };

  const shapes: { name: string; text: string }[] = [
    { name: '10 000 [', text: '['.repeat(10_000) },
    { name: '10 000 {', text: '{'.repeat(10_000) },
    { name: '10 000 nested flow maps {a: …} (closed)', text: `${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}` },
    { name: '10 000 [ as containers', text: `kind: Pod\nspec:\n  containers: ${'['.repeat(10_000)}\n` },
    { name: '10 000 block sequence dashes on one line', text: '- '.repeat(10_000) },
    { name: '3 000 indented block maps', text: `${Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n` },
    { name: '1 000 [ in a later document (the first one is still checked)', text: `${CHECKED_POD}---\nkind: Pod\nspec: ${'['.repeat(1_000)}\n` },
  ];

  for (const shape of shapes) {
    test(`Y02: ${shape.name} — one finding, checked three times in one process without a crash`, () => {
      const child = checkInChild(shape.text, { repeat: 3, timeoutMs: 60_000 });
      assert.equal(child.status, 0, `child ${child.signal ? `killed by ${child.signal}` : `exited ${child.status}`}: ${child.stderr.slice(0, 300)}`);
      const findings = child.findings ?? [];
      assertFindingsWellFormed(shape.text, findings);
      assert.ok(nestingY02(findings), JSON.stringify(findings.slice(0, 3)));
      assert.ok((child.runMs ?? []).every((ms) => ms < 2_000), `runs took ${child.runMs?.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    });
  }

  test('Y02: the nesting finding points at the first node nested past the limit', () => {
    const text = `kind: Pod\nspec:\n  containers: ${'['.repeat(600)}\n`;
    const { findings } = checked(text);
    assert.ok(nestingY02(findings));
    // The document's map is level 1, spec's map 2, the first bracket 3: bracket 499 (0-based 498) is level 501.
    assert.deepEqual(findings[0]?.range.start, { line: 2, character: '  containers: '.length + 498 });
  });

  test('Y02: 500 levels (the default maxNesting) are still parsed, repeatedly, without overflowing', () => {
    const child = checkInChild('['.repeat(500), { repeat: 3 });
    assert.equal(child.status, 0, `child ${child.signal ?? child.status}: ${child.stderr.slice(0, 300)}`);
    const findings = child.findings ?? [];
    assert.ok(findings.length > 0 && findings.every((f) => f.rule === 'Y01' && !/call stack/.test(f.message)), JSON.stringify(findings.slice(0, 2)));
  });

  test('Y02: maxNesting counts real nesting, not indentation, nor brackets in comments or quotes', () => {
    const small = limits({ maxNesting: 8 });
    assert.deepEqual(rulesOf(checked('a: [[[[[[[[[1]]]]]]]]]\n', { limits: small }).findings), ['Y02']);
    assert.deepEqual(rulesOf(checked(`a:\n${' '.repeat(9)}b: 1\n`, { limits: small }).findings), []);
    assert.deepEqual(rulesOf(checked('a: "[[[[[[[[[[[["  # [[[[[[[[[[[[\nb: \'{{{{{{{{{{{{\'\n', { limits: small }).findings), []);
  });

  /** Nesting that no count of indentation and brackets sees: only the CST shows it. */
  const unseen: { name: string; text: string }[] = [
    { name: "after a plain scalar with an apostrophe (a: rock 'n roll)", text: `a: rock 'n roll\n---\n${'['.repeat(1_000)}\n` },
    { name: 'after a plain scalar with a double quote (a: say "hi)', text: `a: say "hi\n---\n${'['.repeat(1_000)}\n` },
    { name: 'as 2 000 explicit keys on one line (? ? ? …)', text: '? '.repeat(2_000) },
    { name: 'as 2 000 compact mappings on one line (a: a: a: …)', text: 'a: '.repeat(2_000) },
    { name: 'as 2 000 block sequences separated by tabs (-\t-\t…)', text: '-\t'.repeat(2_000) },
  ];
  for (const shape of unseen) {
    test(`Y02: nesting ${shape.name} is refused too, not left to overflow the composer`, () => {
      const child = checkInChild(shape.text, { repeat: 3 });
      assert.equal(child.status, 0, `child ${child.signal ?? child.status}: ${child.stderr.slice(0, 300)}`);
      const findings = child.findings ?? [];
      const overflow = findings.find((f) => /call stack/.test(f.message));
      assert.equal(overflow, undefined, `the composer overflowed: ${findings.length} findings, ${JSON.stringify(overflow)}`);
      assert.ok(findings.some((f) => f.rule === 'Y02' && /nests deeper than 500 levels/.test(f.message)), JSON.stringify(findings.slice(0, 2)));
    });
  }

  test('a valid file is not refused for spaces on a blank line or brackets inside a block scalar', () => {
    const blankLine = `${CHECKED_POD}${' '.repeat(600)}\n`;
    assert.deepEqual(rulesOf(checked(blankLine).findings), ['P12']);
    const blockText = `${CHECKED_POD}---\nkind: ConfigMap\ndata:\n  rules: |\n${'    match [a-z\n'.repeat(501)}`;
    assert.deepEqual(rulesOf(checked(blockText).findings), ['P12']);
  });

  test('300 unclosed [ (shallow enough not to overflow) are checked in-process as syntax errors', () => {
    const { findings } = checked('['.repeat(300));
    assert.ok(findings.length > 0 && findings.every((f) => f.rule === 'Y01'));
  });
});

describe('Y01: one error per broken document, as kubectl gives one', () => {
  test('Y01: a document the reader loses its way in is one error at the first problem, not a cascade', () => {
    // kubernetes-engine-samples' vllm-llama3-8b-instruct.yaml gave 25 errors and 10 warnings.
    const text = podWith('args:\n  - --model\n  - meta-llama/Llama-3.1-8B-Instruct\n  - --port 8000\nenv:\n  - name: HF_TOKEN\n  valueFrom: {secretKeyRef: {name: hf, key: token}}\n    - name: X\n      value: y\nports:\n  - containerPort: 8000');
    const errors = checked(text).findings.filter((f) => f.rule === 'Y01');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.equal(errors[0]?.severity, 'error');
  });
});

describe('the go-yaml leniency and the duplicate-key warnings stay linear on hostile input', () => {
  const cases: [string, string][] = [
    ['a 1 MB run of [ after a key (every bracket unclosed, nested)', `a: ${'['.repeat(1 << 20)}\n`],
    ['200 000 lines each opening a quote continued at column 0', `a:\n${"  - 'x\n'\n".repeat(100_000)}`],
    ['200 000 quoted scalars whose closing quotes sit at column 0', `${"k: 'x\n'\n".repeat(100_000)}`],
    ['100 000 repeats of one key', 'a: 1\n'.repeat(100_000)],
  ];
  // The bound is the yaml library's own parse of the same text, timed in the same run: these texts
  // cost seconds in the parser itself, and a machine under load stretches both alike, so a fixed
  // number of seconds failed a busy clean run (12.7 s against 10 s) while the check stayed below a
  // bare parse. Going quadratic in our own passes would put it hours beyond.
  for (const [name, text] of cases) {
    test(`Y01: ${name} is read in bounded time (no slower than twice a bare parse)`, () => {
      const bare = bareParseMs(text);
      const { findings, ms } = checked(text);
      assert.ok(ms < 2 * bare + 1000, `took ${ms.toFixed(0)} ms; a bare parse took ${bare.toFixed(0)} ms`);
      assert.ok(findings.every((f) => f.rule === 'Y01' || f.rule === 'Y02'), JSON.stringify(findings.slice(0, 3)));
    });
  }
});
