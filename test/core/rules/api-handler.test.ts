// P01–P08: validateHandler / validate*Action (docs/spec/validation-rules.md §A.3, §B).
// Derived from the specification, not from the implementation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProbeModel } from '../../../src/core/manifest/model';
import { P04 } from '../../../src/core/rules/api/handler';
import type { Finding } from '../../../src/core/rules/types';
import { check, findingsOf, podWith, textAt } from '../../helpers/manifests';

const LIVE = 'spec.containers[0].livenessProbe';

/** API-rule findings only (P.., D..). */
function apiFindings(yaml: string): Finding[] {
  return check(yaml).filter((f) => /^[PD]\d/.test(f.rule));
}

function apiRulePaths(yaml: string): string[] {
  return apiFindings(yaml).map((f) => `${f.rule} ${f.path}`);
}

/** A Pod whose container has a livenessProbe with the given body. */
function liveness(body: string): string {
  return podWith(`livenessProbe:\n${body
    .trim()
    .split('\n')
    .map((l) => '  ' + l)
    .join('\n')}`);
}

// ---------------------------------------------------------------- P01

const p01Invalid: { name: string; yaml: string; path: string }[] = [
  { name: 'empty object', yaml: podWith('livenessProbe: {}'), path: LIVE },
  { name: 'only timing fields', yaml: podWith('readinessProbe:\n  periodSeconds: 5\n  failureThreshold: 3'), path: 'spec.containers[0].readinessProbe' },
  { name: 'exec: null means no handler', yaml: podWith('startupProbe:\n  exec: null\n  periodSeconds: 5'), path: 'spec.containers[0].startupProbe' },
  { name: 'httpGet: ~ means no handler', yaml: liveness('httpGet: ~\ntimeoutSeconds: 2'), path: LIVE },
  { name: 'tcpSocket with no value means no handler', yaml: liveness('tcpSocket:\ntimeoutSeconds: 2'), path: LIVE },
];

for (const c of p01Invalid) {
  test(`P01: ${c.name} → Required "must specify a handler type"`, () => {
    const findings = findingsOf('P01', c.yaml);
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.ok(f);
    assert.equal(f.path, c.path);
    assert.equal(f.kind, 'Required');
    assert.equal(f.message, `${c.path}: Required value: must specify a handler type`);
    assert.equal(f.severity, 'error');
    const key = c.path.slice(c.path.lastIndexOf('.') + 1);
    assert.equal(textAt(c.yaml, f), key);
  });
}

test('P01: exec: null gives P01 and no P03', () => {
  const yaml = liveness('exec: null');
  assert.deepEqual(apiRulePaths(yaml), [`P01 ${LIVE}`]);
});

const p01Valid: { name: string; body: string }[] = [
  { name: 'exec', body: 'exec:\n  command: [cat, /tmp/healthy]' },
  { name: 'httpGet', body: 'httpGet:\n  path: /healthz\n  port: 8080' },
  { name: 'tcpSocket', body: 'tcpSocket:\n  port: 8080' },
  { name: 'grpc', body: 'grpc:\n  port: 9090' },
];

for (const c of p01Valid) {
  test(`P01: a probe with only ${c.name} is valid`, () => {
    assert.deepEqual(apiRulePaths(liveness(c.body)), []);
  });
}

test('P01: a probe key with no value (null) is no probe, no P01', () => {
  assert.deepEqual(findingsOf('P01', podWith('livenessProbe:\nreadinessProbe: null\nstartupProbe: ~')), []);
});

test('P01: each empty probe type gets its own finding', () => {
  const yaml = podWith('livenessProbe: {}\nreadinessProbe: {}\nstartupProbe: {}');
  assert.deepEqual(
    findingsOf('P01', yaml).map((f) => f.path).sort(),
    ['spec.containers[0].livenessProbe', 'spec.containers[0].readinessProbe', 'spec.containers[0].startupProbe'],
  );
});

// ---------------------------------------------------------------- P02

const FORBIDDEN_MORE = 'Forbidden: may not specify more than 1 handler type';

const p02Cases: { name: string; body: string; forbidden: string[] }[] = [
  { name: 'exec + httpGet', body: 'exec:\n  command: [cat, /tmp/ok]\nhttpGet:\n  port: 8080', forbidden: ['httpGet'] },
  { name: 'httpGet + tcpSocket', body: 'httpGet:\n  port: 8080\ntcpSocket:\n  port: 8080', forbidden: ['tcpSocket'] },
  { name: 'tcpSocket + grpc', body: 'tcpSocket:\n  port: 8080\ngrpc:\n  port: 9090', forbidden: ['grpc'] },
  { name: 'grpc written before exec (fixed order, not YAML order)', body: 'grpc:\n  port: 9090\nexec:\n  command: [cat, /tmp/ok]', forbidden: ['grpc'] },
  { name: 'tcpSocket written before httpGet', body: 'tcpSocket:\n  port: 8080\nhttpGet:\n  port: 8080', forbidden: ['tcpSocket'] },
  { name: 'three handlers: httpGet + tcpSocket + grpc', body: 'httpGet:\n  port: 8080\ntcpSocket:\n  port: 8080\ngrpc:\n  port: 9090', forbidden: ['tcpSocket', 'grpc'] },
  { name: 'three handlers: exec + tcpSocket + grpc', body: 'grpc:\n  port: 9090\ntcpSocket:\n  port: 8080\nexec:\n  command: [cat, /tmp/ok]', forbidden: ['tcpSocket', 'grpc'] },
  {
    name: 'all four handlers',
    body: 'exec:\n  command: [cat, /tmp/ok]\nhttpGet:\n  port: 8080\ntcpSocket:\n  port: 8080\ngrpc:\n  port: 9090',
    forbidden: ['httpGet', 'tcpSocket', 'grpc'],
  },
];

for (const c of p02Cases) {
  test(`P02: ${c.name} → Forbidden only on the later handlers`, () => {
    const yaml = liveness(c.body);
    const findings = findingsOf('P02', yaml);
    assert.deepEqual(findings.map((f) => f.path).sort(), c.forbidden.map((h) => `${LIVE}.${h}`).sort());
    for (const f of findings) {
      assert.equal(f.kind, 'Forbidden');
      assert.equal(f.message, `${f.path}: ${FORBIDDEN_MORE}`);
      assert.equal(textAt(yaml, f), f.path.slice(LIVE.length + 1));
    }
    // Nothing else from the API rules: the first handler is fine, the others are not validated.
    assert.deepEqual(apiFindings(yaml).filter((f) => f.rule !== 'P02').map((f) => `${f.rule} ${f.path}`), []);
  });
}

test('P02: a single handler is not P02', () => {
  for (const c of p01Valid) assert.deepEqual(findingsOf('P02', liveness(c.body)), [], c.name);
});

const p02NotValidated: { name: string; body: string; expected: string[] }[] = [
  { name: 'bad port in the second handler (tcpSocket 0) gives no P05', body: 'httpGet:\n  port: 8080\ntcpSocket:\n  port: 0', expected: [`P02 ${LIVE}.tcpSocket`] },
  { name: 'bad grpc port after tcpSocket gives no P05', body: 'tcpSocket:\n  port: 8080\ngrpc:\n  port: 70000', expected: [`P02 ${LIVE}.grpc`] },
  { name: 'bad port name in the second handler gives no P06', body: 'exec:\n  command: [cat, /tmp/ok]\nhttpGet:\n  port: "8080"', expected: [`P02 ${LIVE}.httpGet`] },
  { name: 'bad scheme and header in the second handler give no P07/P08', body: 'exec:\n  command: [cat, /tmp/ok]\nhttpGet:\n  port: 8080\n  scheme: http\n  httpHeaders:\n    - name: X_Bad\n      value: x', expected: [`P02 ${LIVE}.httpGet`] },
  { name: 'missing port in the second handler gives no P05', body: 'httpGet:\n  port: 8080\ntcpSocket: {}', expected: [`P02 ${LIVE}.tcpSocket`] },
  { name: 'empty exec is first and validated; the second handler is forbidden', body: 'exec:\n  command: []\ntcpSocket:\n  port: 0', expected: [`P02 ${LIVE}.tcpSocket`, `P03 ${LIVE}.exec.command`] },
  { name: 'the first handler is validated (httpGet port 0), the second is not', body: 'httpGet:\n  port: 0\ntcpSocket:\n  port: 0', expected: [`P02 ${LIVE}.tcpSocket`, `P05 ${LIVE}.httpGet.port`] },
];

for (const c of p02NotValidated) {
  test(`P02: ${c.name}`, () => {
    assert.deepEqual(apiRulePaths(liveness(c.body)).sort(), [...c.expected].sort());
  });
}

// ---------------------------------------------------------------- P03

const p03Invalid: { name: string; body: string }[] = [
  { name: 'exec: {}', body: 'exec: {}' },
  { name: 'command: []', body: 'exec:\n  command: []' },
  { name: 'command with no value', body: 'exec:\n  command:' },
];

for (const c of p03Invalid) {
  test(`P03: ${c.name} → Required at exec.command`, () => {
    const yaml = liveness(c.body);
    const findings = findingsOf('P03', yaml);
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.ok(f);
    assert.equal(f.path, `${LIVE}.exec.command`);
    assert.equal(f.kind, 'Required');
    assert.equal(f.message, `${LIVE}.exec.command: Required value`);
    // Only P03: an exec handler is present, so no P01.
    assert.deepEqual(apiRulePaths(yaml), [`P03 ${LIVE}.exec.command`]);
  });
}

const p03Valid: { name: string; body: string }[] = [
  { name: 'command: [""] (contents are not validated)', body: 'exec:\n  command: [""]' },
  { name: 'a normal command', body: 'exec:\n  command: [cat, /tmp/healthy]' },
  { name: 'a shell command', body: 'exec:\n  command:\n    - sh\n    - -c\n    - test -f /tmp/ready' },
];

// The same inputs with the runtime rule L20 switched off, so that P03 itself is verified even if a
// runtime rule stumbles over an empty command.
for (const c of p03Invalid) {
  test(`P03: ${c.name} → Required at exec.command (runtime rule L20 disabled)`, () => {
    const yaml = liveness(c.body);
    const findings = findingsOf('P03', yaml, { disabledRules: new Set(['L20']) });
    assert.deepEqual(findings.map((f) => [f.path, f.kind, f.message]), [[`${LIVE}.exec.command`, 'Required', `${LIVE}.exec.command: Required value`]]);
  });
}

for (const c of p03Valid) {
  test(`P03: ${c.name} is valid`, () => {
    assert.deepEqual(apiRulePaths(liveness(c.body)), []);
  });
}

// ---------------------------------------------------------------- P04

test('P04: httpGet.path "" in YAML is defaulted to "/" — no finding', () => {
  const yaml = liveness('httpGet:\n  path: ""\n  port: 8080');
  assert.deepEqual(findingsOf('P04', yaml), []);
  assert.deepEqual(apiRulePaths(yaml), []);
});

test('P04: missing httpGet.path and scheme in YAML are defaulted — no finding', () => {
  const yaml = liveness('httpGet:\n  port: 8080');
  assert.deepEqual(apiRulePaths(yaml), []);
});

test('P04: explicit path: null in YAML is defaulted — no finding', () => {
  assert.deepEqual(findingsOf('P04', liveness('httpGet:\n  path:\n  port: 8080')), []);
});

function handBuiltProbe(path: string): ProbeModel {
  const range = { start: { line: 7, character: 6 }, end: { line: 7, character: 19 } };
  return {
    type: 'liveness',
    path: LIVE,
    spec: { httpGet: { path, port: 8080 } },
    effective: {
      handler: { type: 'httpGet', path, port: 8080, scheme: 'HTTP', httpHeaders: [] },
      handlerCount: 1,
      initialDelaySeconds: 0,
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    },
    keyRange: range,
    decodeIssues: [],
    locate: () => undefined,
  } as unknown as ProbeModel;
}

test('P04: without defaulting, an httpGet with path "" → Required at httpGet.path', () => {
  const issues = P04.check(handBuiltProbe(''), { minorVersion: 33 });
  assert.equal(issues.length, 1);
  const [issue] = issues;
  assert.ok(issue);
  assert.equal(issue.path, `${LIVE}.httpGet.path`);
  assert.equal(issue.kind, 'Required');
  assert.equal(issue.message, `${LIVE}.httpGet.path: Required value`);
});

test('P04: without defaulting, an httpGet with path "/" is valid', () => {
  assert.deepEqual(P04.check(handBuiltProbe('/'), { minorVersion: 33 }), []);
  assert.deepEqual(P04.check(handBuiltProbe('/healthz'), { minorVersion: 33 }), []);
});

// ---------------------------------------------------------------- P05

const PORT_RANGE = 'must be between 1 and 65535, inclusive';

for (const handler of ['httpGet', 'tcpSocket', 'grpc'] as const) {
  for (const port of [0, 65536, -1, 100000]) {
    test(`P05: ${handler} port ${port} is out of range`, () => {
      const yaml = liveness(`${handler}:\n  port: ${port}`);
      const findings = findingsOf('P05', yaml);
      assert.equal(findings.length, 1);
      const [f] = findings;
      assert.ok(f);
      assert.equal(f.path, `${LIVE}.${handler}.port`);
      assert.equal(f.kind, 'Invalid');
      assert.equal(f.message, `${LIVE}.${handler}.port: Invalid value: ${port}: ${PORT_RANGE}`);
      assert.equal(textAt(yaml, f), String(port));
      assert.deepEqual(apiRulePaths(yaml), [`P05 ${LIVE}.${handler}.port`]);
    });
  }
  for (const port of [1, 65535, 8080]) {
    test(`P05: ${handler} port ${port} is valid`, () => {
      assert.deepEqual(apiRulePaths(liveness(`${handler}:\n  port: ${port}`)), []);
    });
  }
  test(`P05: ${handler} without a port → Invalid value 0`, () => {
    const body = handler === 'httpGet' ? 'httpGet:\n  path: /healthz' : handler === 'grpc' ? 'grpc:\n  service: health' : 'tcpSocket: {}';
    const yaml = liveness(body);
    const findings = findingsOf('P05', yaml);
    assert.equal(findings.length, 1);
    assert.equal(findings[0]?.path, `${LIVE}.${handler}.port`);
    assert.equal(findings[0]?.message, `${LIVE}.${handler}.port: Invalid value: 0: ${PORT_RANGE}`);
    assert.deepEqual(apiRulePaths(yaml), [`P05 ${LIVE}.${handler}.port`]);
  });
}

test('P05: readiness and startup probes are checked too', () => {
  const yaml = podWith('readinessProbe:\n  tcpSocket:\n    port: 0\nstartupProbe:\n  grpc:\n    port: 65536');
  assert.deepEqual(
    findingsOf('P05', yaml).map((f) => f.path).sort(),
    ['spec.containers[0].readinessProbe.tcpSocket.port', 'spec.containers[0].startupProbe.grpc.port'],
  );
});

test('P05: a port name (string) is not P05', () => {
  assert.deepEqual(findingsOf('P05', liveness('httpGet:\n  port: http')), []);
});

// ---------------------------------------------------------------- P06

const P06_MSG = {
  a: 'must be no more than 15 characters',
  b: 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
  c: 'must contain at least one letter (a-z)',
  d: 'must not contain consecutive hyphens',
  e: 'must not begin or end with a hyphen',
} as const;
type SubRule = keyof typeof P06_MSG;

const p06Invalid: { name: string; yamlValue: string; value: string; sub: SubRule[] }[] = [
  { name: '16 characters', yamlValue: 'abcdefghijklmnop', value: 'abcdefghijklmnop', sub: ['a'] },
  { name: 'upper case letters', yamlValue: 'Http', value: 'Http', sub: ['b'] },
  { name: 'an underscore', yamlValue: 'my_port', value: 'my_port', sub: ['b'] },
  { name: 'a dot', yamlValue: 'web.port', value: 'web.port', sub: ['b'] },
  { name: 'quoted number "8080"', yamlValue: '"8080"', value: '8080', sub: ['c'] },
  { name: "single-quoted number '80'", yamlValue: "'80'", value: '80', sub: ['c'] },
  { name: 'digits and hyphen only', yamlValue: '80-80', value: '80-80', sub: ['c'] },
  { name: 'consecutive hyphens', yamlValue: 'my--port', value: 'my--port', sub: ['d'] },
  { name: 'leading hyphen', yamlValue: '-web', value: '-web', sub: ['e'] },
  { name: 'trailing hyphen', yamlValue: 'web-', value: 'web-', sub: ['e'] },
  { name: 'consecutive hyphens and a trailing hyphen', yamlValue: 'web--port-', value: 'web--port-', sub: ['d', 'e'] },
  { name: 'violating all five sub-rules', yamlValue: '"-_123456789--123-"', value: '-_123456789--123-', sub: ['a', 'b', 'c', 'd', 'e'] },
  { name: 'violating four sub-rules', yamlValue: '"--1234567890123456"', value: '--1234567890123456', sub: ['a', 'c', 'd', 'e'] },
  { name: 'too long with upper case', yamlValue: 'VeryLongPortName1', value: 'VeryLongPortName1', sub: ['a', 'b'] },
];

for (const handler of ['httpGet', 'tcpSocket'] as const) {
  for (const c of p06Invalid) {
    test(`P06: ${handler} port name with ${c.name} → one finding per violated sub-rule (${c.sub.join(',')})`, () => {
      const yaml = liveness(`${handler}:\n  port: ${c.yamlValue}`);
      const findings = findingsOf('P06', yaml);
      const path = `${LIVE}.${handler}.port`;
      assert.deepEqual(findings.map((f) => f.message).sort(), c.sub.map((s) => `${path}: Invalid value: ${JSON.stringify(c.value)}: ${P06_MSG[s]}`).sort());
      for (const f of findings) {
        assert.equal(f.path, path);
        assert.equal(f.kind, 'Invalid');
        assert.equal(textAt(yaml, f), c.yamlValue);
      }
      // A name is never P05.
      assert.deepEqual(findingsOf('P05', yaml), []);
    });
  }
  for (const name of ['http', 'web-8080', 'abcdefghijklmno', 'a1', 'x', 'h2c', 'metrics-port']) {
    test(`P06: ${handler} port name "${name}" is valid`, () => {
      assert.deepEqual(apiRulePaths(liveness(`${handler}:\n  port: ${name}`)), []);
    });
  }
}

test('P06: a 15-character name is valid and a 16-character one is not', () => {
  assert.equal('abcdefghijklmno'.length, 15);
  assert.deepEqual(findingsOf('P06', liveness('tcpSocket:\n  port: abcdefghijklmno')), []);
  assert.equal(findingsOf('P06', liveness('tcpSocket:\n  port: abcdefghijklmnop')).length, 1);
});

test('P06: quoted "8080" → must contain at least one letter (a-z)', () => {
  const yaml = liveness('httpGet:\n  path: /healthz\n  port: "8080"');
  const [f, ...rest] = findingsOf('P06', yaml);
  assert.equal(rest.length, 0);
  assert.equal(f?.message, `${LIVE}.httpGet.port: Invalid value: "8080": must contain at least one letter (a-z)`);
});

// ---------------------------------------------------------------- P07

for (const scheme of ['https', 'Http', 'http', 'HTTP2', 'ftp', 'Https']) {
  test(`P07: scheme ${scheme} is not supported (case-sensitive)`, () => {
    const yaml = liveness(`httpGet:\n  port: 8080\n  scheme: ${scheme}`);
    const findings = findingsOf('P07', yaml);
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.ok(f);
    assert.equal(f.path, `${LIVE}.httpGet.scheme`);
    assert.equal(f.kind, 'NotSupported');
    assert.equal(f.message, `${LIVE}.httpGet.scheme: Unsupported value: "${scheme}": supported values: "HTTP", "HTTPS"`);
    assert.equal(textAt(yaml, f), scheme);
    assert.deepEqual(apiRulePaths(yaml), [`P07 ${LIVE}.httpGet.scheme`]);
  });
}

for (const [name, line] of [
  ['HTTP', 'scheme: HTTP'],
  ['HTTPS', 'scheme: HTTPS'],
  ['missing (defaulted)', ''],
  ['empty (defaulted)', 'scheme: ""'],
] as const) {
  test(`P07: scheme ${name} is valid`, () => {
    assert.deepEqual(apiRulePaths(liveness(`httpGet:\n  port: 8080${line ? '\n  ' + line : ''}`)), []);
  });
}

// ---------------------------------------------------------------- P08

const HEADER_MSG = "a valid HTTP header must consist of alphanumeric characters or '-'";

const p08Invalid: { name: string; yamlName: string; value: string }[] = [
  { name: 'underscore X_Forwarded_For', yamlName: 'X_Forwarded_For', value: 'X_Forwarded_For' },
  { name: 'colon "Host:"', yamlName: '"Host:"', value: 'Host:' },
  { name: 'empty name', yamlName: '""', value: '' },
  { name: 'a space', yamlName: '"X Header"', value: 'X Header' },
  { name: 'a dot', yamlName: 'x.header', value: 'x.header' },
];

for (const c of p08Invalid) {
  test(`P08: header name with ${c.name} → Invalid at httpGet.httpHeaders (not indexed)`, () => {
    const yaml = liveness(`httpGet:\n  port: 8080\n  httpHeaders:\n    - name: Accept\n      value: "*/*"\n    - name: ${c.yamlName}\n      value: x`);
    const findings = findingsOf('P08', yaml);
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.ok(f);
    assert.equal(f.path, `${LIVE}.httpGet.httpHeaders`);
    assert.equal(f.kind, 'Invalid');
    assert.ok(
      f.message.startsWith(`${LIVE}.httpGet.httpHeaders: Invalid value: ${JSON.stringify(c.value)}: ${HEADER_MSG}`),
      f.message,
    );
    assert.equal(textAt(yaml, f), c.yamlName);
    assert.deepEqual(apiRulePaths(yaml), [`P08 ${LIVE}.httpGet.httpHeaders`]);
  });
}

test('P08: a header without a name key has an empty name → P08', () => {
  const yaml = liveness('httpGet:\n  port: 8080\n  httpHeaders:\n    - value: x');
  const findings = findingsOf('P08', yaml);
  assert.equal(findings.length, 1);
  assert.equal(findings[0]?.path, `${LIVE}.httpGet.httpHeaders`);
  assert.ok(findings[0]?.message.startsWith(`${LIVE}.httpGet.httpHeaders: Invalid value: "": ${HEADER_MSG}`));
});

test('P08: one finding per bad header, all at the same unindexed path', () => {
  const yaml = liveness('httpGet:\n  port: 8080\n  httpHeaders:\n    - name: X_One\n      value: a\n    - name: Good\n      value: b\n    - name: "Two:"\n      value: c');
  const findings = findingsOf('P08', yaml);
  assert.equal(findings.length, 2);
  for (const f of findings) assert.equal(f.path, `${LIVE}.httpGet.httpHeaders`);
  assert.deepEqual(findings.map((f) => textAt(yaml, f)).sort(), ['"Two:"', 'X_One'].sort());
});

const p08Valid: { name: string; headers: string }[] = [
  { name: 'ordinary names', headers: '- name: X-Forwarded-For\n  value: 1.2.3.4\n- name: Host\n  value: example.com' },
  { name: 'duplicate header names', headers: '- name: X-Custom\n  value: a\n- name: X-Custom\n  value: b' },
  { name: 'names differing only by case', headers: '- name: Host\n  value: a\n- name: host\n  value: b' },
  { name: 'an empty value', headers: '- name: Accept\n  value: ""' },
  { name: 'a missing value', headers: '- name: Accept' },
  { name: 'a value with any characters', headers: '- name: Authorization\n  value: "Bearer a_b:c d/é"' },
  { name: 'digits only name', headers: '- name: "123"\n  value: x' },
];

for (const c of p08Valid) {
  test(`P08: ${c.name} are valid`, () => {
    const headers = c.headers
      .split('\n')
      .map((l) => '    ' + l)
      .join('\n');
    assert.deepEqual(apiRulePaths(liveness(`httpGet:\n  port: 8080\n  httpHeaders:\n${headers}`)), []);
  });
}

// ---------------------------------------------------------------- not validated at all

const notValidated: { rule: string; name: string; body: string }[] = [
  { rule: 'P04', name: 'arbitrary httpGet.host', body: 'httpGet:\n  host: "not a host name!"\n  port: 8080' },
  { rule: 'P05', name: 'arbitrary tcpSocket.host', body: 'tcpSocket:\n  host: my-service.default.svc.cluster.local\n  port: 8080' },
  { rule: 'P05', name: 'arbitrary grpc.service', body: 'grpc:\n  port: 9090\n  service: "any thing/at all"' },
  { rule: 'P04', name: 'arbitrary httpGet.path', body: 'httpGet:\n  path: "no leading slash?x=1"\n  port: 8080' },
  { rule: 'P04', name: 'empty httpGet.path', body: 'httpGet:\n  path: ""\n  port: 8080' },
  { rule: 'P07', name: 'missing httpGet.path and scheme', body: 'httpGet:\n  port: 8080' },
  { rule: 'P03', name: 'exec.command [""]', body: 'exec:\n  command: [""]' },
  {
    rule: 'P09',
    name: 'zeros in all defaulted fields and initialDelaySeconds 0',
    body: 'tcpSocket:\n  port: 8080\ninitialDelaySeconds: 0\ntimeoutSeconds: 0\nperiodSeconds: 0\nsuccessThreshold: 0\nfailureThreshold: 0',
  },
];

for (const c of notValidated) {
  test(`${c.rule}: no API finding for ${c.name}`, () => {
    assert.deepEqual(apiRulePaths(liveness(c.body)), []);
  });
}
