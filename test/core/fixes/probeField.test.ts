/**
 * Setting a probe's whole-number fields as written (src/core/fixes/probeField.ts, shared by L21's
 * fix and `recommend`): a written value is replaced in place; fields the probe does not write are
 * appended to its own map in one insertion, block or flow; a value from an alias or a merge key,
 * or a probe that is itself an alias, is refused with the reason. Each result is read back.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldEditContext, probeFieldEdits } from '../../../src/core/fixes/probeField';
import { applyTextEdits } from '../../../src/core/text/edits';
import { parseManifest, type ProbeModel, type ProbeType } from '../../../src/core/manifest';
import { podWith } from '../../helpers/manifests';

function probeOf(text: string, type: ProbeType = 'liveness'): ProbeModel {
  const probe = parseManifest(text).documents[0]?.podSpecs[0]?.containers[0]?.probe(type);
  assert.ok(probe);
  return probe;
}

const CASES: readonly [name: string, containerFields: string, values: [string, number][], after: string | RegExp][] = [
  ['a written value is replaced in place', 'livenessProbe:\n  tcpSocket: {port: 80}\n  timeoutSeconds: 1   # was too tight', [['timeoutSeconds', 2]], 'livenessProbe:\n  tcpSocket: {port: 80}\n  timeoutSeconds: 2   # was too tight'],
  ['fields not written are appended in one block, at the probe’s indentation', 'livenessProbe:\n  tcpSocket: {port: 80}\nimage: x', [['timeoutSeconds', 2], ['failureThreshold', 5]], 'livenessProbe:\n  tcpSocket: {port: 80}\n  timeoutSeconds: 2\n  failureThreshold: 5\nimage: x'],
  ['a flow probe gets flow entries', 'livenessProbe: {tcpSocket: {port: 80}, periodSeconds: 10}', [['timeoutSeconds', 2]], 'livenessProbe: {tcpSocket: {port: 80}, periodSeconds: 10, timeoutSeconds: 2}'],
  ['a key with no value gets one, after a space', 'livenessProbe:\n  tcpSocket: {port: 80}\n  timeoutSeconds:\n  periodSeconds: 10', [['timeoutSeconds', 3]], 'livenessProbe:\n  tcpSocket: {port: 80}\n  timeoutSeconds: 3\n  periodSeconds: 10'],
  ['a value from a merge key of an anchor is refused', 'readinessProbe: &base {tcpSocket: {port: 80}, timeoutSeconds: 1}\nlivenessProbe:\n  <<: *base\n  periodSeconds: 10', [['timeoutSeconds', 2]], /^timeoutSeconds of the livenessProbe of container "web" comes from an alias or merge key/],
];

for (const [name, fields, values, after] of CASES) {
  test(`probe fields: ${name}`, () => {
    const text = podWith(fields);
    const result = probeFieldEdits(fieldEditContext(text), probeOf(text), values);
    if (after instanceof RegExp) {
      assert.equal(result.ok, false);
      return assert.match(result.ok ? '' : result.reason, after);
    }
    assert.ok(result.ok, result.ok ? '' : result.reason);
    const edited = applyTextEdits(text, result.edits);
    assert.equal(edited, podWith(after));
    const probe = probeOf(edited);
    for (const [field, value] of values) assert.equal(probe.effective[field as 'timeoutSeconds'], value);
  });
}

test('probe fields: a probe that is itself an alias is refused (its fields live in the anchor)', () => {
  const text = podWith('readinessProbe: &p {tcpSocket: {port: 80}}\nlivenessProbe: *p');
  const result = probeFieldEdits(fieldEditContext(text), probeOf(text), [['failureThreshold', 5]]);
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.reason, /livenessProbe of container "web" is an alias/);
});
