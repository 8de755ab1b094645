// P14–P17 (where probes are allowed), workload path prefixes, `kind: List`, multi-document files
// (docs/spec/validation-rules.md §A.2, §A.3, §A.4). Derived from the specification, not from the implementation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../../src/core/rules/types';
import { check, findingsOf, indent, podSpec, textAt } from '../../helpers/manifests';

function apiFindings(yaml: string): Finding[] {
  return check(yaml).filter((f) => /^[PD]\d/.test(f.rule));
}

function apiRulePaths(yaml: string): string[] {
  return apiFindings(yaml)
    .map((f) => `${f.rule} ${f.path}`)
    .sort();
}

const P14_MSG = 'Forbidden: may not be set for init containers without restartPolicy=Always';
const P16_MSG = 'Forbidden: cannot be set for an Ephemeral Container';
const P17_POD = 'Forbidden: cannot be set on create';
const P17_TEMPLATE = 'Forbidden: ephemeral containers not allowed in pod template';

const MAIN = `containers:
  - name: web
    image: nginx`;

// ---------------------------------------------------------------- P14

/** Three probes full of validation-stage errors. */
const BROKEN_PROBES = `livenessProbe:
  httpGet:
    port: 0
    scheme: http
    httpHeaders:
      - name: X_Bad
        value: x
  periodSeconds: -1
  successThreshold: 5
  terminationGracePeriodSeconds: -1
readinessProbe:
  timeoutSeconds: -4
  terminationGracePeriodSeconds: 10
startupProbe:
  tcpSocket:
    port: "bad_name"
  grpc:
    port: 70000
  successThreshold: 3
  failureThreshold: -2`;

test('P14: a plain init container with all three probes → exactly three Forbidden, nothing from inside the probes', () => {
  const yaml = podSpec(`initContainers:\n  - name: init\n    image: busybox\n${indent(BROKEN_PROBES, 4)}\n${MAIN}`);
  const p14 = findingsOf('P14', yaml);
  const probes = ['livenessProbe', 'readinessProbe', 'startupProbe'];
  assert.deepEqual(p14.map((f) => f.path).sort(), probes.map((p) => `spec.initContainers[0].${p}`).sort());
  for (const f of p14) {
    assert.equal(f.kind, 'Forbidden');
    assert.equal(f.severity, 'error');
    assert.equal(f.message, `${f.path}: ${P14_MSG}`);
    assert.equal(textAt(yaml, f), f.path.slice('spec.initContainers[0].'.length));
  }
  // Nothing else at all (any rule) from inside those probes (advice about the probe itself, at its own
  // path, is not "inside").
  const inside = check(yaml).filter((f) => f.rule !== 'P14' && probes.some((p) => f.path.startsWith(`spec.initContainers[0].${p}.`)));
  assert.deepEqual(inside.map((f) => `${f.rule} ${f.path}`), []);
  // And no other API finding anywhere.
  assert.deepEqual(apiRulePaths(yaml), probes.map((p) => `P14 spec.initContainers[0].${p}`).sort());
});

for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
  test(`P14: one ${probe} on a plain init container → one Forbidden at its key`, () => {
    const yaml = podSpec(`initContainers:\n  - name: init\n    image: busybox\n    ${probe}:\n      tcpSocket:\n        port: 8080\n${MAIN}`);
    const [f, ...rest] = findingsOf('P14', yaml);
    assert.equal(rest.length, 0);
    assert.ok(f);
    assert.equal(f.message, `spec.initContainers[0].${probe}: ${P14_MSG}`);
    assert.equal(textAt(yaml, f), probe);
    assert.deepEqual(apiRulePaths(yaml), [`P14 spec.initContainers[0].${probe}`]);
  });
}

test('P14: an empty probe {} on a plain init container is Forbidden, not P01', () => {
  const yaml = podSpec(`initContainers:\n  - name: init\n    image: busybox\n    livenessProbe: {}\n${MAIN}`);
  assert.deepEqual(apiRulePaths(yaml), ['P14 spec.initContainers[0].livenessProbe']);
});

test('P14: an init container without probes, or with null probe keys, is valid', () => {
  const yaml = podSpec(`initContainers:\n  - name: init\n    image: busybox\n    livenessProbe:\n    readinessProbe: null\n  - name: init2\n    image: busybox\n${MAIN}`);
  assert.deepEqual(apiRulePaths(yaml), []);
});

test('P14: the index is the init container\'s own index', () => {
  const yaml = podSpec(
    `initContainers:\n  - name: a\n    image: busybox\n  - name: b\n    image: busybox\n    startupProbe:\n      exec:\n        command: [cat, /x]\n${MAIN}`,
  );
  assert.deepEqual(apiRulePaths(yaml), ['P14 spec.initContainers[1].startupProbe']);
});

// Decode (§A.1 step 1, §A.5) happens before validation and is not subject to P14's "contents are not
// validated": strict decoding rejects an unknown field, and a type mismatch always fails, anywhere in the object.
test('P14: decode-stage errors inside a forbidden init-container probe are still reported (D01, D02)', () => {
  const yaml = podSpec(
    `initContainers:\n  - name: init\n    image: busybox\n    livenessProbe:\n      tcpSocket:\n        port: 8080\n      failureTreshold: 3\n      timeoutSeconds: "5"\n${MAIN}`,
  );
  assert.deepEqual(apiRulePaths(yaml), [
    'D01 spec.initContainers[0].livenessProbe.failureTreshold',
    'D02 spec.initContainers[0].livenessProbe.timeoutSeconds',
    'P14 spec.initContainers[0].livenessProbe',
  ]);
});

// ---------------------------------------------------------------- P15

const SIDECAR = `initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always`;

const p15Cases: { name: string; probes: string; expected: string[] }[] = [
  {
    name: 'startupProbe successThreshold 2 → P13',
    probes: 'startupProbe:\n  tcpSocket:\n    port: 8080\n  successThreshold: 2',
    expected: ['P13 spec.initContainers[0].startupProbe.successThreshold'],
  },
  {
    name: 'readinessProbe terminationGracePeriodSeconds → P11',
    probes: 'readinessProbe:\n  tcpSocket:\n    port: 8080\n  terminationGracePeriodSeconds: 10',
    expected: ['P11 spec.initContainers[0].readinessProbe.terminationGracePeriodSeconds'],
  },
  {
    name: 'livenessProbe successThreshold 3 → P12',
    probes: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  successThreshold: 3',
    expected: ['P12 spec.initContainers[0].livenessProbe.successThreshold'],
  },
  { name: 'empty livenessProbe → P01', probes: 'livenessProbe: {}', expected: ['P01 spec.initContainers[0].livenessProbe'] },
  {
    name: 'two handlers → P02',
    probes: 'livenessProbe:\n  exec:\n    command: [cat, /x]\n  grpc:\n    port: 9090',
    expected: ['P02 spec.initContainers[0].livenessProbe.grpc'],
  },
  { name: 'exec without command → P03', probes: 'livenessProbe:\n  exec: {}', expected: ['P03 spec.initContainers[0].livenessProbe.exec.command'] },
  { name: 'port 0 → P05', probes: 'livenessProbe:\n  grpc:\n    port: 0', expected: ['P05 spec.initContainers[0].livenessProbe.grpc.port'] },
  { name: 'quoted port → P06', probes: 'readinessProbe:\n  httpGet:\n    port: "15000"', expected: ['P06 spec.initContainers[0].readinessProbe.httpGet.port'] },
  {
    name: 'lower-case scheme → P07',
    probes: 'readinessProbe:\n  httpGet:\n    port: 15000\n    scheme: https',
    expected: ['P07 spec.initContainers[0].readinessProbe.httpGet.scheme'],
  },
  {
    name: 'bad header → P08',
    probes: 'readinessProbe:\n  httpGet:\n    port: 15000\n    httpHeaders:\n      - name: X_Y\n        value: z',
    expected: ['P08 spec.initContainers[0].readinessProbe.httpGet.httpHeaders'],
  },
  {
    name: 'negative period → P09',
    probes: 'startupProbe:\n  tcpSocket:\n    port: 8080\n  periodSeconds: -1',
    expected: ['P09 spec.initContainers[0].startupProbe.periodSeconds'],
  },
  {
    name: 'terminationGracePeriodSeconds 0 → P10',
    probes: 'livenessProbe:\n  tcpSocket:\n    port: 8080\n  terminationGracePeriodSeconds: 0',
    expected: ['P10 spec.initContainers[0].livenessProbe.terminationGracePeriodSeconds'],
  },
];

for (const c of p15Cases) {
  test(`P15: sidecar (restartPolicy: Always) is validated like a regular container: ${c.name}`, () => {
    const yaml = podSpec(`${SIDECAR}\n${indent(c.probes, 4)}\n${MAIN}`);
    assert.deepEqual(apiRulePaths(yaml), [...c.expected].sort());
  });
}

test('P15: the P13 finding on a sidecar has the full message and points at the value', () => {
  const yaml = podSpec(`${SIDECAR}\n    startupProbe:\n      tcpSocket:\n        port: 8080\n      successThreshold: 2\n${MAIN}`);
  const [f, ...rest] = findingsOf('P13', yaml);
  assert.equal(rest.length, 0);
  assert.ok(f);
  assert.equal(f.message, 'spec.initContainers[0].startupProbe.successThreshold: Invalid value: 2: must be 1');
  assert.equal(textAt(yaml, f), '2');
});

test('P15: a sidecar with three valid probes has no API findings', () => {
  const yaml = podSpec(
    `${SIDECAR}\n    ports:\n      - containerPort: 15000\n        name: admin\n    startupProbe:\n      tcpSocket:\n        port: 15000\n      failureThreshold: 30\n    readinessProbe:\n      httpGet:\n        path: /ready\n        port: admin\n    livenessProbe:\n      tcpSocket:\n        port: admin\n      failureThreshold: 5\n${MAIN}`,
  );
  assert.deepEqual(apiRulePaths(yaml), []);
  assert.deepEqual(findingsOf('P14', yaml), []);
});

test('P15: plain and sidecar init containers side by side keep their own indices and treatment', () => {
  const yaml = podSpec(
    `initContainers:\n  - name: migrate\n    image: busybox\n    livenessProbe:\n      tcpSocket:\n        port: 0\n  - name: proxy\n    image: envoy\n    restartPolicy: Always\n    livenessProbe:\n      tcpSocket:\n        port: 0\n${MAIN}`,
  );
  assert.deepEqual(apiRulePaths(yaml), ['P05 spec.initContainers[1].livenessProbe.tcpSocket.port', 'P14 spec.initContainers[0].livenessProbe']);
});

// ---------------------------------------------------------------- P16 / P17

const EPHEMERAL = `ephemeralContainers:
  - name: debug
    image: busybox`;

test('P16: each probe on an ephemeral container → one Forbidden, contents not checked', () => {
  const yaml = podSpec(`${MAIN}\n${EPHEMERAL}\n${indent(BROKEN_PROBES, 4)}`);
  const probes = ['livenessProbe', 'readinessProbe', 'startupProbe'];
  const p16 = findingsOf('P16', yaml);
  assert.deepEqual(p16.map((f) => f.path).sort(), probes.map((p) => `spec.ephemeralContainers[0].${p}`).sort());
  for (const f of p16) {
    assert.equal(f.kind, 'Forbidden');
    assert.equal(f.message, `${f.path}: ${P16_MSG}`);
    assert.equal(textAt(yaml, f), f.path.slice('spec.ephemeralContainers[0].'.length));
  }
  const inside = check(yaml).filter((f) => f.rule !== 'P16' && probes.some((p) => f.path.startsWith(`spec.ephemeralContainers[0].${p}.`)));
  assert.deepEqual(inside.map((f) => `${f.rule} ${f.path}`), []);
  assert.deepEqual(apiRulePaths(yaml), [...probes.map((p) => `P16 spec.ephemeralContainers[0].${p}`), 'P17 spec.ephemeralContainers'].sort());
});

test('P16: second ephemeral container gets its own index', () => {
  const yaml = podSpec(`${MAIN}\n${EPHEMERAL}\n  - name: debug2\n    image: busybox\n    readinessProbe:\n      tcpSocket:\n        port: 8080`);
  assert.deepEqual(findingsOf('P16', yaml).map((f) => f.path), ['spec.ephemeralContainers[1].readinessProbe']);
});

test('P16: decode-stage errors inside a forbidden ephemeral-container probe are still reported (D01)', () => {
  const yaml = podSpec(`${MAIN}\n${EPHEMERAL}\n    livenessProbe:\n      tcpSocket:\n        port: 8080\n      initialDelaySecond: 5`);
  assert.deepEqual(apiRulePaths(yaml), [
    'D01 spec.ephemeralContainers[0].livenessProbe.initialDelaySecond',
    'P16 spec.ephemeralContainers[0].livenessProbe',
    'P17 spec.ephemeralContainers',
  ]);
});

test('P17: ephemeralContainers in a Pod → spec.ephemeralContainers: Forbidden: cannot be set on create', () => {
  const yaml = podSpec(`${MAIN}\n${EPHEMERAL}`);
  const [f, ...rest] = findingsOf('P17', yaml);
  assert.equal(rest.length, 0);
  assert.ok(f);
  assert.equal(f.path, 'spec.ephemeralContainers');
  assert.equal(f.kind, 'Forbidden');
  assert.equal(f.message, `spec.ephemeralContainers: ${P17_POD}`);
  assert.equal(textAt(yaml, f), 'ephemeralContainers');
  assert.deepEqual(apiRulePaths(yaml), ['P17 spec.ephemeralContainers']);
});

test('P17: ephemeralContainers in a Deployment → spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template', () => {
  const yaml = workload('Deployment', `${MAIN}\n${EPHEMERAL}`);
  const [f, ...rest] = findingsOf('P17', yaml);
  assert.equal(rest.length, 0);
  assert.ok(f);
  assert.equal(f.path, 'spec.template.spec.ephemeralContainers');
  assert.equal(f.message, `spec.template.spec.ephemeralContainers: ${P17_TEMPLATE}`);
  assert.equal(textAt(yaml, f), 'ephemeralContainers');
});

test('P17: no ephemeralContainers → no P17', () => {
  assert.deepEqual(findingsOf('P17', podSpec(MAIN)), []);
  assert.deepEqual(findingsOf('P17', workload('Deployment', MAIN)), []);
});

// ---------------------------------------------------------------- workload kinds

type Kind = 'Pod' | 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'ReplicationController' | 'CronJob' | 'PodTemplate';

/** An object of the given kind whose pod spec is `spec` (YAML at column 0). */
function workload(kind: Kind, spec: string): string {
  const head = (apiVersion: string) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: web\n`;
  const template = (at: number) => `${' '.repeat(at)}template:\n${' '.repeat(at + 2)}metadata:\n${' '.repeat(at + 4)}labels:\n${' '.repeat(at + 6)}app: web\n${' '.repeat(at + 2)}spec:\n${indent(spec, at + 4)}\n`;
  const selector = '  selector:\n    matchLabels:\n      app: web\n';
  switch (kind) {
    case 'Pod':
      return `${head('v1')}spec:\n${indent(spec, 2)}\n`;
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
      return `${head('apps/v1')}spec:\n${selector}${template(2)}`;
    case 'StatefulSet':
      return `${head('apps/v1')}spec:\n  serviceName: web\n${selector}${template(2)}`;
    case 'ReplicationController':
      return `${head('v1')}spec:\n  replicas: 1\n  selector:\n    app: web\n${template(2)}`;
    case 'Job':
      return `${head('batch/v1')}spec:\n  backoffLimit: 2\n${template(2)}`;
    case 'CronJob':
      return `${head('batch/v1')}spec:\n  schedule: "*/5 * * * *"\n  jobTemplate:\n    spec:\n${template(6)}`;
    case 'PodTemplate':
      return `${head('v1')}${template(0)}`;
  }
}

const PREFIXES: [Kind, string][] = [
  ['Pod', 'spec'],
  ['Deployment', 'spec.template.spec'],
  ['ReplicaSet', 'spec.template.spec'],
  ['StatefulSet', 'spec.template.spec'],
  ['DaemonSet', 'spec.template.spec'],
  ['Job', 'spec.template.spec'],
  ['ReplicationController', 'spec.template.spec'],
  ['CronJob', 'spec.jobTemplate.spec.template.spec'],
  ['PodTemplate', 'template.spec'],
];

const EVERYTHING = `initContainers:
  - name: migrate
    image: busybox
    livenessProbe:
      tcpSocket:
        port: 8080
  - name: proxy
    image: envoy
    restartPolicy: Always
    startupProbe:
      tcpSocket:
        port: 15000
      successThreshold: 2
containers:
  - name: web
    image: nginx
  - name: api
    image: api
    livenessProbe:
      httpGet:
        path: /healthz
        port: 8080
      successThreshold: 2
ephemeralContainers:
  - name: debug
    image: busybox
    readinessProbe:
      tcpSocket:
        port: 8080`;

for (const [kind, prefix] of PREFIXES) {
  test(`P12: ${kind} reports probe paths under ${prefix}`, () => {
    const yaml = workload(kind, EVERYTHING);
    const findings = apiFindings(yaml);
    assert.deepEqual(
      findings.map((f) => `${f.rule} ${f.path}`).sort(),
      [
        `P12 ${prefix}.containers[1].livenessProbe.successThreshold`,
        `P13 ${prefix}.initContainers[1].startupProbe.successThreshold`,
        `P14 ${prefix}.initContainers[0].livenessProbe`,
        `P16 ${prefix}.ephemeralContainers[0].readinessProbe`,
        `P17 ${prefix}.ephemeralContainers`,
      ].sort(),
    );
    for (const f of findings) {
      assert.ok(f.message.startsWith(`${f.path}: `), f.message);
      assert.equal(f.doc, 0);
    }
    const p12 = findings.find((f) => f.rule === 'P12');
    assert.ok(p12);
    assert.equal(p12.message, `${prefix}.containers[1].livenessProbe.successThreshold: Invalid value: 2: must be 1`);
    assert.equal(textAt(yaml, p12), '2');
    const p17 = findings.find((f) => f.rule === 'P17');
    assert.equal(p17?.message, `${prefix}.ephemeralContainers: ${kind === 'Pod' ? P17_POD : P17_TEMPLATE}`);
    const p14 = findings.find((f) => f.rule === 'P14');
    assert.ok(p14);
    assert.equal(textAt(yaml, p14), 'livenessProbe');
  });
}

test('P12: kind: List → paths relative to each item, all in document 0', () => {
  const pod = workload('Pod', 'containers:\n  - name: web\n    image: nginx\n    livenessProbe:\n      tcpSocket:\n        port: 8080\n      successThreshold: 2');
  const deployment = workload('Deployment', 'containers:\n  - name: web\n    image: nginx\n    startupProbe:\n      tcpSocket:\n        port: 0');
  const cronJob = workload('CronJob', 'restartPolicy: OnFailure\ncontainers:\n  - name: job\n    image: busybox\n    readinessProbe: {}');
  const item = (doc: string) => {
    const [first, ...rest] = doc.trimEnd().split('\n');
    return [`  - ${first}`, ...rest.map((l) => (l.length ? `    ${l}` : l))].join('\n');
  };
  const yaml = `apiVersion: v1\nkind: List\nitems:\n${item(pod)}\n${item(deployment)}\n${item(cronJob)}\n`;
  const findings = apiFindings(yaml);
  assert.deepEqual(
    findings.map((f) => `${f.rule} ${f.path}`).sort(),
    [
      'P01 spec.jobTemplate.spec.template.spec.containers[0].readinessProbe',
      'P05 spec.template.spec.containers[0].startupProbe.tcpSocket.port',
      'P12 spec.containers[0].livenessProbe.successThreshold',
    ],
  );
  for (const f of findings) assert.equal(f.doc, 0);
  const p12 = findings.find((f) => f.rule === 'P12');
  const p05 = findings.find((f) => f.rule === 'P05');
  const p01 = findings.find((f) => f.rule === 'P01');
  assert.ok(p12 && p05 && p01);
  assert.equal(textAt(yaml, p12), '2');
  assert.equal(textAt(yaml, p05), '0');
  assert.equal(textAt(yaml, p01), 'readinessProbe');
  assert.ok(p12.range.start.line < p05.range.start.line && p05.range.start.line < p01.range.start.line);
});

// ---------------------------------------------------------------- multi-document files

const BAD_POD = workload('Pod', 'containers:\n  - name: web\n    image: nginx\n    livenessProbe:\n      tcpSocket:\n        port: 8080\n      successThreshold: 2').trimEnd();
const BAD_DEPLOYMENT = workload('Deployment', 'containers:\n  - name: web\n    image: nginx\n    livenessProbe:\n      tcpSocket:\n        port: 8080\n      successThreshold: 3').trimEnd();
const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80';

const multiDocCases: { name: string; yaml: string; expected: [number, string, string][] }[] = [
  {
    name: 'two documents without a leading ---',
    yaml: `${BAD_POD}\n---\n${BAD_DEPLOYMENT}\n`,
    expected: [
      [0, 'spec.containers[0].livenessProbe.successThreshold', '2'],
      [1, 'spec.template.spec.containers[0].livenessProbe.successThreshold', '3'],
    ],
  },
  {
    name: 'a leading ---, a comment-only document and an empty document do not count',
    yaml: `---\n# only a comment\n---\n${BAD_POD}\n---\n---\n\n---\n# another comment\n---\n${BAD_DEPLOYMENT}\n`,
    expected: [
      [0, 'spec.containers[0].livenessProbe.successThreshold', '2'],
      [1, 'spec.template.spec.containers[0].livenessProbe.successThreshold', '3'],
    ],
  },
  {
    name: 'a non-workload document counts as a document',
    yaml: `${SERVICE}\n---\n${BAD_POD}\n---\n${BAD_DEPLOYMENT}\n`,
    expected: [
      [1, 'spec.containers[0].livenessProbe.successThreshold', '2'],
      [2, 'spec.template.spec.containers[0].livenessProbe.successThreshold', '3'],
    ],
  },
  {
    name: 'a trailing --- and document end markers',
    yaml: `# header comment\n${BAD_POD}\n...\n---\n${BAD_POD}\n---\n`,
    expected: [
      [0, 'spec.containers[0].livenessProbe.successThreshold', '2'],
      [1, 'spec.containers[0].livenessProbe.successThreshold', '2'],
    ],
  },
];

for (const c of multiDocCases) {
  test(`P12: multi-document file, ${c.name}`, () => {
    const findings = findingsOf('P12', c.yaml);
    assert.deepEqual(
      findings.map((f) => [f.doc, f.path, textAt(c.yaml, f)]),
      c.expected,
    );
    assert.ok(findings.every((f) => f.file === 'test.yaml'));
  });
}
