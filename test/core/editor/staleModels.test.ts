/**
 * While a document's text does not parse (a key typed before its colon), the editor keeps showing
 * its last readable model: lenses stay on their lines and unrelated findings stay in Problems.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkText } from '../../../src/core/check';
import { type CheckSettings, IncrementalChecker } from '../../../src/core/editor/incrementalChecker';
import { chunkPosition, lineMapBetween, mapLine, placeRange, unmapLine } from '../../../src/core/editor/lineMap';
import type { Finding } from '../../../src/core/rules/types';
import { podWith } from '../../helpers/manifests';

const SETTINGS: CheckSettings = { disabledRules: new Set(), context: { minorVersion: 33 } };

const pod = (name: string) =>
  podWith(`ports: [{name: http, containerPort: 8080}]
readinessProbe:
  httpGet: {path: /ready, port: "8080"}
livenessProbe:
  httpGet: {path: /healthz, port: http}
  successThreshold: 2`).replace('name: web\nspec', `name: ${name}\nspec`);

const file = `${pod('a')}---\n${pod('b')}`;
/** The `livenessProbe:` line of pod b, half retyped: a key with no colon yet. */
const typing = file.replace(/(name: b[\s\S]*?)livenessProbe:/, '$1livenessProb');

const withoutFixes = (findings: readonly Finding[]) => findings.map(({ rule, severity, message, doc, path, range }) => ({ rule, severity, message, doc, path, range }));
const probeLines = (checker: IncrementalChecker, text: string) => {
  const snapshot = checker.check(text, SETTINGS);
  return snapshot.podSpecs.flatMap((placed) => placed.spec.containers.flatMap((c) => c.probes.map((p) => `${p.type}@${placeRange(placed, p.keyRange).start.line}`)));
};

describe('line map', () => {
  test('lines before the change stay, lines after move by the lines it added, lines inside stay inside', () => {
    const map = lineMapBetween('a\nb\nc\nd\n', 'a\nB\nnew\nc\nd\n');
    assert.deepEqual(map, { head: 1, oldTail: 2, newTail: 3 });
    assert.deepEqual([0, 1, 2, 3, 4].map((line) => mapLine(map, line)), [0, 1, 3, 4, 5]);
    assert.deepEqual([0, 1, 2, 3, 4, 5].map((line) => unmapLine(map, line)), [0, 1, 1, 2, 3, 4]);
  });

  test('a deleted block: its lines land on the line where it was', () => {
    const map = lineMapBetween('a\nb\nc\nd\ne', 'a\ne');
    assert.deepEqual([0, 1, 2, 3, 4].map((line) => mapLine(map, line)), [0, 1, 1, 1, 1]);
  });

  test('property: unchanged lines map onto the same text, and back', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 12 });
    fc.assert(
      fc.property(lines, lines, (beforeLines, afterLines) => {
        const [before, after] = [beforeLines.join('\n').split('\n'), afterLines.join('\n').split('\n')];
        const map = lineMapBetween(before.join('\n'), after.join('\n'));
        for (let line = 0; line < before.length; line++) {
          if (line >= map.head && line < map.oldTail) continue;
          assert.equal(after[mapLine(map, line)], before[line]);
          assert.equal(unmapLine(map, mapLine(map, line)), line);
        }
      }),
      { seed: 20_261_124, numRuns: 300 },
    );
  });
});

describe('stale models while a document does not parse', () => {
  test('Y01: the document keeps its last readable models and findings (without fixes), plus the syntax error', () => {
    const checker = new IncrementalChecker('f.yaml');
    const good = checker.check(file, SETTINGS);
    const stale = checker.check(typing, SETTINGS);
    assert.equal(stale.stale, true);
    assert.equal(stale.podSpecs.length, 2, 'both pods still have their models');
    assert.equal(stale.podSpecs[1]!.stale !== undefined, true);
    assert.equal(stale.podSpecs[0]!.stale, undefined, 'the other document is read as usual');
    const syntax = stale.findings.filter((f) => f.rule === 'Y01');
    assert.equal(syntax.length, 1);
    assert.equal(syntax[0]!.doc, 1);
    assert.deepEqual(withoutFixes(stale.findings.filter((f) => f.rule !== 'Y01')), withoutFixes(good.findings));
    for (const finding of stale.findings.filter((f) => f.doc === 1 && f.rule !== 'Y01')) assert.equal(finding.fixes, undefined, `${finding.rule}: an edit for the old text is not offered`);
    assert.ok(stale.findings.some((f) => f.doc === 0 && f.fixes?.length), 'the readable document keeps its fixes');
  });

  test('lines added above a probe of a stale document move its range with them', () => {
    const checker = new IncrementalChecker('f.yaml');
    const before = probeLines(checker, file);
    const broken = file.replace(/(name: b[\s\S]*?)(      readinessProbe:)/, '$1      half\n      typed\n$2');
    const after = probeLines(checker, broken);
    assert.equal(checker.check(broken, SETTINGS).stale, true);
    assert.deepEqual(after.slice(0, 2), before.slice(0, 2), 'pod a: unchanged');
    assert.deepEqual(
      after.slice(2),
      before.slice(2).map((probe) => probe.replace(/@(\d+)$/, (_, line: string) => `@${Number(line) + 2}`)),
    );
  });

  test('a position in the current text finds the stale pod spec it belongs to', () => {
    const checker = new IncrementalChecker('f.yaml');
    checker.check(file, SETTINGS);
    const snapshot = checker.check(typing, SETTINGS);
    const line = typing.split('\n').findIndex((l) => l.includes('livenessProb') && !l.includes('livenessProbe'));
    const placed = snapshot.podSpecAt({ line, character: 8 });
    assert.equal(placed?.document, 1);
    assert.equal(chunkPosition(placed, { line, character: 8 }).line, placed.spec.containers[0]!.probe('liveness')!.keyRange.start.line);
  });

  test('once it parses again, the fresh read replaces the stale model', () => {
    const checker = new IncrementalChecker('f.yaml');
    checker.check(file, SETTINGS);
    checker.check(typing, SETTINGS);
    const fixed = file.replace('successThreshold: 2', 'successThreshold: 1');
    const snapshot = checker.check(fixed, SETTINGS);
    assert.equal(snapshot.stale, false);
    assert.deepEqual(snapshot.findings, checkText(fixed, { file: 'f.yaml' }));
  });

  test('a document that never parsed has nothing to keep', () => {
    const snapshot = new IncrementalChecker('f.yaml').check(typing, SETTINGS);
    assert.equal(snapshot.stale, false);
    assert.equal(snapshot.podSpecs.length, 1);
    assert.deepEqual(snapshot.findings, checkText(typing, { file: 'f.yaml' }));
  });

  test('a setting changed while a document is stale applies to what it shows', () => {
    const checker = new IncrementalChecker('f.yaml');
    checker.check(file, SETTINGS);
    assert.ok(checker.check(typing, SETTINGS).findings.some((f) => f.doc === 1 && f.rule === 'P12'));
    const off = checker.check(typing, { ...SETTINGS, disabledRules: new Set(['P12']) });
    assert.equal(off.stale, true);
    assert.ok(!off.findings.some((f) => f.rule === 'P12'));
  });

  test('a --- typed while a document is broken: documents cannot be matched, nothing stale is shown', () => {
    const checker = new IncrementalChecker('f.yaml');
    checker.check(file, SETTINGS);
    const split = typing.replace('  containers:', '---\n  containers:');
    assert.equal(checker.check(split, SETTINGS).stale, false);
  });
});
