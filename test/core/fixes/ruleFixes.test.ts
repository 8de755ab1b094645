/**
 * Every fix a rule attaches to its finding (the editor's quick fixes, docs/design.md §4), applied to
 * the text: the result must be exactly the corrected manifest, and checking it again must find
 * nothing the fix was meant to remove.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineBreakOf, splitLines } from '../../../src/core/text/lines';
import { applyTextEdits, offsetAt } from '../../../src/core/text/edits';
import { textOf, yamlScalar } from '../../../src/core/manifest/yamlText';
import { check, podWith } from '../../helpers/manifests';

interface FixCase {
  readonly name: string;
  /** The rule whose finding carries the fix. */
  readonly rule: string;
  /** The fix applied. */
  readonly title: string;
  /** Every fix the finding offers, in order (the first is preferred); default: just `title`. */
  readonly offered?: readonly string[];
  /** Container fields before and after the fix (see `podWith`). */
  readonly before: string;
  readonly after: string;
  /** Rules found before the fix, all of which it must remove: the fixed rule and its echoes. */
  readonly findingsBefore: readonly string[];
}

const FIXES: readonly FixCase[] = [
  {
    name: 'L04 unquotes a quoted port (and so ends P06)',
    rule: 'L04',
    title: 'Unquote the port: 8080',
    before: 'livenessProbe:\n  httpGet: {path: /healthz, port: "8080"}',
    after: 'livenessProbe:\n  httpGet: {path: /healthz, port: 8080}',
    findingsBefore: ['L04', 'P06'],
  },
  {
    name: "L04 unquotes a tcpSocket port written in single quotes",
    rule: 'L04',
    title: 'Unquote the port: 5432',
    before: "livenessProbe:\n  tcpSocket:\n    port: '5432'",
    after: 'livenessProbe:\n  tcpSocket:\n    port: 5432',
    findingsBefore: ['L04', 'P06'],
  },
  {
    name: 'P12 sets a liveness successThreshold to 1',
    rule: 'P12',
    title: 'Set successThreshold to 1',
    before: 'livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2',
    after: 'livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 1',
    findingsBefore: ['P12'],
  },
  {
    name: 'P13 sets a startup successThreshold to 1',
    rule: 'P13',
    title: 'Set successThreshold to 1',
    before: 'livenessProbe: {tcpSocket: {port: 8080}}\nstartupProbe: {tcpSocket: {port: 8080}, failureThreshold: 30, successThreshold: 3}',
    after: 'livenessProbe: {tcpSocket: {port: 8080}}\nstartupProbe: {tcpSocket: {port: 8080}, failureThreshold: 30, successThreshold: 1}',
    findingsBefore: ['P13'],
  },
  {
    name: 'L19 wraps a whole shell line given as one argument in sh -c',
    rule: 'L19',
    title: 'Run it with sh -c',
    before: 'livenessProbe:\n  exec:\n    command: ["cat /tmp/healthy"]',
    after: 'livenessProbe:\n  exec:\n    command: ["sh", "-c", "cat /tmp/healthy"]',
    findingsBefore: ['L19'],
  },
  {
    name: 'L19 wraps separate arguments holding shell syntax in sh -c, a block sequence included',
    rule: 'L19',
    title: 'Run it with sh -c',
    before: 'livenessProbe:\n  exec:\n    command:\n      - test\n      - -f\n      - /tmp/ready\n      - "&&"\n      - cat\n      - /tmp/healthy',
    after: 'livenessProbe:\n  exec:\n    command:\n      ["sh", "-c", "test -f /tmp/ready && cat /tmp/healthy"]',
    findingsBefore: ['L19'],
  },
  {
    name: 'L20 joins the words after sh -c into one script',
    rule: 'L20',
    title: 'Join the command into one script argument',
    before: 'livenessProbe:\n  exec: {command: [sh, -c, cat, /tmp/healthy]}',
    after: 'livenessProbe:\n  exec: {command: ["sh", "-c", "cat /tmp/healthy"]}',
    findingsBefore: ['L20'],
  },
  {
    name: 'L05 replaces a gRPC port name with the number of the containerPort so named (and so ends D02)',
    rule: 'L05',
    title: 'Use port 9090',
    before: 'ports: [{name: grpc, containerPort: 9090}]\nlivenessProbe:\n  grpc: {port: grpc}',
    after: 'ports: [{name: grpc, containerPort: 9090}]\nlivenessProbe:\n  grpc: {port: 9090}',
    findingsBefore: ['D02', 'L05'],
  },
  {
    name: 'L05 unquotes a quoted gRPC port number',
    rule: 'L05',
    title: 'Use port 9090',
    before: 'ports: [{containerPort: 9090}]\nlivenessProbe:\n  grpc:\n    port: "9090"',
    after: 'ports: [{containerPort: 9090}]\nlivenessProbe:\n  grpc:\n    port: 9090',
    findingsBefore: ['D02', 'L05'],
  },
  {
    name: 'D01 renames a misspelled probe field to the one it most likely meant',
    rule: 'D01',
    title: 'Rename to failureThreshold',
    before: 'livenessProbe:\n  tcpSocket: {port: 8080}\n  failureTreshold: 5',
    after: 'livenessProbe:\n  tcpSocket: {port: 8080}\n  failureThreshold: 5',
    findingsBefore: ['D01'],
  },
  {
    name: 'D01 renames a mis-cased handler (and the P01 "no handler" it implies never showed)',
    rule: 'D01',
    title: 'Rename to httpGet',
    before: 'livenessProbe:\n  httpget: {path: /healthz, port: 8080}',
    after: 'livenessProbe:\n  httpGet: {path: /healthz, port: 8080}',
    findingsBefore: ['D01'],
  },
  {
    name: 'P07 upper-cases the scheme',
    rule: 'P07',
    title: 'Change the scheme to HTTPS',
    before: 'livenessProbe:\n  httpGet: {path: /healthz, port: 8443, scheme: https}',
    after: 'livenessProbe:\n  httpGet: {path: /healthz, port: 8443, scheme: HTTPS}',
    findingsBefore: ['P07'],
  },
  {
    name: 'L01 offers each declared TCP port name, the closest to the typo first, and uses it',
    rule: 'L01',
    title: 'Use port "http" (8080)',
    offered: ['Use port "http" (8080)', 'Use port "admin" (9000)'],
    before: 'ports: [{name: admin, containerPort: 9000}, {name: dns, containerPort: 53, protocol: UDP}, {name: http, containerPort: 8080}]\nlivenessProbe:\n  httpGet: {path: /healthz, port: htpp}',
    after: 'ports: [{name: admin, containerPort: 9000}, {name: dns, containerPort: 53, protocol: UDP}, {name: http, containerPort: 8080}]\nlivenessProbe:\n  httpGet: {path: /healthz, port: http}',
    findingsBefore: ['L01'],
  },
  {
    name: 'L01 uses the second declared name just as exactly (a quoted port, tcpSocket)',
    rule: 'L01',
    title: 'Use port "admin" (9000)',
    offered: ['Use port "http" (8080)', 'Use port "admin" (9000)'],
    before: 'ports:\n  - name: http\n    containerPort: 8080\n  - name: admin\n    containerPort: 9000\nreadinessProbe:\n  tcpSocket:\n    port: "metrics"',
    after: 'ports:\n  - name: http\n    containerPort: 8080\n  - name: admin\n    containerPort: 9000\nreadinessProbe:\n  tcpSocket:\n    port: admin',
    findingsBefore: ['L01'],
  },
  {
    name: 'L12 lowers timeoutSeconds to one under periodSeconds',
    rule: 'L12',
    title: 'Lower timeoutSeconds to 9',
    before: 'readinessProbe:\n  httpGet: {path: /ready, port: 8080}\n  timeoutSeconds: 15',
    after: 'readinessProbe:\n  httpGet: {path: /ready, port: 8080}\n  timeoutSeconds: 9',
    findingsBefore: ['L12'],
  },
  {
    name: 'L12 lowers timeoutSeconds to 1 under a periodSeconds of 1 (never to 0), in a flow map',
    rule: 'L12',
    title: 'Lower timeoutSeconds to 1',
    before: 'livenessProbe: {tcpSocket: {port: 8080}}\nstartupProbe: {tcpSocket: {port: 8080}, periodSeconds: 1, timeoutSeconds: 3, failureThreshold: 60}',
    after: 'livenessProbe: {tcpSocket: {port: 8080}}\nstartupProbe: {tcpSocket: {port: 8080}, periodSeconds: 1, timeoutSeconds: 1, failureThreshold: 60}',
    findingsBefore: ['L12'],
  },
];

/** The fix titled `title` of the case's rule, applied to `text`, once the fixes offered are as expected. */
function applyFixOf(rule: string, text: string, title: string, offered: readonly string[] = [title]): string {
  const fixable = check(text).filter((f) => f.rule === rule);
  assert.equal(fixable.length, 1, `one ${rule} finding`);
  const fixes = fixable[0]?.fixes ?? [];
  assert.deepEqual(
    fixes.map((f) => f.title),
    offered,
  );
  const fix = fixes.find((f) => f.title === title);
  assert.ok(fix, `${rule} offers "${title}"`);
  return applyTextEdits(text, fix.edits);
}

const rulesOf = (text: string) => [...new Set(check(text).map((f) => f.rule))].sort();

describe('every rule fix, applied', () => {
  for (const c of FIXES) {
    test(c.name, () => {
      const before = podWith(c.before);
      assert.deepEqual(rulesOf(before), [...c.findingsBefore].sort(), 'the findings the case is about, and no others');
      const fixed = applyFixOf(c.rule, before, c.title, c.offered);
      assert.equal(fixed, podWith(c.after));
      assert.deepEqual(rulesOf(fixed), [], 'nothing left to report');
    });
  }

  test('the fixed rules are all the rules that attach a fix', () => {
    // Rules that attach fixes (grep -rn 'fixes' src/core/rules); a new one needs a case above.
    assert.deepEqual([...new Set(FIXES.map((c) => c.rule))].sort(), ['D01', 'L01', 'L04', 'L05', 'L12', 'L19', 'L20', 'P07', 'P12', 'P13']);
  });

  test('in a CRLF file, in the second document, the fix lands on the same token', () => {
    const c = FIXES[0] as FixCase;
    const lf = `${podWith('args: [serve]')}---\n${podWith(c.before)}`;
    const crlf = lf.replace(/\n/g, '\r\n');
    const fixed = applyFixOf(c.rule, crlf, c.title);
    assert.equal(fixed, `${podWith('args: [serve]')}---\n${podWith(c.after)}`.replace(/\n/g, '\r\n'));
    assert.deepEqual(rulesOf(fixed), []);
  });
});

describe('fixes not offered', () => {
  /** Each finding's fix titles, by the path of the finding (those through an alias share the anchor's range). */
  const fixesOf = (rule: string, text: string) =>
    Object.fromEntries(
      check(text)
        .filter((f) => f.rule === rule)
        .map((f) => [f.path.replace('spec.containers[0].', ''), f.fixes?.map((x) => x.title)]),
    );

  test('L01: a container with no named TCP port has no port to use (declaring one is the editor\'s command)', () => {
    assert.deepEqual(fixesOf('L01', podWith('ports: [{containerPort: 8080}, {name: dns, containerPort: 53, protocol: UDP}]\nlivenessProbe:\n  httpGet: {port: http}')), { 'livenessProbe.httpGet.port': undefined });
  });

  test('L01 and L12: a value from an alias is the anchor\'s, shared: it is not edited', () => {
    const yaml = podWith('ports: [{name: http, containerPort: 8080}]\nreadinessProbe:\n  httpGet: {path: /, port: &p metrics}\nlivenessProbe:\n  httpGet: {path: /, port: *p}\n  timeoutSeconds: &t 20\nstartupProbe:\n  httpGet: {path: /, port: 8080}\n  timeoutSeconds: *t\n  failureThreshold: 30');
    assert.deepEqual(fixesOf('L01', yaml), { 'readinessProbe.httpGet.port': ['Use port "http" (8080)'], 'livenessProbe.httpGet.port': undefined });
    assert.deepEqual(fixesOf('L12', yaml), { 'livenessProbe.timeoutSeconds': ['Lower timeoutSeconds to 9'], 'startupProbe.timeoutSeconds': undefined });
  });
});

describe('text edits', () => {
  const text = 'ab\r\ncd\ne\rf';

  test('lines break at CRLF, LF and a lone CR, as the manifest reader counts them', () => {
    assert.deepEqual(splitLines(text), ['ab', 'cd', 'e', 'f']);
    assert.equal(lineBreakOf(text), '\r\n');
    assert.equal(lineBreakOf('no break'), '\n');
  });

  test('positions become offsets, clamped to the line and the text', () => {
    assert.deepEqual(
      [
        { line: 0, character: 1 },
        { line: 1, character: 0 },
        { line: 1, character: 99 },
        { line: 3, character: 1 },
        { line: 9, character: 0 },
      ].map((p) => offsetAt(text, p)),
      [1, 4, 6, 10, 10],
    );
  });

  test('a string as a YAML scalar: plain when Kubernetes (YAML 1.1) reads it back the same, else quoted', () => {
    assert.deepEqual(
      ['http', '--max-time', '-T', '/usr/bin/curl', '1', '0x1f', 'on', 'no', 'null', '~', '.inf', 'a b', 'a: b', '#x', ''].map(yamlScalar),
      ['http', '--max-time', '-T', '/usr/bin/curl', '"1"', '"0x1f"', '"on"', '"no"', '"null"', '"~"', '".inf"', '"a b"', '"a: b"', '"#x"', '""'],
    );
  });

  test('the text of a range across lines, and the file position of each of its offsets', () => {
    const lines = ['ab', '  cdef', 'gh'];
    const written = textOf(lines, { start: { line: 0, character: 1 }, end: { line: 2, character: 1 } });
    assert.equal(written.text, 'b\n  cdef\ng');
    // Offset 8 is the line break after "cdef": the end of line 1.
    assert.deepEqual([0, 1, 2, 4, 8, 9, 10].map(written.positionAt), [
      { line: 0, character: 1 },
      { line: 0, character: 2 },
      { line: 1, character: 0 },
      { line: 1, character: 2 },
      { line: 1, character: 6 },
      { line: 2, character: 0 },
      { line: 2, character: 1 },
    ]);
  });

  test('edits refer to the original text, in any order; overlapping ones are refused', () => {
    const at = (line: number, character: number) => ({ line, character });
    const edits = [
      { range: { start: at(2, 0), end: at(2, 1) }, newText: 'E' },
      { range: { start: at(0, 0), end: at(0, 0) }, newText: '>' },
      { range: { start: at(1, 1), end: at(2, 0) }, newText: '' },
    ];
    assert.equal(applyTextEdits(text, edits), '>ab\r\ncE\rf');
    assert.throws(() => applyTextEdits(text, [edits[2]!, { range: { start: at(1, 0), end: at(1, 2) }, newText: 'x' }]), /overlapping/);
  });
});
