// P09–P13: validateProbe / validateLivenessProbe / validateReadinessProbe / validateStartupProbe
// (docs/spec/validation-rules.md §A.3, §B). Derived from the specification, not from the implementation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../../src/core/rules/types';
import { check, findingsOf, podWith, textAt } from '../../helpers/manifests';

const PROBES = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' } as const;
type ProbeKind = keyof typeof PROBES;
const KINDS = Object.keys(PROBES) as ProbeKind[];

function apiFindings(yaml: string): Finding[] {
  return check(yaml).filter((f) => /^[PD]\d/.test(f.rule));
}

function apiRulePaths(yaml: string): string[] {
  return apiFindings(yaml).map((f) => `${f.rule} ${f.path}`);
}

/** A Pod whose container has one probe of the given kind: a tcpSocket handler plus `fields`. */
function probeWith(kind: ProbeKind, fields: string): string {
  const lines = fields.trim().length ? fields.trim().split('\n').map((l) => '  ' + l) : [];
  return podWith([`${PROBES[kind]}:`, '  tcpSocket:', '    port: 8080', ...lines].join('\n'));
}

function probePath(kind: ProbeKind): string {
  return `spec.containers[0].${PROBES[kind]}`;
}

function only(findings: Finding[]): Finding {
  assert.equal(findings.length, 1, JSON.stringify(findings.map((f) => f.message)));
  const [f] = findings;
  assert.ok(f);
  return f;
}

// ---------------------------------------------------------------- P09

const NONNEG = 'must be greater than or equal to 0';
const P09_FIELDS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;

for (const field of P09_FIELDS) {
  for (const value of [-1, -100]) {
    // Readiness: successThreshold has no "must be 1" rule there, so P09 is alone.
    test(`P09: readiness ${field} ${value} → must be greater than or equal to 0`, () => {
      const yaml = probeWith('readiness', `${field}: ${value}`);
      const path = `${probePath('readiness')}.${field}`;
      const f = only(findingsOf('P09', yaml));
      assert.equal(f.path, path);
      assert.equal(f.kind, 'Invalid');
      assert.equal(f.message, `${path}: Invalid value: ${value}: ${NONNEG}`);
      assert.equal(textAt(yaml, f), String(value));
      assert.deepEqual(apiRulePaths(yaml), [`P09 ${path}`]);
    });
  }
  for (const kind of KINDS) {
    test(`P09: ${kind} ${field} -1 is reported`, () => {
      const yaml = probeWith(kind, `${field}: -1`);
      assert.deepEqual(findingsOf('P09', yaml).map((f) => f.path), [`${probePath(kind)}.${field}`]);
    });
    test(`P09: ${kind} ${field} 0 is valid (defaulted or legal)`, () => {
      assert.deepEqual(apiRulePaths(probeWith(kind, `${field}: 0`)), []);
    });
    test(`P09: ${kind} ${field} has no upper bound`, () => {
      const value = field === 'successThreshold' && kind !== 'readiness' ? 1 : 100000;
      assert.deepEqual(apiRulePaths(probeWith(kind, `${field}: ${value}`)), []);
    });
  }
}

test('P09: all five fields negative → five findings, one per field', () => {
  const yaml = probeWith('readiness', P09_FIELDS.map((f) => `${f}: -3`).join('\n'));
  assert.deepEqual(
    findingsOf('P09', yaml).map((f) => f.path).sort(),
    P09_FIELDS.map((f) => `${probePath('readiness')}.${f}`).sort(),
  );
});

for (const kind of KINDS) {
  test(`P09: ${kind} with zeros in all four defaulted fields and initialDelaySeconds 0 is valid`, () => {
    const yaml = probeWith(kind, 'initialDelaySeconds: 0\ntimeoutSeconds: 0\nperiodSeconds: 0\nsuccessThreshold: 0\nfailureThreshold: 0');
    assert.deepEqual(apiRulePaths(yaml), []);
  });
}

// ---------------------------------------------------------------- P10 / P11

const POSITIVE = 'must be greater than 0';
const NOT_READINESS = 'must not be set for readinessProbes';

for (const kind of ['liveness', 'startup'] as const) {
  for (const value of [0, -1]) {
    test(`P10: ${kind} terminationGracePeriodSeconds ${value} → must be greater than 0`, () => {
      const yaml = probeWith(kind, `terminationGracePeriodSeconds: ${value}`);
      const path = `${probePath(kind)}.terminationGracePeriodSeconds`;
      const f = only(findingsOf('P10', yaml));
      assert.equal(f.path, path);
      assert.equal(f.kind, 'Invalid');
      assert.equal(f.message, `${path}: Invalid value: ${value}: ${POSITIVE}`);
      assert.equal(textAt(yaml, f), String(value));
      assert.deepEqual(apiRulePaths(yaml), [`P10 ${path}`]);
    });
  }
  for (const value of [1, 30, 3600]) {
    test(`P10: ${kind} terminationGracePeriodSeconds ${value} is valid`, () => {
      assert.deepEqual(apiRulePaths(probeWith(kind, `terminationGracePeriodSeconds: ${value}`)), []);
    });
  }
}

for (const value of [0, -1]) {
  test(`P10: readiness terminationGracePeriodSeconds ${value} → P10 and P11 at the same path`, () => {
    const yaml = probeWith('readiness', `terminationGracePeriodSeconds: ${value}`);
    const path = `${probePath('readiness')}.terminationGracePeriodSeconds`;
    const p10 = only(findingsOf('P10', yaml));
    const p11 = only(findingsOf('P11', yaml));
    assert.equal(p10.path, path);
    assert.equal(p11.path, path);
    assert.equal(p10.message, `${path}: Invalid value: ${value}: ${POSITIVE}`);
    assert.equal(p11.message, `${path}: Invalid value: ${value}: ${NOT_READINESS}`);
    assert.equal(p11.kind, 'Invalid');
    assert.equal(textAt(yaml, p10), String(value));
    assert.equal(textAt(yaml, p11), String(value));
    assert.deepEqual(apiRulePaths(yaml).sort(), [`P10 ${path}`, `P11 ${path}`]);
  });
}

for (const value of [1, 30]) {
  test(`P11: readiness terminationGracePeriodSeconds ${value} → must not be set for readinessProbes`, () => {
    const yaml = probeWith('readiness', `terminationGracePeriodSeconds: ${value}`);
    const path = `${probePath('readiness')}.terminationGracePeriodSeconds`;
    const f = only(findingsOf('P11', yaml));
    assert.equal(f.path, path);
    assert.equal(f.kind, 'Invalid');
    assert.equal(f.message, `${path}: Invalid value: ${value}: ${NOT_READINESS}`);
    assert.equal(textAt(yaml, f), String(value));
    assert.deepEqual(apiRulePaths(yaml), [`P11 ${path}`]);
  });
}

test('P11: readiness without terminationGracePeriodSeconds is valid', () => {
  assert.deepEqual(apiRulePaths(probeWith('readiness', 'periodSeconds: 5')), []);
});

test('P11: terminationGracePeriodSeconds: null on readiness is "not set" → valid', () => {
  assert.deepEqual(apiRulePaths(probeWith('readiness', 'terminationGracePeriodSeconds: null')), []);
});

for (const kind of ['liveness', 'startup'] as const) {
  test(`P11: ${kind} terminationGracePeriodSeconds is allowed (not readiness)`, () => {
    assert.deepEqual(findingsOf('P11', probeWith(kind, 'terminationGracePeriodSeconds: 10')), []);
  });
}

// ---------------------------------------------------------------- P12 / P13

const P12_13 = [
  ['P12', 'liveness'],
  ['P13', 'startup'],
] as const;

for (const [rule, kind] of P12_13) {
  for (const value of [2, 3, 10]) {
    test(`${rule}: ${kind} successThreshold ${value} → must be 1`, () => {
      const yaml = probeWith(kind, `successThreshold: ${value}`);
      const path = `${probePath(kind)}.successThreshold`;
      const f = only(findingsOf(rule, yaml));
      assert.equal(f.path, path);
      assert.equal(f.kind, 'Invalid');
      assert.equal(f.message, `${path}: Invalid value: ${value}: must be 1`);
      assert.equal(textAt(yaml, f), String(value));
      assert.deepEqual(apiRulePaths(yaml), [`${rule} ${path}`]);
    });
  }
  test(`${rule}: ${kind} successThreshold 0 is valid (defaulted to 1)`, () => {
    assert.deepEqual(apiRulePaths(probeWith(kind, 'successThreshold: 0')), []);
  });
  test(`${rule}: ${kind} successThreshold 1 and missing are valid`, () => {
    assert.deepEqual(apiRulePaths(probeWith(kind, 'successThreshold: 1')), []);
    assert.deepEqual(apiRulePaths(probeWith(kind, '')), []);
  });
  test(`${rule}: ${kind} successThreshold -1 → P09 and ${rule} at the same path`, () => {
    const yaml = probeWith(kind, 'successThreshold: -1');
    const path = `${probePath(kind)}.successThreshold`;
    const p09 = only(findingsOf('P09', yaml));
    const own = only(findingsOf(rule, yaml));
    assert.equal(p09.path, path);
    assert.equal(own.path, path);
    assert.equal(p09.message, `${path}: Invalid value: -1: ${NONNEG}`);
    assert.equal(own.message, `${path}: Invalid value: -1: must be 1`);
    assert.deepEqual(apiRulePaths(yaml).sort(), [`P09 ${path}`, `${rule} ${path}`].sort());
  });
}

test('P12: readiness successThreshold 2 is valid (no "must be 1" for readiness)', () => {
  const yaml = probeWith('readiness', 'successThreshold: 2');
  assert.deepEqual(findingsOf('P12', yaml), []);
  assert.deepEqual(findingsOf('P13', yaml), []);
  assert.deepEqual(apiRulePaths(yaml), []);
});

test('P13: readiness successThreshold 5 is valid', () => {
  assert.deepEqual(apiRulePaths(probeWith('readiness', 'successThreshold: 5')), []);
});

test('P12: P12 applies to liveness only and P13 to startup only', () => {
  const yaml = podWith(
    'livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2\nstartupProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 4\nreadinessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 3',
  );
  assert.deepEqual(apiRulePaths(yaml).sort(), ['P12 spec.containers[0].livenessProbe.successThreshold', 'P13 spec.containers[0].startupProbe.successThreshold']);
});

test('P12: errors from all field rules are collected (no early exit)', () => {
  const yaml = probeWith('liveness', 'initialDelaySeconds: -1\nperiodSeconds: -2\nsuccessThreshold: 3\nterminationGracePeriodSeconds: 0');
  const p = probePath('liveness');
  assert.deepEqual(
    apiRulePaths(yaml).sort(),
    [`P09 ${p}.initialDelaySeconds`, `P09 ${p}.periodSeconds`, `P10 ${p}.terminationGracePeriodSeconds`, `P12 ${p}.successThreshold`].sort(),
  );
});

test('P09: field rules are checked even when the handler is missing (P01 plus P09)', () => {
  const yaml = podWith('livenessProbe:\n  timeoutSeconds: -1');
  assert.deepEqual(apiRulePaths(yaml).sort(), ['P01 spec.containers[0].livenessProbe', 'P09 spec.containers[0].livenessProbe.timeoutSeconds']);
});

test('D4: the API checks the kubelet relies on, together: success 1 on liveness and startup, no readiness grace, grace > 0, one handler', () => {
  const yaml = podWith(`livenessProbe: {tcpSocket: {port: 8080}, successThreshold: 2, terminationGracePeriodSeconds: 0}
readinessProbe: {tcpSocket: {port: 8080}, httpGet: {port: 8080}, terminationGracePeriodSeconds: 5}
startupProbe: {tcpSocket: {port: 8080}, successThreshold: 3}`);
  const api = check(yaml)
    .filter((f) => /^P\d/.test(f.rule))
    .map((f) => `${f.rule} ${f.path}`);
  assert.deepEqual(api.sort(), [
    // exec → httpGet → tcpSocket → grpc: httpGet comes first, so tcpSocket is the one forbidden.
    'P02 spec.containers[0].readinessProbe.tcpSocket',
    'P10 spec.containers[0].livenessProbe.terminationGracePeriodSeconds',
    'P11 spec.containers[0].readinessProbe.terminationGracePeriodSeconds',
    'P12 spec.containers[0].livenessProbe.successThreshold',
    'P13 spec.containers[0].startupProbe.successThreshold',
  ]);
});
