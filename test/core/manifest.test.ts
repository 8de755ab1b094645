import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseKubernetesVersion } from '../../src/core/check';
import { parseManifest, type ProbeModel } from '../../src/core/manifest';
import { withProbeDefaults } from '../../src/core/manifest/defaults';
import { editDistance } from '../../src/core/text/closestName';
import { check, podSpec, podWith, textAt } from '../helpers/manifests';

function probes(yaml: string): ProbeModel[] {
  return parseManifest(yaml).documents.flatMap((d) => d.podSpecs.flatMap((p) => p.containers.flatMap((c) => [...c.probes])));
}

test('D1: 0 or unset timeout, period, success and failure become 1, 10, 1, 3; initialDelaySeconds stays 0', () => {
  for (const spec of [{}, { timeoutSeconds: 0, periodSeconds: 0, successThreshold: 0, failureThreshold: 0, initialDelaySeconds: 0 }]) {
    const effective = withProbeDefaults({ tcpSocket: { port: 80 }, ...spec });
    assert.deepEqual(
      [effective.initialDelaySeconds, effective.timeoutSeconds, effective.periodSeconds, effective.successThreshold, effective.failureThreshold],
      [0, 1, 10, 1, 3],
    );
  }
});

test('D1: negative values are not defaulted (validation rejects them)', () => {
  const effective = withProbeDefaults({ tcpSocket: { port: 80 }, periodSeconds: -5, failureThreshold: -1 });
  assert.equal(effective.periodSeconds, -5);
  assert.equal(effective.failureThreshold, -1);
});

test('D2: an empty httpGet path becomes "/", an empty scheme HTTP; the written spec is untouched', () => {
  const spec = { httpGet: { port: 8080, path: '' } };
  const effective = withProbeDefaults(spec);
  assert.deepEqual(effective.handler, { type: 'httpGet', path: '/', port: 8080, scheme: 'HTTP', httpHeaders: [] });
  assert.equal(spec.httpGet.path, '', 'defaults apply to a copy');
});

test('P1: the first handler in exec → httpGet → tcpSocket → grpc order is the one used', () => {
  const effective = withProbeDefaults({ grpc: { port: 9090 }, tcpSocket: { port: 80 }, httpGet: { port: 8080 } });
  assert.equal(effective.handler?.type, 'httpGet');
  assert.equal(effective.handlerCount, 3);
});

test('YAML is read as Kubernetes reads it (1.1): yes is a boolean, 0755 is octal, << merges', () => {
  const yaml = podSpec(`
containers:
  - name: web
    image: nginx
    stdin: yes
    livenessProbe:
      <<: {tcpSocket: {port: 0755}, periodSeconds: 7}
      periodSeconds: 5`);
  const [liveness] = probes(yaml);
  assert.deepEqual(liveness?.spec.tcpSocket, { port: 493 });
  assert.equal(liveness?.effective.periodSeconds, 5, 'an explicit key after a merge overrides it');
  assert.deepEqual(check(yaml).filter((f) => f.rule.startsWith('D')), [], 'stdin: yes decodes as a boolean');
});

test('keys are written in document order and the last write wins, as go-yaml v2 (kubectl) reads them', () => {
  // go-yaml v2 applies a << merge where it stands, over the keys before it (checked against
  // sigs.k8s.io/yaml: `{a: 1, <<: {a: 2}}` is `{"a":2}`); in a list of merges the first wins;
  // a repeated key keeps its last value.
  const yaml = podSpec(`
containers:
  - name: web
    image: nginx
    livenessProbe:
      periodSeconds: 5
      <<: [{periodSeconds: 7, timeoutSeconds: 3}, {periodSeconds: 9, failureThreshold: 4}]
      failureThreshold: 6
      failureThreshold: 8
      tcpSocket: {port: 80}`);
  const [liveness] = probes(yaml);
  assert.equal(liveness?.effective.periodSeconds, 7, 'the merge overrides the key before it; the first merge source wins');
  assert.equal(liveness?.effective.timeoutSeconds, 3);
  assert.equal(liveness?.effective.failureThreshold, 8, 'the last of the repeated keys');
});

test('aliases resolve to their anchors, and findings point at the anchored text', () => {
  const yaml = podSpec(`
containers:
  - name: a
    image: nginx
    livenessProbe: &probe
      tcpSocket: {port: 8080}
      successThreshold: 4
  - name: b
    image: nginx
    livenessProbe: *probe`);
  const p12 = check(yaml).filter((f) => f.rule === 'P12');
  assert.deepEqual(
    p12.map((f) => f.path),
    ['spec.containers[0].livenessProbe.successThreshold', 'spec.containers[1].livenessProbe.successThreshold'],
  );
  assert.deepEqual(p12.map((f) => textAt(yaml, f)), ['4', '4']);
});

test('an alias to an anchor defined later is an error, as in go-yaml', () => {
  const yaml = `a: *later\nb: &later 1\n`;
  const [finding] = check(yaml);
  assert.equal(finding?.rule, 'Y01');
  assert.match(finding?.message ?? '', /unknown anchor 'later' referenced/);
});

test('locations: every decoded field keeps its key and value ranges', () => {
  const yaml = podWith(`readinessProbe:\n  httpGet:\n    path: /ready\n    port: "http"\n  periodSeconds: 3`);
  const [readiness] = probes(yaml);
  const port = readiness?.locate('httpGet.port');
  assert.equal(port?.quoted, true);
  const lines = yaml.split('\n');
  assert.equal(lines[port?.key?.start.line ?? -1]?.slice(port?.key?.start.character, port?.key?.end.character), 'port');
  assert.equal(lines[port?.value.start.line ?? -1]?.slice(port?.value.start.character, port?.value.end.character), '"http"');
  assert.equal(yaml.split('\n')[readiness?.locate('')?.key?.start.line ?? -1]?.trim(), 'readinessProbe:');
});

test('pod specs are found in every workload kind and in List items; other kinds are ignored', () => {
  const container = `containers: [{name: c, image: i, readinessProbe: {tcpSocket: {port: 1}}}]`;
  const wrap = (kind: string, path: string[]) => {
    let body = `{${container}}`;
    for (const key of [...path].reverse()) body = `{${key}: ${body}}`;
    return `kind: ${kind}\n${body.slice(1, -1).replace(/^(\w+): /, '$1: ')}`;
  };
  const cases: [string, string[], string][] = [
    ['Pod', ['spec'], 'spec'],
    ['Deployment', ['spec', 'template', 'spec'], 'spec.template.spec'],
    ['CronJob', ['spec', 'jobTemplate', 'spec', 'template', 'spec'], 'spec.jobTemplate.spec.template.spec'],
    ['PodTemplate', ['template', 'spec'], 'template.spec'],
  ];
  for (const [kind, path, expected] of cases) {
    const [probe] = probes(wrap(kind, path));
    assert.equal(probe?.path, `${expected}.containers[0].readinessProbe`, kind);
  }
  assert.deepEqual(probes('kind: Service\nspec: {containers: [{name: c, readinessProbe: {tcpSocket: {port: 1}}}]}'), []);
  const list = `kind: List\nitems:\n  - ${wrap('Pod', ['spec']).replace('\n', '\n    ')}\n  - ${wrap('Job', ['spec', 'template', 'spec']).replace('\n', '\n    ')}\n`;
  assert.deepEqual(
    probes(list).map((p) => p.path),
    ['spec.containers[0].readinessProbe', 'spec.template.spec.containers[0].readinessProbe'],
  );
});

test('containers are classified: regular, sidecar, plain init, ephemeral', () => {
  const yaml = podSpec(`
initContainers:
  - {name: side, image: i, restartPolicy: Always}
  - {name: setup, image: i}
containers:
  - {name: app, image: i}
ephemeralContainers:
  - {name: debug, image: i}`);
  const containers = parseManifest(yaml).documents[0]?.podSpecs[0]?.containers ?? [];
  assert.deepEqual(
    containers.map((c) => `${c.kind} ${c.path}`),
    ['sidecar spec.initContainers[0]', 'init spec.initContainers[1]', 'regular spec.containers[0]', 'ephemeral spec.ephemeralContainers[0]'],
  );
});

test('pod-level restartPolicy and terminationGracePeriodSeconds default to Always and 30 (D5)', () => {
  const pod = parseManifest(podWith('')).documents[0]?.podSpecs[0];
  assert.equal(pod?.restartPolicy, 'Always');
  assert.equal(pod?.terminationGracePeriodSeconds, 30);
});

test('documents are numbered among the non-empty ones only', () => {
  const yaml = `---\n# nothing\n---\n~\n---\n${podWith('livenessProbe: {tcpSocket: {port: 1}, successThreshold: 2}')}---\n---\n${podWith('livenessProbe: {tcpSocket: {port: 1}, successThreshold: 3}')}`;
  assert.deepEqual(
    check(yaml)
      .filter((f) => f.rule === 'P12')
      .map((f) => f.doc),
    [0, 1],
  );
});

test('Kubernetes versions are read as 1.x minor numbers the rules know (1.21–1.37), without a patch version', () => {
  assert.equal(parseKubernetesVersion('1.33'), 33);
  assert.equal(parseKubernetesVersion('v1.29'), 29);
  assert.equal(parseKubernetesVersion(' 1.37 '), 37);
  assert.equal(parseKubernetesVersion('1.21'), 21);
  for (const bad of ['2.0', '1', '1.x', '', 'latest', 'v1.29.4', '1.20', '1.38', '1.100', '1.033']) assert.equal(parseKubernetesVersion(bad), undefined, bad);
});

test('did-you-mean distance counts an adjacent swap as one edit and stops at the cap', () => {
  assert.equal(editDistance('failuretreshold', 'failurethreshold'), 1);
  assert.equal(editDistance('preiod', 'period'), 1);
  assert.equal(editDistance('abc', 'abc'), 0);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('a', 'completely-different', 3), 3);
});

test('cluster lookup: metadata.namespace and the labels that select a workload\'s pods are read', () => {
  const specs = (yaml: string) => parseManifest(yaml).documents.flatMap((d) => d.podSpecs);
  const container = 'containers: [{name: web, image: nginx}]';
  const [deployment] = specs(`kind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web, tier: front}}\n  template:\n    metadata: {labels: {app: web, tier: front, version: v2}}\n    spec: {${container}}\n`);
  assert.equal(deployment?.objectNamespace, 'shop');
  assert.deepEqual(deployment?.podSelector, { app: 'web', tier: 'front' }, 'matchLabels, not the template labels');
  const [rc] = specs(`kind: ReplicationController\nmetadata: {name: old}\nspec:\n  selector: {app: old}\n  template:\n    metadata: {labels: {app: old}}\n    spec: {${container}}\n`);
  assert.equal(rc?.objectNamespace, undefined);
  assert.deepEqual(rc?.podSelector, { app: 'old' }, 'a ReplicationController selector is a plain map');
  const [job] = specs(`kind: Job\nmetadata: {name: once}\nspec:\n  template:\n    metadata: {labels: {job: once}}\n    spec: {restartPolicy: Never, ${container}}\n`);
  assert.deepEqual(job?.podSelector, { job: 'once' }, 'no selector: the template labels');
  const [cron] = specs(`kind: CronJob\nmetadata: {name: nightly}\nspec:\n  schedule: "@daily"\n  jobTemplate:\n    spec:\n      template:\n        metadata: {labels: {cron: nightly}}\n        spec: {restartPolicy: Never, ${container}}\n`);
  assert.deepEqual(cron?.podSelector, { cron: 'nightly' });
  const [pod] = specs(`kind: Pod\nmetadata: {name: p, namespace: dev, labels: {app: p}}\nspec: {${container}}\n`);
  assert.equal(pod?.objectNamespace, 'dev');
  assert.equal(pod?.podSelector, undefined, 'a Pod is found by its name');
  const [bare] = specs(`kind: Deployment\nmetadata: {name: bare}\nspec:\n  selector: {matchExpressions: [{key: app, operator: Exists}]}\n  template:\n    spec: {${container}}\n`);
  assert.equal(bare?.podSelector, undefined, 'nothing to select by');
});
