import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonLines, runHeader, TIMELINE_SCHEMA_VERSION, toJsonLines } from '../../../src/core/timeline/jsonl';
import { simulated, webPod } from '../../helpers/engine';

const MANIFEST = webPod(`livenessProbe: {httpGet: {path: /healthz, port: 8080}, failureThreshold: 2}\nreadinessProbe: {tcpSocket: {port: http}}`);

test('round trip: what toJsonLines writes parses back to the same header and events', () => {
  const events = simulated(MANIFEST, 'containers: {web: {readyAfter: 20, failAfter: 60}}', 300);
  const header = runHeader({ mode: 'simulate', file: 'web.yaml', seed: 1 });
  const parsed = parseJsonLines(toJsonLines(header, events));
  assert.deepEqual(parsed.header, { type: 'run', schemaVersion: TIMELINE_SCHEMA_VERSION, t: 0, mode: 'simulate', file: 'web.yaml', seed: 1 });
  assert.deepEqual(parsed.events, events);
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.skipped, 0);
  // And again: export of an import is byte-identical.
  assert.equal(toJsonLines(parsed.header ?? header, parsed.events), toJsonLines(header, events));
});

test('fields a newer writer adds pass through; line types it adds are skipped and said', () => {
  const text = [
    '{"type":"run","schemaVersion":1,"t":0}',
    '{"type":"pod","t":1,"pod":"p","ready":true,"zone":"eu-1"}',
    '{"type":"gc","t":2,"pod":"p"}',
  ].join('\n');
  const parsed = parseJsonLines(text);
  assert.deepEqual(parsed.events, [{ type: 'pod', t: 1, pod: 'p', ready: true, zone: 'eu-1' }]);
  assert.deepEqual(parsed.problems, [{ line: 3, message: 'unknown line type "gc"' }]);
});

test('bad input: broken lines are skipped with their line number, never a throw', () => {
  const text = [
    '{"type":"run","schemaVersion":1,"t":0}',
    '{"type":"attempt","t":1,"pod":"p","container":"c","probe":"liveness","containerId":"x","outcome":"success","output":"","durationMs":3}',
    '{"type":"attempt","t":"soon","pod":"p"}',
    '{"type":"attempt","t":2,"pod":"p","container":"c","probe":"sideways","containerId":"x","outcome":"success","output":"","durationMs":3}',
    '[1,2]',
    '{"type":"pod","t":3,"pod":"p","rea',
    'null',
    '\r',
    '{"type":"run","schemaVersion":1,"t":0}',
  ].join('\r\n');
  const parsed = parseJsonLines(text);
  assert.equal(parsed.events.length, 1);
  assert.deepEqual(
    parsed.problems.map((p) => `${p.line}: ${p.message.replace(/ \(.*$/, '').replace(/not JSON: .*/, 'not JSON')}`),
    ['3: attempt: field t is not valid', '4: attempt: field probe is not valid', '5: not a JSON object', '6: not JSON', '7: not a JSON object', '9: a second run header'],
  );
  assert.equal(parsed.skipped, 6);
});

test('a recording without a header (a grep of one) still loads', () => {
  const parsed = parseJsonLines('{"type":"pod","t":1,"pod":"p","ready":true}\n');
  assert.equal(parsed.header, undefined);
  assert.equal(parsed.events.length, 1);
});

test('problems are capped; the count of skipped lines is not', () => {
  const parsed = parseJsonLines(Array.from({ length: 500 }, () => 'garbage').join('\n'));
  assert.equal(parsed.problems.length, 20);
  assert.equal(parsed.skipped, 500);
});
