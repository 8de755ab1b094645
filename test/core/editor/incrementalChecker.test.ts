/**
 * The editor's incremental checker must give exactly what `probe-lens check` gives for the same
 * text, while re-reading only the documents an edit touched.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkText } from '../../../src/core/check';
import { splitDocuments } from '../../../src/core/manifest/documentChunks';
import { type CheckSettings, IncrementalChecker } from '../../../src/core/editor/incrementalChecker';
import { desiredPods, desiredPodsOf } from '../../../src/core/engine/manager';
import { parseManifest } from '../../../src/core/manifest';
import type { Finding } from '../../../src/core/rules/types';
import { podWith } from '../../helpers/manifests';

const SETTINGS: CheckSettings = { disabledRules: new Set(), context: { minorVersion: 33 } };

function assertSameAsWholeCheck(checker: IncrementalChecker, text: string, settings: CheckSettings = SETTINGS) {
  const snapshot = checker.check(text, settings);
  const whole = checkText(text, { file: 'f.yaml', disabledRules: settings.disabledRules, minorVersion: settings.context.minorVersion });
  assert.deepEqual(snapshot.findings, whole);
  return snapshot;
}

const broken = (i: number) =>
  podWith(`ports: [{name: http, containerPort: 8080}]
livenessProbe:
  httpGet: {path: /healthz, port: "8080"}
  successThreshold: ${2 + i}
readinessProbe:
  exec: {command: ["cat /tmp/ready"]}`).replace('name: web\nspec', `name: web-${i}\nspec`);

const twentyDocuments = Array.from({ length: 20 }, (_, i) => broken(i)).join('---\n');

describe('document chunks', () => {
  test('cut at each --- line, and nowhere else', () => {
    const chunks = splitDocuments('a: 1\n---\nb: |\n  --- not a marker\n--- # c\nc: 3\n----\n---');
    assert.deepEqual(
      chunks?.map((c) => [c.firstLine, c.text]),
      [
        [0, 'a: 1\n'],
        [1, '---\nb: |\n  --- not a marker\n'],
        [4, '--- # c\nc: 3\n----\n'],
        [7, '---'],
      ],
    );
  });

  test('CRLF line ends and a leading --- give no empty first chunk', () => {
    assert.deepEqual(splitDocuments('---\r\na: 1\r\n---\r\nb: 2\r\n')?.map((c) => c.firstLine), [0, 2]);
  });

  test('a file with directives is read whole', () => {
    assert.equal(splitDocuments('%YAML 1.1\n---\na: 1\n---\nb: 2\n'), undefined);
  });
});

describe('incremental checker', () => {
  test('gives the findings of a whole check, with file positions and document indices', () => {
    const snapshot = assertSameAsWholeCheck(new IncrementalChecker('f.yaml'), twentyDocuments);
    assert.equal(snapshot.chunks.length, 20);
    assert.ok(snapshot.findings.some((f) => f.doc === 19 && f.range.start.line > 250), 'the last document keeps its position');
    assert.ok(snapshot.findings.some((f) => (f.fixes?.[0]?.edits[0]?.range.start.line ?? 0) > 250), 'quick-fix edits are moved too');
  });

  test('an edit inside one document of twenty re-reads only that document', () => {
    const checker = new IncrementalChecker('f.yaml');
    assert.equal(checker.check(twentyDocuments, SETTINGS).chunksRead, 20);
    const edited = twentyDocuments.replace('successThreshold: 12', 'successThreshold: 1');
    assert.equal(assertSameAsWholeCheck(checker, edited).chunksRead, 1);
  });

  test('inserting lines above moves later documents without re-reading them', () => {
    const checker = new IncrementalChecker('f.yaml');
    checker.check(twentyDocuments, SETTINGS);
    const edited = twentyDocuments.replace('image: nginx', 'image: nginx\n      # a comment\n      # and another');
    assert.equal(assertSameAsWholeCheck(checker, edited).chunksRead, 1);
  });

  test('identical documents are read once', () => {
    const text = `---\n${Array.from({ length: 5 }, () => broken(0)).join('---\n')}`;
    assert.equal(new IncrementalChecker('f.yaml').check(text, SETTINGS).chunksRead, 1);
  });

  test('changed settings re-read everything', () => {
    const checker = new IncrementalChecker('f.yaml');
    checker.check(twentyDocuments, SETTINGS);
    assert.ok(checker.check(twentyDocuments, SETTINGS).findings.some((f) => f.rule === 'L19'), 'L19 fires before it is disabled');
    const snapshot = assertSameAsWholeCheck(checker, twentyDocuments, { disabledRules: new Set(['L19']), context: { minorVersion: 28 } });
    assert.equal(snapshot.chunksRead, 20);
    assert.ok(!snapshot.findings.some((f) => f.rule === 'L19'));
  });

  test('the document limit is reported where a whole read reports it', () => {
    const limits = { maxFileChars: 1 << 20, maxDocuments: 3, maxNodeVisitsPerDocument: 1000, maxDepth: 64, maxNesting: 500, maxNodeVisitsPerFile: 100_000 };
    const text = Array.from({ length: 5 }, (_, i) => `a: ${i}\n`).join('---\n');
    const snapshot = new IncrementalChecker('f.yaml').check(text, { ...SETTINGS, limits });
    assert.deepEqual(snapshot.findings, checkText(text, { file: 'f.yaml', limits }));
    assert.ok(snapshot.findings.some((f) => f.rule === 'Y02'));
  });

  test('pods get the names a whole read gives them', () => {
    const text = `${twentyDocuments}---\napiVersion: v1\nkind: Pod\nspec: {containers: [{name: a, image: x}]}\n`;
    const snapshot = new IncrementalChecker('f.yaml').check(text, SETTINGS);
    const names = (pods: ReturnType<typeof desiredPods>) => pods.map((p) => `${p.identity.name} ${p.identity.uid}`);
    assert.deepEqual(names(desiredPodsOf(snapshot.documents)), names(desiredPods(parseManifest(text))));
    assert.equal(snapshot.podSpecAt({ line: snapshot.podSpecs[3]!.lineOffset + 8, character: 8 })?.document, 3);
  });

  /**
   * Where a document has a syntax error, the errors listed may differ: the checker reads each
   * document on its own, as YAML requires (a `---` at a line's start always starts a document),
   * while `yaml` lets an unclosed quote run on past it. Both report Y01 on the broken document,
   * and everything before it is the same. A document that stopped parsing shows its last readable
   * version (staleModels.test.ts): everything before it is the same too.
   */
  function assertSameUpToSyntaxErrors(checker: IncrementalChecker, text: string) {
    const snapshot = checker.check(text, SETTINGS);
    const pieces = snapshot.findings;
    const whole = checkText(text, { file: 'f.yaml' });
    const firstBroken = whole.find((f) => f.rule === 'Y01');
    const firstStale = snapshot.chunks.find((chunk) => chunk.stale)?.firstDocument ?? Infinity;
    if (!firstBroken && !snapshot.stale) return assert.deepEqual(pieces, whole);
    if (firstBroken) assert.ok(pieces.some((f) => f.rule === 'Y01'), 'a syntax error is reported by both');
    const limit = Math.min(firstBroken?.doc ?? Infinity, firstStale);
    const before = (findings: readonly Finding[]) => findings.filter((f) => f.doc < limit);
    assert.deepEqual(before(pieces), before(whole));
  }

  test('property: any sequence of edits gives the whole check of the text', () => {
    const pieces = ['---\n', '--- \n', '...\n', 'a: [\n', '"x\n', '  - b\n', 'kind: Pod\n', '{{ x }}\n', 'x: &a 1\ny: *a\n', 'k: 1\nk: 2\n', broken(1), broken(2), podWith('livenessProbe: {tcpSocket: {port: http}}')];
    const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 40 }), insert: fc.constantFrom(...pieces, '', '\n', ' ', '-', ':') });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), (edits) => {
        const checker = new IncrementalChecker('f.yaml');
        let text = twentyDocuments.slice(0, 1500);
        assertSameUpToSyntaxErrors(checker, text);
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
          assertSameUpToSyntaxErrors(checker, text);
        }
      }),
      { seed: 20_261_122, numRuns: 150 },
    );
  });

  test('the examples read the same in pieces', () => {
    for (const file of ['examples/web-deployment.yaml', 'examples/healthy.yaml']) assertSameAsWholeCheck(new IncrementalChecker('f.yaml'), readFileSync(file, 'utf8'));
  });
});
