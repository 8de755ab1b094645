import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { liveProbeTitle, OUTCOME_MARKS, probeExtent, staticProbeTitle } from '../../../src/core/editor/probeText';
import { escapeMarkdown } from '../../../src/core/text/markdown';
import { handlerTitle } from '../../../src/core/manifest/handlerTitle';
import { whyNeverActs } from '../../../src/core/editor/neverActs';
import { checkText } from '../../../src/core/check';
import { parseManifest, type ProbeModel } from '../../../src/core/manifest';
import { trailingFailures } from '../../../src/core/session/outcomes';
import type { ProbeSummary } from '../../../src/core/session/summary';
import { podWith } from '../../helpers/manifests';

function probes(fields: string): ProbeModel[] {
  return parseManifest(podWith(fields)).documents[0]!.podSpecs[0]!.containers[0]!.probes as ProbeModel[];
}

const probe = (fields: string, type: ProbeModel['type']) => probes(fields).find((p) => p.type === type)!;

function summary(partial: Partial<ProbeSummary>): ProbeSummary {
  return { attempts: 0, successes: 0, recent: [], lastOutput: '', lastError: undefined, lastDurationMs: 0, result: undefined, ...partial };
}

describe('code lens titles (issue 4: static)', () => {
  test('startup budget is d + f × p', () => {
    assert.equal(staticProbeTitle(probe('startupProbe: {tcpSocket: {port: 80}, initialDelaySeconds: 10, failureThreshold: 30, periodSeconds: 10}', 'startup')), 'startup budget 310 s');
  });

  test('liveness without a startupProbe kills at d + f × p after start', () => {
    assert.equal(staticProbeTitle(probe('livenessProbe: {httpGet: {port: 80}}', 'liveness')), 'liveness kills after 30 s');
  });

  test('liveness behind a startupProbe kills after f × p of failures', () => {
    const fields = 'livenessProbe: {httpGet: {port: 80}, initialDelaySeconds: 100, periodSeconds: 5}\nstartupProbe: {httpGet: {port: 80}}';
    assert.equal(staticProbeTitle(probe(fields, 'liveness')), 'liveness kills after 15 s failing');
  });

  test('readiness goes unready after f × p of failures', () => {
    assert.equal(staticProbeTitle(probe('readinessProbe: {httpGet: {port: 80}, periodSeconds: 2, failureThreshold: 5}', 'readiness')), 'unready after 10 s failing');
  });

  test('a probe that can never act: why, not timings it will never have', () => {
    const check = (fields: string) => checkText(podWith(fields), { file: 'f.yaml' });
    const undeclared = probe('readinessProbe: {httpGet: {port: metrics}}', 'readiness');
    assert.equal(staticProbeTitle(undeclared, whyNeverActs(undeclared, check('readinessProbe: {httpGet: {port: metrics}}'))), 'never counts: port metrics is not declared');
    const rejected = probe('livenessProbe: {tcpSocket: {port: 80}, successThreshold: 2}', 'liveness');
    assert.equal(staticProbeTitle(rejected, whyNeverActs(rejected, check('livenessProbe: {tcpSocket: {port: 80}, successThreshold: 2}'))), 'never runs: the API server rejects it (P12)');
    const fine = probe('livenessProbe: {tcpSocket: {port: 80}}', 'liveness');
    assert.equal(staticProbeTitle(fine, whyNeverActs(fine, [])), 'liveness kills after 30 s');
  });
});

describe('code lens titles (issue 4: live)', () => {
  test('no attempt yet', () => {
    assert.equal(liveProbeTitle('readiness', undefined, 3), '○ waiting for the first attempt');
  });

  test('passing', () => {
    assert.equal(liveProbeTitle('readiness', summary({ attempts: 12, successes: 12, recent: ['success'], lastDurationMs: 4.2, result: 'Success' }), 3), '● ready · 12/12 ok · 4 ms');
    assert.equal(liveProbeTitle('liveness', summary({ attempts: 1, successes: 1, recent: ['success'], result: 'Success' }), 3), '● alive · 1/1 ok · 0 ms');
  });

  test('succeeding but below successThreshold', () => {
    assert.equal(liveProbeTitle('readiness', summary({ attempts: 1, successes: 1, recent: ['success'], lastDurationMs: 3, result: 'Failure' }), 3), '◐ not ready yet · 1/1 ok · 3 ms');
  });

  test('failing counts consecutive failures up to the threshold, skipping prober errors (P5)', () => {
    assert.equal(liveProbeTitle('liveness', summary({ attempts: 5, successes: 3, recent: ['success', 'failure', 'unknown', 'failure'], result: 'Success' }), 3), '✖ failing 2/3');
    assert.equal(liveProbeTitle('liveness', summary({ attempts: 9, recent: Array(9).fill('failure'), result: 'Failure' }), 3), '✖ failing 3/3');
  });
});

describe('hover', () => {
  test('handler titles', () => {
    const [http, tcp, exec] = [
      probe('livenessProbe: {httpGet: {path: healthz, port: http}}', 'liveness'),
      probe('livenessProbe: {tcpSocket: {port: 5432}}', 'liveness'),
      probe('livenessProbe: {exec: {command: [cat, /tmp/ok]}}', 'liveness'),
    ];
    assert.equal(handlerTitle(http.effective.handler), 'httpGet http://:http/healthz');
    assert.equal(handlerTitle(tcp.effective.handler), 'tcpSocket :5432');
    assert.equal(handlerTitle(exec.effective.handler), 'exec cat /tmp/ok');
    assert.equal(handlerTitle(http.effective.handler, { ports: [{ name: 'http', containerPort: 8080 }] }), 'httpGet http://:8080/healthz (port http)');
    assert.equal(handlerTitle(http.effective.handler, { ports: [] }), 'httpGet http://:http/healthz (port http is not declared)');
  });
});

describe('shared by hovers and the Probes view', () => {
  test('trailing failures: the newest run of failures, prober errors neither break nor extend it (P5)', () => {
    assert.equal(trailingFailures([]), 0);
    assert.equal(trailingFailures(['failure', 'success']), 0);
    assert.equal(trailingFailures(['success', 'failure', 'unknown', 'failure']), 2);
    assert.equal(trailingFailures(['failure', 'warning', 'unknown']), 0);
  });

  test('one mark per outcome', () => {
    assert.deepEqual(OUTCOME_MARKS, { success: '●', warning: '◐', failure: '✖', unknown: '?' });
  });

  test('markdown punctuation is escaped', () => {
    assert.equal(escapeMarkdown('httpGet http://:8080/healthz_[x]'), 'httpGet http://:8080/healthz\\_\\[x\\]');
  });

  test('a probe extends from its key to the end of its value', () => {
    const readiness = probe('readinessProbe:\n  httpGet: {port: 80}\n  periodSeconds: 2\nlivenessProbe: {tcpSocket: {port: 80}}', 'readiness');
    const extent = probeExtent(readiness);
    assert.deepEqual(extent.start, readiness.keyRange.start);
    assert.equal(extent.start.line, 8);
    assert.equal(extent.end.line, 10);
  });
});
