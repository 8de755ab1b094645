/**
 * "Add a startupProbe derived from liveness" (docs/design.md §4 quick fixes; docs/spec/validation-rules.md §C
 * B_start, §D.10–11): the text it inserts, checked by applying it and reading the result again.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startupBudgetSeconds } from '../../../src/core/rules/timing/formulas';
import { IncrementalChecker } from '../../../src/core/editor/incrementalChecker';
import { deriveStartupProbe, parseBudgetSeconds, startupBudgetProblem, startupFailureThreshold, startupProbeObstacle } from '../../../src/core/fixes/startupProbe';
import { applyTextEdits } from '../../../src/core/text/edits';
import { type ContainerModel, parseManifest } from '../../../src/core/manifest';
import { check, podWith } from '../../helpers/manifests';

/** The container of a one-pod text, by name (the first when not given). */
function containerOf(text: string, name?: string): ContainerModel {
  const containers = parseManifest(text).documents.flatMap((d) => d.podSpecs.flatMap((p) => p.containers));
  const found = name === undefined ? containers[0] : containers.find((c) => c.name === name);
  assert.ok(found, `container ${name ?? '#0'} in the text`);
  return found;
}

/** The text with the derived startupProbe inserted. */
function withStartupProbe(text: string, budgetSeconds: number, name?: string): string {
  const derived = deriveStartupProbe(containerOf(text, name), text, budgetSeconds);
  assert.ok(derived.ok, derived.ok ? '' : derived.reason);
  return applyTextEdits(text, [derived.probe.edit]);
}

/**
 * What must hold of any result: it reads without errors, the container now has a startupProbe
 * with the liveness handler and the expected timing, and neither L10 (add a startupProbe) nor
 * L11 (a startupProbe that protects nothing) is raised.
 */
function assertSound(after: string, expected: { failureThreshold: number; periodSeconds: number; budgetSeconds: number }, name?: string) {
  const rules = check(after).map((f) => f.rule);
  for (const rule of ['Y01', 'D01', 'D02', 'L10', 'L11']) assert.ok(!rules.includes(rule), `${rule} after the fix: ${rules.join(', ')}`);
  const container = containerOf(after, name);
  const startup = container.probe('startup');
  const liveness = container.probe('liveness');
  assert.ok(startup && liveness, 'both probes are there');
  assert.deepEqual(startup.effective.handler, liveness.effective.handler);
  assert.equal(startup.effective.failureThreshold, expected.failureThreshold);
  assert.equal(startup.effective.periodSeconds, expected.periodSeconds);
  assert.equal(startup.effective.initialDelaySeconds, 0);
  assert.equal(startupBudgetSeconds(startup.effective), expected.budgetSeconds);
}

/** Readiness waits 60 s while default liveness kills at 30 s: L10. */
const READINESS_AT_60 = `readinessProbe:
  httpGet: {path: /ready, port: http}
  initialDelaySeconds: 60`;

describe('the budget formula: d + f × p ≥ budget, with the smallest such f', () => {
  const CASES: readonly [string, [budget: number, period: number, delay?: number], number][] = [
    ['a multiple of the period: 120 s / 10 s', [120, 10], 12],
    ['not a multiple: 100 s / 15 s rounds up to 7 (105 s), as 6 (90 s) falls short', [100, 15], 7],
    ['an initial delay counts towards the budget: 20 + 8 × 10 ≥ 95', [95, 10, 20], 8],
    ['never below the API minimum of 1', [5, 10], 1],
    ['a delay longer than the budget still leaves one attempt', [30, 10, 40], 1],
  ];
  for (const [name, args, expected] of CASES) {
    test(name, () => assert.equal(startupFailureThreshold(...args), expected));
  }

  test('for every budget and period up to 10 min: the budget is reached, and one attempt fewer would not reach it', () => {
    for (let period = 1; period <= 60; period++) {
      for (let budget = 1; budget <= 600; budget++) {
        for (const delay of [0, 7]) {
          const f = startupFailureThreshold(budget, period, delay);
          assert.ok(delay + f * period >= budget, `${budget} s, period ${period}, delay ${delay}: f = ${f} falls short`);
          if (f > 1) assert.ok(delay + (f - 1) * period < budget, `${budget} s, period ${period}, delay ${delay}: f = ${f} is not the smallest`);
        }
      }
    }
  });
});

describe('derived startupProbe text', () => {
  test('httpGet (block style): handler copied verbatim, named port and all, right after liveness', () => {
    const before = podWith(`ports: [{name: http, containerPort: 8080}]
livenessProbe:
  httpGet:
    path: /healthz
    port: http
${READINESS_AT_60}`);
    assert.deepEqual(
      check(before).map((f) => f.rule),
      ['L10'],
    );
    const after = withStartupProbe(before, 120);
    assert.equal(
      after,
      podWith(`ports: [{name: http, containerPort: 8080}]
livenessProbe:
  httpGet:
    path: /healthz
    port: http
startupProbe:
  httpGet:
    path: /healthz
    port: http
  failureThreshold: 12
  periodSeconds: 10
${READINESS_AT_60}`),
    );
    assertSound(after, { failureThreshold: 12, periodSeconds: 10, budgetSeconds: 120 });
  });

  test('tcpSocket with its own period and timeout: both carried over, the budget in whole periods', () => {
    const before = podWith(`ports: [{name: db, containerPort: 5432}]
livenessProbe:
  tcpSocket:
    port: db
  periodSeconds: 5
  timeoutSeconds: 3
${READINESS_AT_60}`);
    const after = withStartupProbe(before, 100);
    assert.equal(
      after,
      podWith(`ports: [{name: db, containerPort: 5432}]
livenessProbe:
  tcpSocket:
    port: db
  periodSeconds: 5
  timeoutSeconds: 3
startupProbe:
  tcpSocket:
    port: db
  failureThreshold: 20
  periodSeconds: 5
  timeoutSeconds: 3
${READINESS_AT_60}`),
    );
    assertSound(after, { failureThreshold: 20, periodSeconds: 5, budgetSeconds: 100 });
  });

  test('exec with a block-sequence command and a budget that is not a multiple of the period (100 s / 15 s → 7 × 15 = 105 s)', () => {
    const before = podWith(`livenessProbe:
  exec:
    command:
    - cat
    - /tmp/healthy
  periodSeconds: 15`);
    const derived = deriveStartupProbe(containerOf(before), before, 100);
    assert.ok(derived.ok);
    assert.deepEqual([derived.probe.failureThreshold, derived.probe.periodSeconds, derived.probe.budgetSeconds], [7, 15, 105]);
    const after = applyTextEdits(before, [derived.probe.edit]);
    assert.equal(
      after,
      podWith(`livenessProbe:
  exec:
    command:
    - cat
    - /tmp/healthy
  periodSeconds: 15
startupProbe:
  exec:
    command:
    - cat
    - /tmp/healthy
  failureThreshold: 7
  periodSeconds: 15`),
    );
    assertSound(after, { failureThreshold: 7, periodSeconds: 15, budgetSeconds: 105 });
  });

  test('grpc with a service, between liveness and a later field of the container', () => {
    const before = podWith(`livenessProbe:
  grpc: {port: 9000, service: liveness}  # the health service
  failureThreshold: 5
resources: {}`);
    const after = withStartupProbe(before, 300);
    assert.equal(
      after,
      podWith(`livenessProbe:
  grpc: {port: 9000, service: liveness}  # the health service
  failureThreshold: 5
startupProbe:
  grpc: {port: 9000, service: liveness}
  failureThreshold: 30
  periodSeconds: 10
resources: {}`),
    );
    assertSound(after, { failureThreshold: 30, periodSeconds: 10, budgetSeconds: 300 });
  });

  test('flow-style liveness (livenessProbe: {httpGet: …}): a block startupProbe, headers kept', () => {
    const before = podWith(`ports: [{name: http, containerPort: 8080}]
livenessProbe: {httpGet: {path: /healthz, port: http, httpHeaders: [{name: X-Probe, value: live}]}, periodSeconds: 5}
${READINESS_AT_60}`);
    const after = withStartupProbe(before, 60);
    assert.equal(
      after,
      podWith(`ports: [{name: http, containerPort: 8080}]
livenessProbe: {httpGet: {path: /healthz, port: http, httpHeaders: [{name: X-Probe, value: live}]}, periodSeconds: 5}
startupProbe:
  httpGet: {path: /healthz, port: http, httpHeaders: [{name: X-Probe, value: live}]}
  failureThreshold: 12
  periodSeconds: 5
${READINESS_AT_60}`),
    );
    assertSound(after, { failureThreshold: 12, periodSeconds: 5, budgetSeconds: 60 });
  });

  test('a flow-style liveness over several lines: its continuation lines stay deeper than the new key', () => {
    const before = podWith(`livenessProbe: {exec: {command: [cat,
    /tmp/healthy]}, periodSeconds: 3}`);
    const after = withStartupProbe(before, 30);
    assert.equal(
      after,
      podWith(`livenessProbe: {exec: {command: [cat,
    /tmp/healthy]}, periodSeconds: 3}
startupProbe:
  exec: {command: [cat,
   /tmp/healthy]}
  failureThreshold: 10
  periodSeconds: 3`),
    );
    assertSound(after, { failureThreshold: 10, periodSeconds: 3, budgetSeconds: 30 });
  });

  test('nested in a Deployment template, second of two containers, liveness key after a "- "', () => {
    const before = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  selector:
    matchLabels: {app: shop}
  template:
    metadata:
      labels: {app: shop}
    spec:
      containers:
        - name: web
          image: shop/web:1.4
          livenessProbe:
            httpGet: {path: /healthz, port: 8080}
        - livenessProbe:
            httpGet:
              path: /live
              port: 9102
              httpHeaders:
                - name: Accept
                  value: application/json
            periodSeconds: 20
          name: metrics
          image: shop/exporter:0.9
`;
    const after = withStartupProbe(before, 600, 'metrics');
    assert.equal(
      after,
      before.replace(
        '            periodSeconds: 20\n',
        `            periodSeconds: 20
          startupProbe:
            httpGet:
              path: /live
              port: 9102
              httpHeaders:
                - name: Accept
                  value: application/json
            failureThreshold: 30
            periodSeconds: 20
`,
      ),
    );
    assertSound(after, { failureThreshold: 30, periodSeconds: 20, budgetSeconds: 600 }, 'metrics');
    assert.equal(containerOf(after, 'web').probe('startup'), undefined, 'the other container is left alone');
  });

  test('a CRLF file gets CRLF lines', () => {
    const lf = podWith(`livenessProbe:
  httpGet:
    path: /healthz
    port: 8080
${READINESS_AT_60.replace('port: http', 'port: 8080')}`);
    const crlf = lf.replace(/\n/g, '\r\n');
    const after = withStartupProbe(crlf, 90);
    assert.ok(!/[^\r]\n/.test(after), 'every line break is CRLF');
    assert.equal(after, withStartupProbe(lf, 90).replace(/\n/g, '\r\n'));
    assert.match(after, /\r\n {6}startupProbe:\r\n {8}httpGet:\r\n {10}path: \/healthz\r\n {10}port: 8080\r\n {8}failureThreshold: 9\r\n {8}periodSeconds: 10\r\n {6}readinessProbe:/);
    assertSound(after, { failureThreshold: 9, periodSeconds: 10, budgetSeconds: 90 });
  });

  test('liveness on the last line of a file without a final line break: the probe goes on new lines', () => {
    const before = podWith(`livenessProbe:
  tcpSocket: {port: 8080}`).trimEnd();
    const after = withStartupProbe(before, 45);
    assert.equal(
      after,
      podWith(`livenessProbe:
  tcpSocket: {port: 8080}
startupProbe:
  tcpSocket: {port: 8080}
  failureThreshold: 5
  periodSeconds: 10`).trimEnd(),
    );
    assertSound(after, { failureThreshold: 5, periodSeconds: 10, budgetSeconds: 50 });
  });

  test('a flow-style container gets a flow entry', () => {
    const before = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - {name: web, image: nginx, livenessProbe: {grpc: {port: 9000}, periodSeconds: 7}, ports: [{containerPort: 9000}]}
`;
    const after = withStartupProbe(before, 95);
    assert.equal(
      after,
      before.replace('periodSeconds: 7}', 'periodSeconds: 7}, startupProbe: {grpc: {port: 9000}, failureThreshold: 14, periodSeconds: 7}'),
    );
    assertSound(after, { failureThreshold: 14, periodSeconds: 7, budgetSeconds: 98 });
  });

  test('in the second document of a file, placed with the line offset of its chunk', () => {
    const first = podWith('args: [serve]');
    const second = podWith(`livenessProbe:
  httpGet: {path: /healthz, port: 8080}
${READINESS_AT_60.replace('port: http', 'port: 8080')}`);
    const text = `${first}---\n${second}`;
    const snapshot = new IncrementalChecker('f.yaml').check(text, { disabledRules: new Set(), context: { minorVersion: 33 } });
    const placed = snapshot.podSpecs[1];
    assert.ok(placed && placed.lineOffset > 0, 'the second document is its own chunk');
    const container = placed.spec.containers[0] as ContainerModel;
    const derived = deriveStartupProbe(container, text, 120, placed.lineOffset);
    assert.ok(derived.ok);
    const after = applyTextEdits(text, [derived.probe.edit]);
    assert.equal(after, `${first}---\n${withStartupProbe(second, 120)}`);
    assert.ok(!check(after).some((f) => f.rule === 'L10'));
  });
});

describe('when no startupProbe is derived', () => {
  const refusal = (text: string, budget: number) => {
    const derived = deriveStartupProbe(containerOf(text), text, budget);
    assert.ok(!derived.ok, 'refused');
    return derived.reason;
  };

  test('the container already has one', () => {
    const text = podWith(`livenessProbe: {tcpSocket: {port: 8080}}\nstartupProbe: {tcpSocket: {port: 8080}, failureThreshold: 30}`);
    assert.match(refusal(text, 120), /already has a startupProbe/);
  });

  test('there is no liveness probe to derive from', () => {
    assert.match(refusal(podWith(`readinessProbe: {tcpSocket: {port: 8080}}`), 120), /no livenessProbe/);
  });

  test('liveness has no handler', () => {
    assert.match(refusal(podWith(`livenessProbe: {periodSeconds: 5}`), 120), /no handler/);
  });

  test('liveness is an alias: the edit would belong where the anchor is', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: a
      readinessProbe: &probe {tcpSocket: {port: 8080}}
    - name: b
      livenessProbe: *probe
`;
    const derived = deriveStartupProbe(containerOf(text, 'b'), text, 120);
    assert.ok(!derived.ok);
    assert.match(derived.reason, /alias or merge key/);
  });

  test('a budget no longer than liveness alone allows would protect nothing (L11)', () => {
    const text = podWith(`livenessProbe: {tcpSocket: {port: 8080}, failureThreshold: 6}`);
    assert.match(refusal(text, 60), /already allows 60 s/);
    assert.ok(deriveStartupProbe(containerOf(text), text, 61).ok, 'one second more is enough');
  });

  test('a budget under 10 s, or not a positive number', () => {
    const text = podWith(`livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 1, failureThreshold: 1}`);
    assert.match(refusal(text, 9), /under 10 s/);
    for (const budget of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) assert.match(refusal(text, budget), /positive number/);
  });

  test('startupProbeObstacle and startupBudgetProblem say nothing when it can be done', () => {
    const container = containerOf(podWith(`livenessProbe: {tcpSocket: {port: 8080}}`));
    assert.equal(startupProbeObstacle(container), undefined);
    assert.equal(startupBudgetProblem(container.probe('liveness')!, 31), undefined);
  });
});

describe('budgets as typed', () => {
  const CASES: readonly [string, number | undefined][] = [
    ['90', 90],
    [' 90s ', 90],
    ['90 s', 90],
    ['2m', 120],
    ['1.5 min', 90],
    ['1.1m', 66],
    ['1h', 3600],
    ['2.5', 3],
    ['', undefined],
    ['ten', undefined],
    ['-5', undefined],
    ['5 days', undefined],
  ];
  for (const [typed, seconds] of CASES) {
    test(`${JSON.stringify(typed)} → ${seconds}`, () => assert.equal(parseBudgetSeconds(typed), seconds));
  }
});
