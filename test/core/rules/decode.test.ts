// D01 (unknown / mis-cased field, strict decoding) and D02 (JSON type mismatch)
// (docs/spec/validation-rules.md §A.1, §A.5). Derived from the specification, not from the implementation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../../src/core/rules/types';
import { check, findingsOf, indent, podWith, textAt } from '../../helpers/manifests';

const C = 'spec.containers[0]';
const LIVE = `${C}.livenessProbe`;

function apiRulePaths(yaml: string): string[] {
  return check(yaml)
    .filter((f) => /^[PD]\d/.test(f.rule))
    .map((f) => `${f.rule} ${f.path}`)
    .sort();
}

function only(findings: Finding[]): Finding {
  assert.equal(findings.length, 1, JSON.stringify(findings.map((f) => f.message)));
  const [f] = findings;
  assert.ok(f);
  return f;
}

function deployment(containerFields: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx
${indent(containerFields, 10)}
`;
}

// ---------------------------------------------------------------- D01

const d01Cases: { name: string; fields: string; path: string; key: string; suggestion?: string; others?: string[] }[] = [
  {
    name: 'failureTreshold (misspelled)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  failureTreshold: 3',
    path: `${LIVE}.failureTreshold`,
    key: 'failureTreshold',
    suggestion: 'failureThreshold',
  },
  {
    name: 'initialDelaySecond (misspelled)',
    fields: 'readinessProbe:\n  tcpSocket:\n    port: 8080\n  initialDelaySecond: 5',
    path: `${C}.readinessProbe.initialDelaySecond`,
    key: 'initialDelaySecond',
    suggestion: 'initialDelaySeconds',
  },
  {
    name: 'httpget (mis-cased handler)',
    fields: 'livenessProbe:\n  httpget:\n    path: /healthz\n    port: 8080',
    path: `${LIVE}.httpget`,
    key: 'httpget',
    suggestion: 'httpGet',
  },
  {
    name: 'tcpsocket (mis-cased handler)',
    fields: 'startupProbe:\n  tcpsocket:\n    port: 8080',
    path: `${C}.startupProbe.tcpsocket`,
    key: 'tcpsocket',
    suggestion: 'tcpSocket',
  },
  {
    name: 'PeriodSeconds (mis-cased field)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  PeriodSeconds: 5',
    path: `${LIVE}.PeriodSeconds`,
    key: 'PeriodSeconds',
    suggestion: 'periodSeconds',
  },
  {
    name: 'sleep in a probe (lifecycle hooks only)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  sleep:\n    seconds: 5',
    path: `${LIVE}.sleep`,
    key: 'sleep',
  },
  {
    name: 'path under tcpSocket',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n    path: /healthz',
    path: `${LIVE}.tcpSocket.path`,
    key: 'path',
  },
  {
    name: 'command directly under the probe',
    fields: 'livenessProbe:\n  exec:\n    command: [cat, /tmp/x]\n  command: [cat, /tmp/y]',
    path: `${LIVE}.command`,
    key: 'command',
  },
  {
    name: 'livenesProbe (unknown container-level field)',
    fields: 'livenesProbe:\n  tcpSocket:\n    port: 8080',
    path: `${C}.livenesProbe`,
    key: 'livenesProbe',
    suggestion: 'livenessProbe',
  },
  {
    name: 'periodSeconds placed under httpGet (wrong level)',
    fields: 'livenessProbe:\n  httpGet:\n    path: /healthz\n    port: 8080\n    periodSeconds: 5',
    path: `${LIVE}.httpGet.periodSeconds`,
    key: 'periodSeconds',
  },
  {
    name: 'port placed at the probe level (wrong level)',
    fields: 'readinessProbe:\n  tcpSocket:\n    port: 8080\n  port: 8080',
    path: `${C}.readinessProbe.port`,
    key: 'port',
  },
  {
    name: 'an unknown field in an httpHeaders item',
    fields: 'livenessProbe:\n  httpGet:\n    port: 8080\n    httpHeaders:\n      - name: Accept\n        valeu: x',
    path: `${LIVE}.httpGet.httpHeaders[0].valeu`,
    key: 'valeu',
  },
];

for (const c of d01Cases) {
  test(`D01: ${c.name} → strict decoding error: unknown field`, () => {
    const yaml = podWith(c.fields);
    const f = only(findingsOf('D01', yaml));
    assert.equal(f.path, c.path);
    assert.equal(f.kind, 'UnknownField');
    assert.equal(f.severity, 'error');
    assert.ok(f.message.startsWith(`strict decoding error: unknown field "${c.path}"`), f.message);
    assert.equal(textAt(yaml, f), c.key);
    if (c.suggestion) assert.ok(f.message.includes(c.suggestion), `did-you-mean ${c.suggestion}: ${f.message}`);
  });
}

test('D01: httpget (mis-cased) suggests httpGet and gives NO P01 for that probe', () => {
  const yaml = podWith('livenessProbe:\n  httpget:\n    path: /healthz\n    port: 8080');
  const f = only(findingsOf('D01', yaml));
  assert.ok(f.message.includes('httpGet'), f.message);
  assert.deepEqual(findingsOf('P01', yaml), []);
  assert.deepEqual(apiRulePaths(yaml), [`D01 ${LIVE}.httpget`]);
});

test('D01: tcpsocket (mis-cased) on its own gives NO P01 either', () => {
  const yaml = podWith('readinessProbe:\n  tcpsocket:\n    port: 8080');
  assert.deepEqual(apiRulePaths(yaml), [`D01 ${C}.readinessProbe.tcpsocket`]);
});

test('D01: a correctly spelled probe has no D01', () => {
  const yaml = podWith(
    'livenessProbe:\n  httpGet:\n    path: /healthz\n    port: 8080\n    scheme: HTTP\n    host: 127.0.0.1\n    httpHeaders:\n      - name: Accept\n        value: x\n  initialDelaySeconds: 1\n  timeoutSeconds: 1\n  periodSeconds: 10\n  successThreshold: 1\n  failureThreshold: 3\n  terminationGracePeriodSeconds: 30\nreadinessProbe:\n  exec:\n    command: [cat, /tmp/ready]\nstartupProbe:\n  grpc:\n    port: 9090\n    service: health',
  );
  assert.deepEqual(findingsOf('D01', yaml), []);
  assert.deepEqual(apiRulePaths(yaml), []);
});

test('D01: tcpSocket.host is a known field', () => {
  assert.deepEqual(apiRulePaths(podWith('livenessProbe:\n  tcpSocket:\n    host: 10.0.0.1\n    port: 8080')), []);
});

test('D01: several unknown fields → one finding each', () => {
  const yaml = podWith('livenessProbe:\n  tcpSocket:\n    port: 8080\n  failureTreshold: 3\n  initialDelaySecond: 5');
  assert.deepEqual(
    findingsOf('D01', yaml).map((f) => f.path).sort(),
    [`${LIVE}.failureTreshold`, `${LIVE}.initialDelaySecond`],
  );
});

test('D01: in a Deployment the path has the template prefix', () => {
  const yaml = deployment('livenessProbe:\n  tcpSocket:\n    port: 8080\n  failureTreshold: 3');
  const f = only(findingsOf('D01', yaml));
  assert.equal(f.path, 'spec.template.spec.containers[0].livenessProbe.failureTreshold');
  assert.ok(f.message.startsWith('strict decoding error: unknown field "spec.template.spec.containers[0].livenessProbe.failureTreshold"'), f.message);
  assert.equal(textAt(yaml, f), 'failureTreshold');
});

test('D01: on a sidecar init container the path is under initContainers', () => {
  const yaml = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  initContainers:
    - name: proxy
      image: envoy
      restartPolicy: Always
      startupProbe:
        tcpSocket:
          port: 15000
        failureTreshold: 30
  containers:
    - name: web
      image: nginx
`;
  const f = only(findingsOf('D01', yaml));
  assert.equal(f.path, 'spec.initContainers[0].startupProbe.failureTreshold');
});

// ---------------------------------------------------------------- D02

const d02Cases: { name: string; fields: string; path: string; text: string; prefix: string }[] = [
  {
    name: 'grpc.port: grpc (a name; gRPC ports are int32)',
    fields: 'livenessProbe:\n  grpc:\n    port: grpc',
    path: `${LIVE}.grpc.port`,
    text: 'grpc',
    prefix: 'json: cannot unmarshal string into Go struct field GRPCAction.spec.containers.livenessProbe.grpc.port of type int32',
  },
  {
    name: 'grpc.port: "9090" (quoted)',
    fields: 'livenessProbe:\n  grpc:\n    port: "9090"',
    path: `${LIVE}.grpc.port`,
    text: '"9090"',
    prefix: 'json: cannot unmarshal string into Go struct field GRPCAction.spec.containers.livenessProbe.grpc.port of type int32',
  },
  {
    name: 'timeoutSeconds: "5" (quoted number)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  timeoutSeconds: "5"',
    path: `${LIVE}.timeoutSeconds`,
    text: '"5"',
    prefix: 'json: cannot unmarshal string into Go struct field Probe.spec.containers.livenessProbe.timeoutSeconds of type int32',
  },
  {
    name: 'periodSeconds 2147483648 (> 2^31-1)',
    fields: 'readinessProbe:\n  tcpSocket:\n    port: 8080\n  periodSeconds: 2147483648',
    path: `${C}.readinessProbe.periodSeconds`,
    text: '2147483648',
    prefix: 'json: cannot unmarshal number',
  },
  {
    name: 'failureThreshold -2147483649 (< -2^31)',
    fields: 'readinessProbe:\n  tcpSocket:\n    port: 8080\n  failureThreshold: -2147483649',
    path: `${C}.readinessProbe.failureThreshold`,
    text: '-2147483649',
    prefix: 'json: cannot unmarshal number',
  },
  {
    name: 'timeoutSeconds 5.5 (a fraction)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  timeoutSeconds: 5.5',
    path: `${LIVE}.timeoutSeconds`,
    text: '5.5',
    prefix: 'json: cannot unmarshal number',
  },
  {
    name: 'initialDelaySeconds: true (a boolean)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  initialDelaySeconds: true',
    path: `${LIVE}.initialDelaySeconds`,
    text: 'true',
    prefix: 'json: cannot unmarshal bool into Go struct field Probe.spec.containers.livenessProbe.initialDelaySeconds of type int32',
  },
  {
    name: 'failureThreshold: yes (YAML 1.1 boolean)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  failureThreshold: yes',
    path: `${LIVE}.failureThreshold`,
    text: 'yes',
    prefix: 'json: cannot unmarshal bool into Go struct field Probe.spec.containers.livenessProbe.failureThreshold of type int32',
  },
  {
    name: 'successThreshold: {} (an object)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  successThreshold: {}',
    path: `${LIVE}.successThreshold`,
    text: '{}',
    prefix: 'json: cannot unmarshal object into Go struct field Probe.spec.containers.livenessProbe.successThreshold of type int32',
  },
  {
    name: 'periodSeconds: [10] (an array)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  periodSeconds: [10]',
    path: `${LIVE}.periodSeconds`,
    text: '[10]',
    prefix: 'json: cannot unmarshal array into Go struct field Probe.spec.containers.livenessProbe.periodSeconds of type int32',
  },
  {
    name: 'terminationGracePeriodSeconds: "30" (int64 field)',
    fields: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  terminationGracePeriodSeconds: "30"',
    path: `${LIVE}.terminationGracePeriodSeconds`,
    text: '"30"',
    prefix: 'json: cannot unmarshal string into Go struct field Probe.spec.containers.livenessProbe.terminationGracePeriodSeconds of type int64',
  },
  {
    name: 'command: "cat /tmp/x" (a string instead of a list)',
    fields: 'livenessProbe:\n  exec:\n    command: "cat /tmp/x"',
    path: `${LIVE}.exec.command`,
    text: '"cat /tmp/x"',
    prefix: 'json: cannot unmarshal string into Go struct field ExecAction.spec.containers.livenessProbe.exec.command of type []string',
  },
  {
    name: 'command: [true] (a YAML boolean element)',
    fields: 'livenessProbe:\n  exec:\n    command: [true]',
    path: `${LIVE}.exec.command[0]`,
    text: 'true',
    prefix: 'json: cannot unmarshal bool into Go struct field ExecAction.spec.containers.livenessProbe.exec.command of type string',
  },
  {
    name: 'ports: {} (an object instead of a list)',
    fields: 'ports: {}',
    path: `${C}.ports`,
    text: '{}',
    prefix: 'json: cannot unmarshal object into Go struct field Container.spec.containers.ports of type',
  },
  {
    name: 'httpGet.scheme: 1 (a number for a string)',
    fields: 'livenessProbe:\n  httpGet:\n    port: 8080\n    scheme: 1',
    path: `${LIVE}.httpGet.scheme`,
    text: '1',
    prefix: 'json: cannot unmarshal number into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.scheme of type',
  },
];

for (const c of d02Cases) {
  test(`D02: ${c.name} → json: cannot unmarshal`, () => {
    const yaml = podWith(c.fields);
    const f = only(findingsOf('D02', yaml));
    assert.equal(f.path, c.path);
    assert.equal(f.kind, 'TypeMismatch');
    assert.equal(f.severity, 'error');
    assert.ok(f.message.startsWith(c.prefix), `${f.message}\n  expected to start with\n${c.prefix}`);
    assert.equal(textAt(yaml, f), c.text);
  });
}

test('D02: a number too large for int32 names its Go field and type', () => {
  const yaml = podWith('readinessProbe:\n  tcpSocket:\n    port: 8080\n  periodSeconds: 2147483648');
  const f = only(findingsOf('D02', yaml));
  assert.ok(f.message.includes('Go struct field Probe.spec.containers.readinessProbe.periodSeconds of type int32'), f.message);
});

test('D02: 2147483647 (int32 max) is accepted', () => {
  const yaml = podWith('readinessProbe:\n  tcpSocket:\n    port: 8080\n  periodSeconds: 2147483647\n  initialDelaySeconds: 2147483647');
  assert.deepEqual(apiRulePaths(yaml), []);
});

test('D02: grpc.port as a name gives no P05 for it', () => {
  const yaml = podWith('livenessProbe:\n  grpc:\n    port: grpc');
  assert.deepEqual(findingsOf('P05', yaml), []);
  assert.deepEqual(findingsOf('P01', yaml), []);
  assert.deepEqual(apiRulePaths(yaml), [`D02 ${LIVE}.grpc.port`]);
});

test('D02: a quoted timeoutSeconds gives no other API finding for that field', () => {
  const yaml = podWith('livenessProbe:\n  tcpSocket:\n    port: 8080\n  timeoutSeconds: "-5"');
  assert.deepEqual(apiRulePaths(yaml), [`D02 ${LIVE}.timeoutSeconds`]);
});

for (const [field, value] of [
  ['timeoutSeconds', '5.0'],
  ['periodSeconds', '10.0'],
  ['failureThreshold', '3.00'],
  ['initialDelaySeconds', '0.0'],
] as const) {
  test(`D02: an integral float ${field}: ${value} is accepted`, () => {
    const yaml = podWith(`livenessProbe:\n  tcpSocket:\n    port: 8080\n  ${field}: ${value}`);
    assert.deepEqual(findingsOf('D02', yaml), []);
    assert.deepEqual(apiRulePaths(yaml), []);
  });
}

test('D02: an integral float keeps its value (successThreshold 2.0 on liveness → P12 with value 2)', () => {
  const yaml = podWith('livenessProbe:\n  tcpSocket:\n    port: 8080\n  successThreshold: 2.0');
  assert.deepEqual(findingsOf('D02', yaml), []);
  const f = only(findingsOf('P12', yaml));
  assert.equal(f.message, `${LIVE}.successThreshold: Invalid value: 2: must be 1`);
});

test('D02: httpGet/tcpSocket port as a string is NOT a type mismatch (IntOrString) — it is P06', () => {
  const yaml = podWith('livenessProbe:\n  httpGet:\n    port: "8080"\nreadinessProbe:\n  tcpSocket:\n    port: http');
  assert.deepEqual(findingsOf('D02', yaml), []);
  assert.deepEqual(apiRulePaths(yaml), [`P06 ${LIVE}.httpGet.port`]);
});

test('D02: in a Deployment the Go field path has the template prefix without indices', () => {
  const yaml = deployment('livenessProbe:\n  tcpSocket:\n    port: 8080\n  timeoutSeconds: "5"');
  const f = only(findingsOf('D02', yaml));
  assert.equal(f.path, 'spec.template.spec.containers[0].livenessProbe.timeoutSeconds');
  assert.ok(
    f.message.startsWith('json: cannot unmarshal string into Go struct field Probe.spec.template.spec.containers.livenessProbe.timeoutSeconds of type int32'),
    f.message,
  );
  assert.equal(textAt(yaml, f), '"5"');
});

test('D02: a second container and a readiness probe keep their own paths', () => {
  const yaml = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: a
      image: nginx
    - name: b
      image: nginx
      readinessProbe:
        grpc:
          port: health
`;
  const f = only(findingsOf('D02', yaml));
  assert.equal(f.path, 'spec.containers[1].readinessProbe.grpc.port');
  assert.ok(f.message.startsWith('json: cannot unmarshal string into Go struct field GRPCAction.spec.containers.readinessProbe.grpc.port of type int32'), f.message);
  assert.equal(textAt(yaml, f), 'health');
});

test('D02: command: "cat /tmp/x" is a type mismatch (runtime rule L20 disabled)', () => {
  const yaml = podWith('livenessProbe:\n  exec:\n    command: "cat /tmp/x"');
  const f = only(findingsOf('D02', yaml, { disabledRules: new Set(['L20']) }));
  assert.equal(f.path, `${LIVE}.exec.command`);
  assert.ok(
    f.message.startsWith('json: cannot unmarshal string into Go struct field ExecAction.spec.containers.livenessProbe.exec.command of type []string'),
    f.message,
  );
  assert.equal(textAt(yaml, f), '"cat /tmp/x"');
});

// Strategic-merge patch directives (kustomize patches, `kubectl patch`) are instructions, not fields.

test('D01: $patch, $retainKeys, $setElementOrder/… and $deleteFromPrimitiveList/… are not unknown fields', () => {
  // kubeflow's model-registry postgres overlay and gatekeeper's helmify patches, reduced.
  const yaml = deployment(`$setElementOrder/env: [{name: A}]
$deleteFromPrimitiveList/args: ["--verbose"]
$retainKeys: [ports]
ports:
  - {containerPort: 8888, $patch: delete}
env:
  - {name: A, value: a, $patch: replace}
livenessProbe:
  $patch: replace
  tcpSocket: {port: 8080}
  failureTreshold: 5`);
  assert.deepEqual(
    findingsOf('D01', yaml).map((f) => f.message),
    ['strict decoding error: unknown field "spec.template.spec.containers[0].livenessProbe.failureTreshold" (did you mean "failureThreshold"?)'],
    'only the real misspelling',
  );
});

test('D01: a probe the patch deletes ($patch: delete) is no probe: no P01 for its missing handler', () => {
  const yaml = deployment('readinessProbe:\n  $patch: delete\nlivenessProbe:\n  tcpSocket: {port: 8080}');
  assert.deepEqual(check(yaml).filter((f) => f.rule.startsWith('P') || f.rule.startsWith('D')), []);
});
