import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findingsOf, podWith, textAt } from '../helpers/manifests';

test('P12: liveness successThreshold must be 1', () => {
  const yaml = podWith(`livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2`);
  const [finding, ...rest] = findingsOf('P12', yaml);
  assert.equal(rest.length, 0);
  assert.equal(finding?.message, 'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1');
  assert.equal(finding && textAt(yaml, finding), '2');
});
