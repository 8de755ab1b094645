import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkTexts } from '../../../src/core/check';
import { IncrementalChecker } from '../../../src/core/editor/incrementalChecker';
import { check, findingsOf, indent, podSpec, podWith, textAt } from '../../helpers/manifests';

/** A one-container pod spec (fields under `spec:` of the pod) wrapped in the given workload kind. */
function workload(kind: string, specFields: string): string {
  const spec = indent(specFields, 0);
  switch (kind) {
    case 'Pod':
      return podSpec(spec);
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
      return `apiVersion: apps/v1
kind: ${kind}
metadata:
  name: app
spec:
  selector:
    matchLabels: {app: app}
  template:
    metadata:
      labels: {app: app}
    spec:
${indent(spec, 6)}
`;
    case 'Job':
      return `apiVersion: batch/v1
kind: Job
metadata:
  name: app
spec:
  template:
    spec:
${indent(spec, 6)}
`;
    case 'CronJob':
      return `apiVersion: batch/v1
kind: CronJob
metadata:
  name: app
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
${indent(spec, 10)}
`;
    default:
      throw new Error(kind);
  }
}

const PREFIX: Readonly<Record<string, string>> = {
  Pod: 'spec',
  Deployment: 'spec.template.spec',
  StatefulSet: 'spec.template.spec',
  DaemonSet: 'spec.template.spec',
  Job: 'spec.template.spec',
  CronJob: 'spec.jobTemplate.spec.template.spec',
};

const container = (probes: string) => `containers:\n  - name: work\n    image: busybox\n${indent(probes, 4)}`;
const tcp = 'tcpSocket: {port: 8080}';

// ---------------------------------------------------------------------------------------------
// L17: readiness on Job / CronJob containers
// ---------------------------------------------------------------------------------------------

for (const kind of ['Job', 'CronJob']) {
  test(`L17: a readinessProbe on a ${kind}'s container is a warning`, () => {
    const yaml = workload(kind, `restartPolicy: OnFailure\n${container(`readinessProbe:\n  ${tcp}`)}`);
    const [finding, ...rest] = findingsOf('L17', yaml);
    assert.equal(rest.length, 0);
    assert.ok(finding);
    assert.equal(finding.severity, 'warning');
    assert.equal(finding.path, `${PREFIX[kind]}.containers[0].readinessProbe`);
    assert.equal(textAt(yaml, finding), 'readinessProbe');
    assert.match(finding.message, new RegExp(`on a ${kind}'s container`));
  });
}

for (const kind of ['Pod', 'Deployment', 'StatefulSet', 'DaemonSet']) {
  test(`L17: nothing for a readinessProbe on a ${kind}`, () => {
    assert.deepEqual(findingsOf('L17', workload(kind, container(`readinessProbe:\n  ${tcp}`))), []);
  });
}

test('L17: nothing for a Job container with only a liveness probe', () => {
  assert.deepEqual(findingsOf('L17', workload('Job', `restartPolicy: OnFailure\n${container(`livenessProbe:\n  ${tcp}`)}`)), []);
});

/** knative-serving's default-domain Job, reduced: a Service in the same file sends it traffic. */
const DEFAULT_DOMAIN_JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: default-domain
  namespace: knative-serving
spec:
  template:
    metadata:
      labels:
        app: "default-domain"
    spec:
      containers:
      - name: default-domain
        image: ko://knative.dev/serving/cmd/default-domain
        ports:
        - name: http
          containerPort: 8080
        readinessProbe:
          httpGet:
            port: 8080
      restartPolicy: Never
`;
const service = (selector: string, namespace = 'knative-serving') => `apiVersion: v1
kind: Service
metadata:
  name: default-domain-service
  namespace: ${namespace}
spec:
  selector:
${indent(selector, 4)}
  ports:
  - {name: http, port: 80, targetPort: 8080}
`;

test('L17: nothing when a Service in the same file selects the Job\'s pods: readiness routes its traffic', () => {
  assert.deepEqual(findingsOf('L17', `${DEFAULT_DOMAIN_JOB}---\n${service('app: default-domain')}`), []);
  assert.deepEqual(findingsOf('L17', `${service('app: default-domain')}---\n${DEFAULT_DOMAIN_JOB}`), [], 'before or after the Job');
});

test('L17: a Service may select the labels the Job controller adds (job-name, batch.kubernetes.io/job-name)', () => {
  assert.deepEqual(findingsOf('L17', `${DEFAULT_DOMAIN_JOB}---\n${service('job-name: default-domain')}`), []);
  assert.deepEqual(findingsOf('L17', `${DEFAULT_DOMAIN_JOB}---\n${service('batch.kubernetes.io/job-name: default-domain')}`), []);
});

const L17_STILL_FIRES: readonly [string, string][] = [
  ['a Service selecting other labels', service('app: other')],
  ['a Service whose selector asks for a label the pods lack too', service('app: default-domain\ntier: web')],
  ['a Service in another namespace', service('app: default-domain', 'default')],
  ['a Service with an empty selector (it selects nothing by itself)', service('{}')],
];

for (const [why, other] of L17_STILL_FIRES) {
  test(`L17: still a warning with ${why}`, () => {
    const [finding] = findingsOf('L17', `${DEFAULT_DOMAIN_JOB}---\n${other}`);
    assert.equal(
      finding?.message,
      "a readinessProbe on a Job's container, and no Service among the manifests checked selects its pods: readiness only decides which pods a Service sends traffic to, so here it decides nothing and only costs probes",
    );
  });
}

test('L17: a Service in another file checked at the same time counts (check k8s/*.yaml)', () => {
  const [job, svc] = checkTexts(
    [
      { file: 'job.yaml', text: DEFAULT_DOMAIN_JOB },
      { file: 'service.yaml', text: service('app: default-domain') },
    ],
    {},
  );
  assert.deepEqual(job?.filter((f) => f.rule === 'L17'), []);
  assert.deepEqual(svc, []);
  assert.equal(findingsOf('L17', DEFAULT_DOMAIN_JOB).length, 1, 'alone, the Job file gets L17');
});

test('L17: the editor sees Services of its other open manifests, and of the other documents of the file, as a whole check does', () => {
  const checker = new IncrementalChecker('job.yaml');
  const settings = { disabledRules: new Set<string>(), context: { minorVersion: 33 } };
  const alone = checker.check(DEFAULT_DOMAIN_JOB, settings);
  assert.deepEqual(alone.findings.map((f) => f.rule), ['L17']);
  assert.deepEqual(checker.check(DEFAULT_DOMAIN_JOB, settings, [{ selector: { app: 'default-domain' }, ports: [] }]).findings, []);
  const withService = `${DEFAULT_DOMAIN_JOB}---\n${service('app: default-domain')}`;
  const snapshot = checker.check(withService, settings);
  assert.deepEqual(snapshot.findings, []);
  assert.deepEqual(snapshot.services, [{ name: 'default-domain-service', namespace: 'knative-serving', selector: { app: 'default-domain' }, ports: [{ port: 80, targetPort: 8080 }] }]);
  assert.equal(checker.check(withService.replace('app: default-domain\n  ports', 'app: gone\n  ports'), settings).chunksRead, 1, 'only the Service was re-read');
  assert.deepEqual(checker.check(withService.replace('app: default-domain\n  ports', 'app: gone\n  ports'), settings).findings.map((f) => f.rule), ['L17'], '…and the Job got its finding back');
});

// ---------------------------------------------------------------------------------------------
// L29: liveness with restartPolicy Never
// ---------------------------------------------------------------------------------------------

const L29_TABLE: readonly [string, string, string, boolean][] = [
  ['L29: liveness in a Job with restartPolicy Never is a warning', 'Job', 'Never', true],
  ['L29: liveness in a CronJob with restartPolicy Never is a warning', 'CronJob', 'Never', true],
  ['L29: liveness in a Pod with restartPolicy Never is a warning', 'Pod', 'Never', true],
  ['L29: nothing for a Job with restartPolicy OnFailure', 'Job', 'OnFailure', false],
  ['L29: nothing for a Pod with restartPolicy Always', 'Pod', 'Always', false],
];

for (const [name, kind, policy, fires] of L29_TABLE) {
  test(name, () => {
    const yaml = workload(kind, `restartPolicy: ${policy}\n${container(`livenessProbe:\n  ${tcp}`)}`);
    const findings = findingsOf('L29', yaml);
    assert.deepEqual(
      findings.map((f) => `${f.path} ${f.severity}`),
      fires ? [`${PREFIX[kind]}.containers[0].livenessProbe warning`] : [],
    );
  });
}

test('L29: the message says what follows: a Pod fails for good, a Job replaces it within its backoffLimit', () => {
  const message = (kind: string) => findingsOf('L29', workload(kind, `restartPolicy: Never\n${container(`livenessProbe:\n  ${tcp}`)}`))[0]?.message;
  assert.equal(message('Pod'), 'with restartPolicy: Never a liveness failure kills this container and it is never restarted: the pod fails for good');
  assert.equal(message('Job'), 'with restartPolicy: Never a liveness failure kills this container and it is never restarted: the pod fails, and the Job starts a new pod only while its backoffLimit allows');
  assert.equal(message('CronJob'), "with restartPolicy: Never a liveness failure kills this container and it is never restarted: the pod fails, and the CronJob's Job starts a new pod only while its backoffLimit allows");
});

test('L29: nothing for a Deployment (restartPolicy defaults to Always)', () => {
  assert.deepEqual(findingsOf('L29', workload('Deployment', container(`livenessProbe:\n  ${tcp}`))), []);
});

test('L29: nothing for readiness or startup with restartPolicy Never', () => {
  const yaml = workload('Pod', `restartPolicy: Never\n${container(`readinessProbe:\n  ${tcp}\nstartupProbe:\n  ${tcp}\n  failureThreshold: 30`)}`);
  assert.deepEqual(findingsOf('L29', yaml), []);
});

test('L29: nothing for a sidecar\'s liveness in a Never pod (a sidecar restarts on its own restartPolicy)', () => {
  const yaml = workload(
    'Job',
    `restartPolicy: Never
initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always
    livenessProbe:
      ${tcp}
containers:
  - name: work
    image: busybox`,
  );
  assert.deepEqual(findingsOf('L29', yaml), []);
});

// ---------------------------------------------------------------------------------------------
// L18: sidecar probes (info)
// ---------------------------------------------------------------------------------------------

const sidecar = (probes: string) => podSpec(`initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always
${indent(probes, 4)}
containers:
  - name: web
    image: nginx`);

test('L18: a sidecar startupProbe holds back what follows: info with its budget', () => {
  const yaml = sidecar(`startupProbe:\n  ${tcp}\n  failureThreshold: 30\n  periodSeconds: 2`);
  const [finding, ...rest] = findingsOf('L18', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'info');
  assert.equal(finding.path, 'spec.initContainers[0].startupProbe');
  assert.equal(textAt(yaml, finding), 'startupProbe');
  assert.match(finding.message, /\b60 s\b/, 'B_start = 0 + 30 × 2');
});

test('L18: the startup budget shown uses the defaults (0 + 3 × 10 = 30 s)', () => {
  const [finding] = findingsOf('L18', sidecar(`startupProbe:\n  ${tcp}`));
  assert.match(finding?.message ?? '', /\b30 s\b/);
});

test('L18: a sidecar readinessProbe counts towards Pod readiness: info', () => {
  const yaml = sidecar(`readinessProbe:\n  ${tcp}`);
  const [finding, ...rest] = findingsOf('L18', yaml);
  assert.equal(rest.length, 0);
  assert.equal(finding?.severity, 'info');
  assert.equal(finding?.path, 'spec.initContainers[0].readinessProbe');
});

test('L18: both startup and readiness on a sidecar give two findings', () => {
  const yaml = sidecar(`readinessProbe:\n  ${tcp}\nstartupProbe:\n  ${tcp}\n  failureThreshold: 30`);
  assert.deepEqual(findingsOf('L18', yaml).map((f) => f.path).sort(), ['spec.initContainers[0].readinessProbe', 'spec.initContainers[0].startupProbe']);
});

const L18_SILENT: readonly [string, string][] = [
  ['a sidecar with only a livenessProbe', sidecar(`livenessProbe:\n  ${tcp}`)],
  ['a regular container\'s startup and readiness probes', podWith(`readinessProbe:\n  ${tcp}\nstartupProbe:\n  ${tcp}\n  failureThreshold: 30`)],
  ['a plain init container (P14 instead)', podSpec(`initContainers:\n  - name: migrate\n    image: busybox\n    startupProbe:\n      ${tcp}\ncontainers:\n  - name: web\n    image: nginx`)],
];

for (const [why, yaml] of L18_SILENT) {
  test(`L18: nothing for ${why}`, () => {
    assert.deepEqual(findingsOf('L18', yaml), []);
  });
}

// ---------------------------------------------------------------------------------------------
// L22: probe key with no value
// ---------------------------------------------------------------------------------------------

const L22_FIRES: readonly [string, string, string][] = [
  ['livenessProbe: with no value', 'livenessProbe:', 'livenessProbe'],
  ['livenessProbe: ~', 'livenessProbe: ~', 'livenessProbe'],
  ['livenessProbe: null', 'livenessProbe: null', 'livenessProbe'],
  ['readinessProbe: with no value, followed by another field', 'readinessProbe:\nports:\n  - {containerPort: 8080}', 'readinessProbe'],
  ['startupProbe: ~', 'startupProbe: ~', 'startupProbe'],
];

for (const [name, fields, field] of L22_FIRES) {
  test(`L22: ${name} is a warning on the key`, () => {
    const yaml = podWith(fields);
    const [finding, ...rest] = findingsOf('L22', yaml);
    assert.equal(rest.length, 0);
    assert.ok(finding);
    assert.equal(finding.severity, 'warning');
    assert.equal(finding.path, `spec.containers[0].${field}`);
    assert.equal(textAt(yaml, finding), field);
    // Decodes to "no probe": no API error (A.5).
    assert.deepEqual(check(yaml).filter((f) => f.severity === 'error'), []);
  });
}

test('L22: on a sidecar too', () => {
  assert.deepEqual(
    findingsOf('L22', sidecar('livenessProbe:')).map((f) => f.path),
    ['spec.initContainers[0].livenessProbe'],
  );
});

const L22_SILENT: readonly [string, string][] = [
  ['a probe with a handler', `livenessProbe:\n  ${tcp}`],
  ['an empty mapping (P01 instead)', 'livenessProbe: {}'],
  ['no probe key', 'ports:\n  - {containerPort: 8080}'],
];

for (const [why, fields] of L22_SILENT) {
  test(`L22: nothing for ${why}`, () => {
    assert.deepEqual(findingsOf('L22', podWith(fields)), []);
  });
}

test('L22: livenessProbe: {} is P01, not L22', () => {
  const yaml = podWith('livenessProbe: {}');
  assert.equal(findingsOf('P01', yaml).length, 1);
  assert.deepEqual(findingsOf('L22', yaml), []);
});

// ---------------------------------------------------------------------------------------------
// L24: probes on a plain init container (beside P14)
// ---------------------------------------------------------------------------------------------

const initWith = (probes: string, extra = '') => podSpec(`initContainers:
  - name: migrate
    image: busybox
${extra ? `${indent(extra, 4)}\n` : ''}${indent(probes, 4)}
containers:
  - name: web
    image: nginx`);

test('L24: a probe on a plain init container is info beside P14', () => {
  const yaml = initWith(`readinessProbe:\n  ${tcp}`);
  const [finding, ...rest] = findingsOf('L24', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'info');
  assert.equal(finding.path, 'spec.initContainers[0].readinessProbe');
  assert.match(finding.message, /restartPolicy: Always/);
  assert.deepEqual(
    findingsOf('P14', yaml).map((f) => f.path),
    ['spec.initContainers[0].readinessProbe'],
  );
});

test('L24: several probes on one init container: P14 for each, L24 once', () => {
  const yaml = initWith(`livenessProbe:\n  ${tcp}\nreadinessProbe:\n  ${tcp}\nstartupProbe:\n  ${tcp}`);
  assert.equal(findingsOf('P14', yaml).length, 3);
  assert.equal(findingsOf('L24', yaml).length, 1);
});

test('L24: nothing for a sidecar (restartPolicy: Always) with probes', () => {
  const yaml = sidecar(`readinessProbe:\n  ${tcp}`);
  assert.deepEqual(findingsOf('L24', yaml), []);
  assert.deepEqual(findingsOf('P14', yaml), []);
});

test('L24: nothing for a plain init container without probes', () => {
  assert.deepEqual(findingsOf('L24', initWith('command: [sh, -c, "echo migrate"]')), []);
});

test('L24: nothing for probes on regular containers', () => {
  assert.deepEqual(findingsOf('L24', podWith(`livenessProbe:\n  ${tcp}`)), []);
});

// ---------------------------------------------------------------------------------------------
// L26: version awareness
// ---------------------------------------------------------------------------------------------

test('L26: grpc at 1.23 is a warning on the grpc key', () => {
  const yaml = podWith(`livenessProbe:\n  grpc: {port: 9090}`);
  const [finding, ...rest] = findingsOf('L26', yaml, { minorVersion: 23 });
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'warning');
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.grpc');
  assert.equal(textAt(yaml, finding), 'grpc');
  assert.match(finding.message, /1\.23/);
});

test('L26: probe terminationGracePeriodSeconds at 1.24 is a warning on that key', () => {
  const yaml = podWith(`livenessProbe:\n  ${tcp}\n  terminationGracePeriodSeconds: 10`);
  const [finding, ...rest] = findingsOf('L26', yaml, { minorVersion: 24 });
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'warning');
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.terminationGracePeriodSeconds');
  assert.equal(textAt(yaml, finding), 'terminationGracePeriodSeconds');
});

test('L26: a sidecar at 1.28 is a warning on restartPolicy, and P14 fires (a plain init container then)', () => {
  const yaml = sidecar(`readinessProbe:\n  ${tcp}`);
  const found = check(yaml, { minorVersion: 28 });
  const l26 = found.filter((f) => f.rule === 'L26');
  assert.deepEqual(
    l26.map((f) => `${f.path} ${f.severity}`),
    ['spec.initContainers[0].restartPolicy warning'],
  );
  assert.equal(l26[0] && textAt(yaml, l26[0]), 'Always');
  assert.deepEqual(
    found.filter((f) => f.rule === 'P14').map((f) => f.path),
    ['spec.initContainers[0].readinessProbe'],
  );
  // As a plain init container its probe is forbidden, so sidecar advice does not apply.
  assert.deepEqual(found.filter((f) => f.rule === 'L18'), []);
});

const L26_SILENT: readonly [string, string, number | undefined][] = [
  ['grpc at 1.24 (beta, on by default)', podWith(`livenessProbe:\n  grpc: {port: 9090}`), 24],
  ['probe terminationGracePeriodSeconds at 1.25', podWith(`livenessProbe:\n  ${tcp}\n  terminationGracePeriodSeconds: 10`), 25],
  ['a sidecar at 1.29', sidecar(`readinessProbe:\n  ${tcp}`), 29],
  ['grpc at the default version (1.33)', podWith(`livenessProbe:\n  grpc: {port: 9090}`), undefined],
  ['probe terminationGracePeriodSeconds at the default version (1.33)', podWith(`livenessProbe:\n  ${tcp}\n  terminationGracePeriodSeconds: 10`), undefined],
  ['a sidecar at the default version (1.33)', sidecar(`readinessProbe:\n  ${tcp}`), undefined],
  ['a plain init container at 1.28 (no restartPolicy)', initWith(`readinessProbe:\n  ${tcp}`), 28],
];

for (const [why, yaml, minorVersion] of L26_SILENT) {
  test(`L26: nothing for ${why}`, () => {
    assert.deepEqual(findingsOf('L26', yaml, minorVersion === undefined ? {} : { minorVersion }), []);
  });
}

test('L26: at the default version a sidecar with probes gives no P14 either', () => {
  const found = check(sidecar(`readinessProbe:\n  ${tcp}`)).map((f) => f.rule);
  assert.ok(!found.includes('P14'));
  assert.ok(found.includes('L18'));
});

// ---------------------------------------------------------------------------------------------
// L30: a container a Service sends traffic to, with no readinessProbe
// ---------------------------------------------------------------------------------------------

/** A Deployment `web` (labels app=web) with the container fields given, then a Service with the `ports` given. */
const servedBy = (containerFields: string, servicePorts: string, selector = '{app: web}', extraContainer = '') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: example/web:1.0
${indent(containerFields, 10)}
${extraContainer}---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: ${selector}
  ports: ${servicePorts}
`;

const NAMED_PORT = 'ports: [{name: http, containerPort: 8080}]';

test('L30: a Service whose targetPort names the container\'s port, and no readinessProbe: a warning on the container\'s name', () => {
  const yaml = servedBy(NAMED_PORT, '[{port: 80, targetPort: http}]');
  const [finding, ...rest] = findingsOf('L30', yaml);
  assert.equal(rest.length, 0);
  assert.equal(finding?.severity, 'warning');
  assert.equal(finding?.path, 'spec.template.spec.containers[0]');
  assert.equal(finding && textAt(yaml, finding), 'web');
  assert.equal(
    finding?.message,
    'Service "web" sends this container traffic on port "http", but it has no readinessProbe: the kubelet reports it Ready the moment it starts, before the app listens, and it stays Ready whatever happens after, so requests reach it while it cannot answer; add a readinessProbe on the port it serves',
  );
});

test('L30: targetPort by number, and absent (then it is port), reach the container that declares it', () => {
  assert.equal(findingsOf('L30', servedBy(NAMED_PORT, '[{port: 80, targetPort: 8080}]')).length, 1);
  assert.equal(findingsOf('L30', servedBy(NAMED_PORT, '[{port: 8080}]')).length, 1);
});

test('L30: a number no container declares reaches the pod\'s only regular container; with two, neither is blamed', () => {
  assert.equal(findingsOf('L30', servedBy('ports: []', '[{port: 80, targetPort: 9000}]')).length, 1);
  const two = servedBy('ports: []', '[{port: 80, targetPort: 9000}]', '{app: web}', '        - name: sidecar\n          image: example/proxy:1.0\n');
  assert.deepEqual(findingsOf('L30', two), []);
});

test('L30: only the container the port reaches: a second container on another port is not reported', () => {
  const yaml = servedBy(NAMED_PORT, '[{port: 80, targetPort: http}]', '{app: web}', '        - name: metrics\n          image: example/exporter:1.0\n          ports: [{name: metrics, containerPort: 9100}]\n');
  assert.deepEqual(findingsOf('L30', yaml).map((f) => f.path), ['spec.template.spec.containers[0]']);
});

test('L30: nothing with a readinessProbe, nothing when no Service selects the pod, nothing when its port reaches no container', () => {
  assert.deepEqual(findingsOf('L30', servedBy(`${NAMED_PORT}\nreadinessProbe:\n  httpGet: {path: /ready, port: http}`, '[{port: 80, targetPort: http}]')), []);
  assert.deepEqual(findingsOf('L30', servedBy(NAMED_PORT, '[{port: 80, targetPort: http}]', '{app: other}')), []);
  assert.deepEqual(findingsOf('L30', servedBy(NAMED_PORT, '[{port: 80, targetPort: grpc}]')), []);
});

test('L30: with a startupProbe the container is Ready once it succeeds, and the message says so', () => {
  const [finding] = findingsOf('L30', servedBy(`${NAMED_PORT}\nstartupProbe:\n  httpGet: {path: /started, port: http}\n  failureThreshold: 30`, '[{port: 80, targetPort: http}]'));
  assert.match(finding?.message ?? '', /but it has no readinessProbe: it is Ready as soon as its startupProbe succeeds, and stays Ready whatever happens after, so requests reach it while it cannot answer/);
});

test('L30: the Service in another file checked with it counts, as kubectl apply -f applies them together', () => {
  const [deployment, service] = servedBy(NAMED_PORT, '[{port: 80, targetPort: http}]').split('---\n') as [string, string];
  const [fromDeployment = [], fromService = []] = checkTexts([{ file: 'web.yaml', text: deployment }, { file: 'svc.yaml', text: service }], {});
  assert.deepEqual(fromDeployment.filter((f) => f.rule === 'L30').map((f) => f.file), ['web.yaml']);
  assert.deepEqual(fromService, []);
});
