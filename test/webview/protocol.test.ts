import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHostMessage, isWebviewMessage, TIMELINE_PROTOCOL_VERSION } from '../../src/shared/protocol';

// The messages issue 12 adds, checked on arrival: the webview asks why (`explain`), the host
// answers (`explanation`); a load may hold several runs (`sections`). Anything else is ignored.

const v = TIMELINE_PROTOCOL_VERSION;
const evidence = { t: 60, type: 'attempt', summary: 'readiness failure: HTTP 503', lane: 'probe:web/web/readiness' };
const explanation = { pod: 'web', container: 'web', t: 76, state: 'not-ready', sentence: 'Not Ready since …', causes: [{ reason: 'readiness-failing', text: 'readiness failed 3 times', evidence: [evidence] }] };

test('explain: a question the host takes, and what it does not', () => {
  assert.equal(isWebviewMessage({ type: 'explain', protocol: v, request: 1, pod: 'web', container: 'web', t: 76 }), true);
  assert.equal(isWebviewMessage({ type: 'explain', protocol: v, request: 1, pod: 'web', container: 'web', t: 76, section: 'replayed' }), true);
  for (const bad of [
    { type: 'explain', protocol: v + 1, request: 1, pod: 'web', container: 'web', t: 76 },
    { type: 'explain', protocol: v, pod: 'web', container: 'web', t: 76 },
    { type: 'explain', protocol: v, request: 1, pod: 'web', container: 7, t: 76 },
    { type: 'explain', protocol: v, request: 1, pod: 'web', container: 'web', t: Number.NaN },
    { type: 'explain', protocol: v, request: 1, pod: 'web', container: 'web', t: 76, section: 3 },
  ]) {
    assert.equal(isWebviewMessage(bad), false, JSON.stringify(bad));
  }
});

test('explanation: an answer the webview shows (an explanation, or why there is none); a malformed one is ignored', () => {
  assert.equal(isHostMessage({ type: 'explanation', protocol: v, request: 1, explanation }), true);
  assert.equal(isHostMessage({ type: 'explanation', protocol: v, request: 1, failure: 'no lines by then' }), true);
  for (const bad of [
    { type: 'explanation', protocol: v, request: 1 },
    { type: 'explanation', protocol: v, explanation },
    { type: 'explanation', protocol: v, request: 1, explanation: { ...explanation, sentence: 3 } },
    { type: 'explanation', protocol: v, request: 1, explanation: { ...explanation, causes: [{ reason: 'x', text: 'y', evidence: [{ ...evidence, lane: undefined }] }] } },
    { type: 'explanation', protocol: v, request: 1, explanation: { ...explanation, causes: 'none' } },
  ]) {
    assert.equal(isHostMessage(bad), false, JSON.stringify(bad));
  }
});

test('a load of several runs: each section named, titled and counted', () => {
  const load = { type: 'load', protocol: v, source: {}, events: [], dropped: [], now: 0 };
  assert.equal(isHostMessage({ ...load, sections: [{ name: 'recorded', title: 'recorded', events: 3 }] }), true);
  assert.equal(isHostMessage(load), true);
  assert.equal(isHostMessage({ ...load, sections: [{ name: 'recorded', title: 'recorded', events: -1 }] }), false);
  assert.equal(isHostMessage({ ...load, sections: [{ name: 'recorded', events: 3 }] }), false);
  assert.equal(isHostMessage({ ...load, sections: 'two' }), false);
});
