/**
 * L21's fix (docs/spec/validation-rules.md §D.21; docs/spec/kubelet-probes.md E4): curl and wget get a timeout of
 * their own (1 s) and the probe's timeoutSeconds goes to 2, edited where the command is written
 * (flow or block argv, a `sh -c` script in any scalar style). Each case applies the edits and
 * compares the whole file, then checks it again: L21 is gone and nothing new appears.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IncrementalChecker } from '../../../src/core/editor/incrementalChecker';
import { clientTimeoutFix } from '../../../src/core/fixes/clientTimeout';
import { applyTextEdits } from '../../../src/core/text/edits';
import { DEFAULT_MINOR_VERSION, parseManifest, type ProbeModel } from '../../../src/core/manifest';
import { check, podWith } from '../../helpers/manifests';

interface Case {
  readonly name: string;
  readonly before: string;
  /** `undefined`: no fix is offered. */
  readonly after?: string;
  readonly title?: string;
}

const CURL_TITLE = 'Add curl --max-time 1 and raise timeoutSeconds to 2';
const WGET_TITLE = 'Add wget -T 1 and raise timeoutSeconds to 2';

const CASES: readonly Case[] = [
  {
    name: 'flow argv: the option after curl, timeoutSeconds added after the probe\'s last line',
    before: 'livenessProbe:\n  exec:\n    command: ["curl", "-f", "http://localhost:8080/healthz"]',
    after: 'livenessProbe:\n  exec:\n    command: ["curl", "--max-time", "1", "-f", "http://localhost:8080/healthz"]\n  timeoutSeconds: 2',
    title: CURL_TITLE,
  },
  {
    name: 'plain flow argv: the option stays plain, its value quoted (a bare 1 is not a string)',
    before: 'livenessProbe:\n  exec: {command: [/usr/bin/curl, -fsS, http://localhost:8080/healthz]}\n  periodSeconds: 5',
    after: 'livenessProbe:\n  exec: {command: [/usr/bin/curl, --max-time, "1", -fsS, http://localhost:8080/healthz]}\n  periodSeconds: 5\n  timeoutSeconds: 2',
    title: CURL_TITLE,
  },
  {
    name: 'block argv: new items under wget at its dash column; a written timeoutSeconds: 1 is raised in place',
    before: 'readinessProbe:\n  exec:\n    command:\n      - wget   # busybox\n      - -q\n      - -O\n      - /dev/null\n      - http://localhost:8080/ready\n  timeoutSeconds: 1\n  periodSeconds: 5',
    after: 'readinessProbe:\n  exec:\n    command:\n      - wget   # busybox\n      - -T\n      - "1"\n      - -q\n      - -O\n      - /dev/null\n      - http://localhost:8080/ready\n  timeoutSeconds: 2\n  periodSeconds: 5',
    title: WGET_TITLE,
  },
  {
    name: 'block argv with wide dashes (-   curl) keeps their spacing',
    before: 'livenessProbe:\n  exec:\n    command:\n    -   curl\n    -   http://localhost:8080/healthz',
    after: 'livenessProbe:\n  exec:\n    command:\n    -   curl\n    -   --max-time\n    -   "1"\n    -   http://localhost:8080/healthz\n  timeoutSeconds: 2',
    title: CURL_TITLE,
  },
  {
    name: 'sh -c script in a double-quoted scalar: the option goes inside the script, after curl',
    before: 'livenessProbe:\n  exec:\n    command: [sh, -c, "curl -sf http://localhost:8080/healthz || exit 1"]\n  timeoutSeconds: 0',
    after: 'livenessProbe:\n  exec:\n    command: [sh, -c, "curl --max-time 1 -sf http://localhost:8080/healthz || exit 1"]\n  timeoutSeconds: 2',
    title: CURL_TITLE,
  },
  {
    name: 'a block literal script calling both clients: each gets its own, on its own line',
    before:
      'livenessProbe:\n  exec:\n    command:\n      - /bin/sh\n      - -c\n      - |\n        curl -sf http://localhost:8080/healthz &&\n          /usr/bin/wget -q -O /dev/null http://localhost:8081/ready\n  failureThreshold: 5',
    after:
      'livenessProbe:\n  exec:\n    command:\n      - /bin/sh\n      - -c\n      - |\n        curl --max-time 1 -sf http://localhost:8080/healthz &&\n          /usr/bin/wget -T 1 -q -O /dev/null http://localhost:8081/ready\n  failureThreshold: 5\n  timeoutSeconds: 2',
    title: 'Add curl --max-time 1, wget -T 1 and raise timeoutSeconds to 2',
  },
  {
    name: 'a single-quoted script, a flow probe map: timeoutSeconds after its last entry',
    before: "startupProbe: {exec: {command: [bash, -c, 'curl -f http://localhost:8080/started']}, failureThreshold: 30}\nlivenessProbe: {tcpSocket: {port: 8080}}",
    after: "startupProbe: {exec: {command: [bash, -c, 'curl --max-time 1 -f http://localhost:8080/started']}, failureThreshold: 30, timeoutSeconds: 2}\nlivenessProbe: {tcpSocket: {port: 8080}}",
    title: CURL_TITLE,
  },
  {
    name: 'no fix when periodSeconds is 1: timeoutSeconds 2 would outlast it (L12)',
    before: 'livenessProbe:\n  exec:\n    command: ["curl", "-f", "http://localhost:8080/healthz"]\n  periodSeconds: 1',
  },
  {
    name: 'no fix when timeoutSeconds comes from an alias: its anchor is shared',
    before: 'readinessProbe:\n  tcpSocket: {port: 8080}\n  timeoutSeconds: &t 1\nlivenessProbe:\n  exec:\n    command: ["curl", "-f", "http://localhost:8080/healthz"]\n  timeoutSeconds: *t',
  },
  {
    name: 'no fix when the script escapes change its words (a \\n before curl)',
    before: 'livenessProbe:\n  exec:\n    command: [sh, -c, "true\\ncurl -f http://localhost:8080/healthz"]',
  },
];

function probeOf(text: string): ProbeModel {
  const probes = parseManifest(text).documents[0]?.podSpecs[0]?.containers[0]?.probes ?? [];
  const probe = probes.find((p) => p.effective.handler?.type === 'exec');
  assert.ok(probe, 'an exec probe');
  return probe;
}

const rulesOf = (text: string) => [...new Set(check(text).map((f) => f.rule))].sort();

describe('L21: curl / wget get their own timeout', () => {
  for (const c of CASES) {
    test(c.name, () => {
      const before = podWith(c.before);
      assert.deepEqual(rulesOf(before), ['L21'], 'L21 and nothing else before the fix');
      const fix = clientTimeoutFix(probeOf(before), before);
      if (c.after === undefined) {
        assert.equal(fix, undefined);
        return;
      }
      assert.ok(fix, 'a fix');
      assert.equal(fix.title, c.title);
      const fixed = applyTextEdits(before, fix.edits);
      assert.equal(fixed, podWith(c.after));
      assert.deepEqual(rulesOf(fixed), [], 'nothing left to report');
    });
  }

  test('in a CRLF file, in the second document of the editor\'s chunks, the edits land in the right lines', () => {
    const second = podWith('readinessProbe:\n  exec:\n    command:\n      - curl\n      - http://localhost:8080/ready');
    const text = `${podWith('args: [serve]')}---\n${second}`.replace(/\n/g, '\r\n');
    const snapshot = new IncrementalChecker('f.yaml').check(text, { disabledRules: new Set(), context: { minorVersion: DEFAULT_MINOR_VERSION } });
    const placed = snapshot.podSpecs[1];
    assert.ok(placed && placed.lineOffset > 0);
    const probe = placed.spec.containers[0]?.probe('readiness');
    assert.ok(probe);
    const fix = clientTimeoutFix(probe, text, placed.lineOffset);
    assert.ok(fix);
    const after = podWith('readinessProbe:\n  exec:\n    command:\n      - curl\n      - --max-time\n      - "1"\n      - http://localhost:8080/ready\n  timeoutSeconds: 2');
    assert.equal(applyTextEdits(text, fix.edits), `${podWith('args: [serve]')}---\n${after}`.replace(/\n/g, '\r\n'));
  });

  test('nothing to fix: a client with its own timeout, or timeoutSeconds above 1', () => {
    for (const fields of [
      'livenessProbe:\n  exec:\n    command: [curl, -m, "1", http://localhost/]',
      'livenessProbe:\n  exec:\n    command: [curl, http://localhost/]\n  timeoutSeconds: 3',
    ]) {
      assert.equal(clientTimeoutFix(probeOf(podWith(fields)), podWith(fields)), undefined, fields);
    }
  });
});
