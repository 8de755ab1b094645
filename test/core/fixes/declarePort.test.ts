/**
 * L01's "Declare port" (docs/spec/validation-rules.md §D.1; docs/spec/kubelet-probes.md N2): the named port goes into
 * the probing container's own `ports`, written the way they already are. Each case applies the
 * edit and compares the whole file, then checks it again: L01 is gone, nothing new appears.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { containerPortProblem, declarePort, declarePortObstacle, suggestedContainerPort } from '../../../src/core/fixes/declarePort';
import { applyTextEdits } from '../../../src/core/text/edits';
import { type ContainerModel, parseManifest } from '../../../src/core/manifest';
import { check, podSpec, podWith } from '../../helpers/manifests';

const PROBE = 'livenessProbe:\n  httpGet: {path: /metrics, port: metrics}';

interface Case {
  readonly name: string;
  readonly before: string;
  readonly after: string;
  /** A whole pod spec rather than the fields of one container. */
  readonly spec?: boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'a block list of block maps: a new item aligned with the others',
    before: `ports:\n  - name: http\n    containerPort: 8080\n${PROBE}`,
    after: `ports:\n  - name: http\n    containerPort: 8080\n  - name: metrics\n    containerPort: 9100\n${PROBE}`,
  },
  {
    name: 'a block list of flow maps: a flow map item',
    before: `ports:\n- {name: http, containerPort: 8080}   # the app\n${PROBE}`,
    after: `ports:\n- {name: http, containerPort: 8080}   # the app\n- {name: metrics, containerPort: 9100}\n${PROBE}`,
  },
  {
    name: 'a flow list: a flow map after its last item',
    before: `ports: [{name: http, containerPort: 8080}]\n${PROBE}`,
    after: `ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9100}]\n${PROBE}`,
  },
  {
    name: 'an empty flow list: the item between the brackets',
    before: `ports: []\n${PROBE}`,
    after: `ports: [{name: metrics, containerPort: 9100}]\n${PROBE}`,
  },
  {
    name: 'no ports: a block list after image, at the container\'s key column',
    before: PROBE,
    after: `ports:\n  - name: metrics\n    containerPort: 9100\n${PROBE}`,
  },
  {
    name: 'no ports, in a container that writes its lists in the key\'s column: the same style',
    before: `args:\n- serve\n${PROBE}`,
    after: `ports:\n- name: metrics\n  containerPort: 9100\nargs:\n- serve\n${PROBE}`,
  },
  {
    name: '`ports:` with nothing after it: rewritten with the item',
    before: `ports:\n${PROBE}`,
    after: `ports:\n  - name: metrics\n    containerPort: 9100\n${PROBE}`,
  },
  {
    name: '`ports: ~`: rewritten with the item',
    before: `ports: ~\n${PROBE}`,
    after: `ports:\n  - name: metrics\n    containerPort: 9100\n${PROBE}`,
  },
  {
    name: 'the number already declared without a name: that entry gets the name',
    before: `ports:\n  - containerPort: 9100\n    protocol: TCP\n${PROBE}`,
    after: `ports:\n  - name: metrics\n    containerPort: 9100\n    protocol: TCP\n${PROBE}`,
  },
  {
    name: 'the number already declared without a name, in a flow map: the name first in it',
    before: `ports: [{containerPort: 9100}]\n${PROBE}`,
    after: `ports: [{name: metrics, containerPort: 9100}]\n${PROBE}`,
  },
  {
    name: 'a flow-style container: a flow ports entry after image',
    spec: true,
    before: 'containers:\n  - {name: web, image: app, livenessProbe: {httpGet: {path: /metrics, port: metrics}}}',
    after: 'containers:\n  - {name: web, image: app, ports: [{name: metrics, containerPort: 9100}], livenessProbe: {httpGet: {path: /metrics, port: metrics}}}',
  },
];

function containerOf(text: string): ContainerModel {
  const container = parseManifest(text).documents[0]?.podSpecs[0]?.containers[0];
  assert.ok(container);
  return container;
}

const rulesOf = (text: string) => [...new Set(check(text).map((f) => f.rule))].sort();

describe('L01: declare the port', () => {
  for (const c of CASES) {
    test(c.name, () => {
      const wrap = c.spec ? podSpec : podWith;
      const before = wrap(c.before);
      assert.deepEqual(rulesOf(before), ['L01']);
      const declared = declarePort(containerOf(before), 'metrics', 9100, before);
      assert.ok(declared.ok, declared.ok ? '' : declared.reason);
      const fixed = applyTextEdits(before, [declared.edit]);
      assert.equal(fixed, wrap(c.after));
      assert.deepEqual(rulesOf(fixed), [], 'nothing left to report');
    });
  }

  test('a CRLF file keeps its line breaks', () => {
    const before = podWith(PROBE).replace(/\n/g, '\r\n');
    const declared = declarePort(containerOf(before), 'metrics', 9100, before);
    assert.ok(declared.ok);
    assert.equal(applyTextEdits(before, [declared.edit]), podWith(`ports:\n  - name: metrics\n    containerPort: 9100\n${PROBE}`).replace(/\n/g, '\r\n'));
  });

  test('a name YAML would read as something else is quoted', () => {
    const before = podWith('livenessProbe:\n  httpGet: {path: /, port: "on"}');
    const declared = declarePort(containerOf(before), 'on', 8080, before);
    assert.ok(declared.ok);
    assert.equal(applyTextEdits(before, [declared.edit]), podWith('ports:\n  - name: "on"\n    containerPort: 8080\nlivenessProbe:\n  httpGet: {path: /, port: "on"}'));
  });

  test('the number: 1–65535, and not a port already declared under another name', () => {
    const container = containerOf(podWith(`ports: [{name: http, containerPort: 8080}, {name: dns, containerPort: 53, protocol: UDP}]\n${PROBE}`));
    assert.equal(containerPortProblem(container, 'metrics', '9100'), undefined);
    assert.equal(containerPortProblem(container, 'metrics', ' 53 '), undefined, 'a UDP port of the same number is another port');
    for (const bad of ['', 'abc', '0', '65536', '80.5', '-1']) assert.equal(containerPortProblem(container, 'metrics', bad), 'A port number from 1 to 65535', bad);
    assert.equal(containerPortProblem(container, 'metrics', '8080'), 'containerPort 8080 is already declared as "http": use that name for the probe instead');
    const refused = declarePort(container, 'metrics', 8080, podWith(`ports: [{name: http, containerPort: 8080}]\n${PROBE}`));
    assert.deepEqual(refused, { ok: false, reason: 'containerPort 8080 is already declared as "http": use that name for the probe instead' });
  });

  test('the number offered first is the one a sibling container declares under that name', () => {
    const text = podSpec('containers:\n  - name: web\n    image: app\n    livenessProbe: {httpGet: {path: /, port: metrics}}\n  - name: exporter\n    image: exp\n    ports: [{name: metrics, containerPort: 9100}]');
    assert.equal(suggestedContainerPort(containerOf(text), 'metrics'), 9100);
    assert.equal(suggestedContainerPort(containerOf(text), 'admin'), undefined);
  });

  test('ports from an alias are the anchor\'s, shared: refused with the reason', () => {
    const text = podSpec(
      'containers:\n  - name: side\n    image: app\n    ports: &ports [{name: http, containerPort: 8080}]\n  - name: web\n    image: app\n    ports: *ports\n    livenessProbe: {httpGet: {path: /, port: metrics}}',
    );
    const web = parseManifest(text).documents[0]?.podSpecs[0]?.containers[1];
    assert.ok(web);
    const reason = 'the ports of container "web" come from an alias or merge key: declare the port where they are written';
    assert.equal(declarePortObstacle(web), reason);
    assert.deepEqual(declarePort(web, 'metrics', 9100, text), { ok: false, reason });
  });
});
