import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureWindow, killGraceSeconds, livenessKillSeconds, recoverySeconds, startupBudgetSeconds, toleranceSeconds } from '../../../src/core/rules/timing/formulas';
import { withProbeDefaults } from '../../../src/core/manifest/defaults';
import type { ProbeSpec } from '../../../src/core/manifest/model';
import { check, findingsOf, indent, podSpec, podWith, textAt } from '../../helpers/manifests';

/** A container block with the given probes (each a full `xxxProbe:` YAML block). */
const probes = (...blocks: string[]) => podWith(blocks.join('\n'));

const http = (port: string | number = 8080, path = '/healthz') => `httpGet: {path: ${path}, port: ${port}}`;

// ---------------------------------------------------------------------------------------------
// §C formulas (src/core/rules/timing/formulas.ts), on API-defaulted probes
// ---------------------------------------------------------------------------------------------

const probe = (spec: ProbeSpec) => withProbeDefaults({ tcpSocket: { port: 8080 }, ...spec });

const FORMULAS: readonly [string, () => number, number][] = [
  ['§C B_start: docs example 30 × 10 = 300 s', () => startupBudgetSeconds(probe({ failureThreshold: 30, periodSeconds: 10 })), 300],
  ['§C B_start: d_s + f_s × p_s', () => startupBudgetSeconds(probe({ initialDelaySeconds: 20, failureThreshold: 5, periodSeconds: 4 })), 40],
  ['§C B_start: all defaults 0 + 3 × 10', () => startupBudgetSeconds(probe({})), 30],
  ['§C K_live: defaults 0 + 3 × 10 = 30 s', () => livenessKillSeconds(probe({})), 30],
  ['§C K_live: zeros are defaults (period 0 → 10, failure 0 → 3)', () => livenessKillSeconds(probe({ periodSeconds: 0, failureThreshold: 0 })), 30],
  ['§C K_live: d_l + f_l × p_l', () => livenessKillSeconds(probe({ initialDelaySeconds: 15, failureThreshold: 2, periodSeconds: 5 })), 25],
  ['§C deadlock detection / endpoint removal: f × p', () => toleranceSeconds(probe({ initialDelaySeconds: 99, failureThreshold: 4, periodSeconds: 5 })), 20],
  ['§C endpoint removal with defaults: 3 × 10', () => toleranceSeconds(probe({})), 30],
  ['§C time to return to endpoints: s × p', () => recoverySeconds(probe({ successThreshold: 2, periodSeconds: 5 })), 10],
  ['§C time to return to endpoints with defaults: 1 × 10', () => recoverySeconds(probe({})), 10],
  ['§C/K3 kill grace: probe-level value wins', () => killGraceSeconds(probe({ terminationGracePeriodSeconds: 60 }), { terminationGracePeriodSeconds: 3600 }), 60],
  ['§C/K3 kill grace: probe-level value wins even when larger than the pod\'s', () => killGraceSeconds(probe({ terminationGracePeriodSeconds: 120 }), { terminationGracePeriodSeconds: 30 }), 120],
  ['§C/K3 kill grace: else the pod-level value', () => killGraceSeconds(probe({}), { terminationGracePeriodSeconds: 45 }), 45],
  ['§C failure window: latest is d + f × p', () => failureWindow(probe({ initialDelaySeconds: 5, failureThreshold: 3, periodSeconds: 10 })).latest, 35],
  ['§C failure window: earliest is d + (f − 1) × p (ticks not aligned with start, W3)', () => failureWindow(probe({ initialDelaySeconds: 5, failureThreshold: 3, periodSeconds: 10 })).earliest, 25],
  ['§C failure window: f = 1 can trip on the first attempt, right at d', () => failureWindow(probe({ initialDelaySeconds: 7, failureThreshold: 1, periodSeconds: 10 })).earliest, 7],
];

for (const [name, compute, expected] of FORMULAS) {
  test(name, () => {
    assert.equal(compute(), expected);
  });
}

test('§C kill grace: the pod default of 30 s applies to a pod that sets none', () => {
  // The pod model's default comes from parsing (D5); seen through L16's message.
  const yaml = probes(`livenessProbe:\n  ${http()}\n  terminationGracePeriodSeconds: 31`);
  const [finding] = findingsOf('L16', yaml);
  assert.match(finding?.message ?? '', /\b30 s\b/);
  assert.match(finding?.message ?? '', /\b31 s\b/);
});

// ---------------------------------------------------------------------------------------------
// L10: liveness kills before the app can be ready (no startupProbe, K_live < d_readiness)
// ---------------------------------------------------------------------------------------------

test('L10: readiness starts at 60 s, default liveness kills at 30 s → warning on the liveness probe', () => {
  const yaml = probes(`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http(8080, '/ready')}\n  initialDelaySeconds: 60`);
  const [finding, ...rest] = findingsOf('L10', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'warning');
  assert.equal(finding.path, 'spec.containers[0].livenessProbe');
  assert.equal(textAt(yaml, finding), 'livenessProbe');
  assert.match(finding.message, /\b30 s\b/);
  assert.match(finding.message, /\b60 s\b/);
  assert.match(finding.message, /startupProbe/);
});

const L10_TABLE: readonly [string, string, { expectedStartupSeconds?: number }, boolean][] = [
  ['L10: fires when K_live (5 + 2 × 5 = 15) < readiness delay 20', probes(`livenessProbe:\n  ${http()}\n  initialDelaySeconds: 5\n  failureThreshold: 2\n  periodSeconds: 5`, `readinessProbe:\n  ${http()}\n  initialDelaySeconds: 20`), {}, true],
  ['L10: nothing with a startupProbe (liveness waits for it)', probes(`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http(8080, '/ready')}\n  initialDelaySeconds: 60`, `startupProbe:\n  ${http()}\n  failureThreshold: 30`), {}, false],
  ['L10: nothing when K_live equals the readiness delay (30 = 30)', probes(`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http(8080, '/ready')}\n  initialDelaySeconds: 30`), {}, false],
  ['L10: nothing when the liveness delay covers the readiness delay (60 + 30 > 60)', probes(`livenessProbe:\n  ${http()}\n  initialDelaySeconds: 60`, `readinessProbe:\n  ${http(8080, '/ready')}\n  initialDelaySeconds: 60`), {}, false],
  ['L10: nothing without a liveness probe', probes(`readinessProbe:\n  ${http(8080, '/ready')}\n  initialDelaySeconds: 60`), {}, false],
  ['L10: nothing with default liveness and no readiness delay', probes(`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http(8080, '/ready')}`), {}, false],
  ['L10: fires when expectedStartupSeconds 45 > K_live 30', probes(`livenessProbe:\n  ${http()}`), { expectedStartupSeconds: 45 }, true],
  ['L10: nothing when expectedStartupSeconds 30 = K_live 30', probes(`livenessProbe:\n  ${http()}`), { expectedStartupSeconds: 30 }, false],
  ['L10: nothing when expectedStartupSeconds 20 < K_live 30', probes(`livenessProbe:\n  ${http()}`), { expectedStartupSeconds: 20 }, false],
  ['L10: nothing with expectedStartupSeconds 120 but a startupProbe', probes(`livenessProbe:\n  ${http()}`, `startupProbe:\n  ${http()}\n  failureThreshold: 30`), { expectedStartupSeconds: 120 }, false],
  ['L10: still fires on the readiness delay when expectedStartupSeconds is short', probes(`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http(8080, '/ready')}\n  initialDelaySeconds: 60`), { expectedStartupSeconds: 10 }, true],
];

for (const [name, yaml, options, fires] of L10_TABLE) {
  test(name, () => {
    assert.equal(findingsOf('L10', yaml, options).length, fires ? 1 : 0);
  });
}

test('L10: the expectedStartupSeconds message names the expected time', () => {
  const [finding] = findingsOf('L10', probes(`livenessProbe:\n  ${http()}`), { expectedStartupSeconds: 45 });
  assert.match(finding?.message ?? '', /\b45 s\b/);
  assert.match(finding?.message ?? '', /\b30 s\b/);
});

test('L10: a sidecar is checked too', () => {
  const yaml = podSpec(`initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always
    livenessProbe:
      tcpSocket: {port: 9901}
    readinessProbe:
      tcpSocket: {port: 9901}
      initialDelaySeconds: 60
containers:
  - name: web
    image: nginx`);
  assert.deepEqual(
    findingsOf('L10', yaml).map((f) => f.path),
    ['spec.initContainers[0].livenessProbe'],
  );
});

// ---------------------------------------------------------------------------------------------
// L11: startup budget ≤ liveness budget, or < 10 s
// ---------------------------------------------------------------------------------------------

const L11_TABLE: readonly [string, string[], boolean][] = [
  ['L11: fires when the startup budget equals liveness\'s (defaults: 30 = 30)', [`startupProbe:\n  ${http()}`, `livenessProbe:\n  ${http()}`], true],
  ['L11: fires when the startup budget is shorter than liveness\'s (2 × 10 = 20 < 60)', [`startupProbe:\n  ${http()}\n  failureThreshold: 2`, `livenessProbe:\n  ${http()}\n  failureThreshold: 6`], true],
  ['L11: nothing when the startup budget exceeds liveness\'s (30 × 10 = 300 > 30)', [`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `livenessProbe:\n  ${http()}`], false],
  ['L11: the startup initialDelaySeconds counts (20 + 30 = 50 > 30)', [`startupProbe:\n  ${http()}\n  initialDelaySeconds: 20`, `livenessProbe:\n  ${http()}`], false],
  ['L11: fires when the budget is under 10 s (1 × 5), no liveness', [`startupProbe:\n  ${http()}\n  failureThreshold: 1\n  periodSeconds: 5`], true],
  ['L11: fires when the budget is under 10 s even if above liveness\'s (9 > 1 × 1)', [`startupProbe:\n  ${http()}\n  failureThreshold: 3\n  periodSeconds: 3`, `livenessProbe:\n  ${http()}\n  failureThreshold: 1\n  periodSeconds: 1`], true],
  ['L11: nothing at exactly 10 s with no liveness (2 × 5)', [`startupProbe:\n  ${http()}\n  failureThreshold: 2\n  periodSeconds: 5`], false],
  ['L11: nothing without a startupProbe', [`livenessProbe:\n  ${http()}`], false],
];

for (const [name, blocks, fires] of L11_TABLE) {
  test(name, () => {
    const findings = findingsOf('L11', probes(...blocks));
    assert.equal(findings.length, fires ? 1 : 0);
    if (fires) {
      assert.equal(findings[0]?.severity, 'warning');
      assert.equal(findings[0]?.path, 'spec.containers[0].startupProbe');
    }
  });
}

test('L11: a startup budget shorter than liveness\'s is stricter, not protective: the message says so, with both', () => {
  // MetalLB's controller: a startupProbe polling every second (d 1, f 3) beside a 40 s liveness.
  const [finding] = findingsOf('L11', probes(`startupProbe:\n  ${http()}\n  initialDelaySeconds: 1\n  periodSeconds: 1`, `livenessProbe:\n  ${http()}\n  initialDelaySeconds: 10`));
  assert.equal(
    finding?.message,
    'the startupProbe kills a container that has not started within 4 s, sooner than liveness alone would (40 s): it gives a slow start less time, not more; give it a failureThreshold that covers the slowest start',
  );
});

test('L11: a startup budget equal to liveness\'s adds no time', () => {
  const [finding] = findingsOf('L11', probes(`startupProbe:\n  ${http()}`, `livenessProbe:\n  ${http()}`));
  assert.equal(finding?.message, "the startup budget (30 s) is the same as liveness's own: the startupProbe gives a slow start no more time than liveness alone would; raise its failureThreshold to cover the slowest start");
});

// ---------------------------------------------------------------------------------------------
// L12: timeoutSeconds > periodSeconds (W3: a tick missed while an attempt runs is kept, so
// timeoutSeconds == periodSeconds still fails its threshold after f × p)
// ---------------------------------------------------------------------------------------------

const L12_TABLE: readonly [string, string, string | undefined][] = [
  ['L12: nothing when timeout equals period (10 = 10): ticks coalesce, the window stays f × p', `livenessProbe:\n  ${http()}\n  timeoutSeconds: 10\n  periodSeconds: 10`, undefined],
  ['L12: nothing for periodSeconds: 1 with the default (and least) timeout of 1', `livenessProbe:\n  ${http()}\n  periodSeconds: 1`, undefined],
  ['L12: fires when timeout exceeds the default period (15 > 10)', `readinessProbe:\n  ${http()}\n  timeoutSeconds: 15`, 'spec.containers[0].readinessProbe.timeoutSeconds'],
  ['L12: fires on a startup probe too', `startupProbe:\n  ${http()}\n  timeoutSeconds: 6\n  periodSeconds: 5\n  failureThreshold: 30`, 'spec.containers[0].startupProbe.timeoutSeconds'],
  ['L12: fires when period 1 meets a timeout of 2 (pointing at timeoutSeconds)', `livenessProbe:\n  ${http()}\n  periodSeconds: 1\n  timeoutSeconds: 2`, 'spec.containers[0].livenessProbe.timeoutSeconds'],
  ['L12: nothing for the defaults (1 < 10)', `livenessProbe:\n  ${http()}`, undefined],
  ['L12: nothing for timeoutSeconds: 0 (defaulted to 1)', `livenessProbe:\n  ${http()}\n  timeoutSeconds: 0\n  periodSeconds: 2`, undefined],
  ['L12: nothing for timeout 9 < period 10', `livenessProbe:\n  ${http()}\n  timeoutSeconds: 9\n  periodSeconds: 10`, undefined],
];

for (const [name, block, path] of L12_TABLE) {
  test(name, () => {
    const findings = findingsOf('L12', probes(block));
    assert.deepEqual(
      findings.map((f) => f.path),
      path ? [path] : [],
    );
    if (path) assert.equal(findings[0]?.severity, 'warning');
  });
}

test('L12: the message gives the stretched window with its numbers, in the words of what the kubelet does', () => {
  const [liveness] = findingsOf('L12', probes(`livenessProbe:\n  ${http()}\n  timeoutSeconds: 5\n  periodSeconds: 2`));
  assert.equal(
    liveness?.message,
    'timeoutSeconds (5) is longer than periodSeconds (2): while an attempt hangs, the ticks it misses collapse into one and the next attempt starts as it times out, so hanging attempts come every 5 s and the kubelet restarts the container after about 3 × 5 = 15 s of failures, not 3 × 2 = 6 s',
  );
  const [readiness] = findingsOf('L12', probes(`readinessProbe:\n  ${http()}\n  timeoutSeconds: 15\n  failureThreshold: 2`));
  assert.match(readiness?.message ?? '', /the kubelet marks it unready after about 2 × 15 = 30 s of failures, not 2 × 10 = 20 s$/);
});

// ---------------------------------------------------------------------------------------------
// L13 / L14: liveness vs readiness on the same endpoint
// ---------------------------------------------------------------------------------------------

const withHttpPort = 'ports:\n  - {name: http, containerPort: 8080}';

const L13_L14_TABLE: readonly [string, string[], 'L13' | 'L14' | undefined][] = [
  ['L14: fully identical liveness and readiness → L14, not L13', [`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http()}`], 'L14'],
  ['L14: a named port and its number are the same endpoint (resolved, not raw strings)', [withHttpPort, `livenessProbe:\n  ${http('http')}`, `readinessProbe:\n  ${http(8080)}`], 'L14'],
  ['L14: written defaults equal omitted ones (timeoutSeconds 1, periodSeconds 0, path omitted vs /)', [`livenessProbe:\n  httpGet: {port: 8080}\n  timeoutSeconds: 1\n  periodSeconds: 0`, `readinessProbe:\n  httpGet: {path: /, port: 8080, scheme: HTTP}`], 'L14'],
  ['L14: identical tcpSocket probes', [`livenessProbe:\n  tcpSocket: {port: 5432}`, `readinessProbe:\n  tcpSocket: {port: 5432}`], 'L14'],
  ['L14: identical exec probes', [`livenessProbe:\n  exec: {command: [pg_isready]}`, `readinessProbe:\n  exec: {command: [pg_isready]}`], 'L14'],
  ['L14: identical gRPC probes', [`livenessProbe:\n  grpc: {port: 9090}`, `readinessProbe:\n  grpc: {port: 9090}`], 'L14'],
  ['L13: same endpoint and budget but another initialDelaySeconds → L13 (30 ≤ 30)', [`livenessProbe:\n  ${http()}\n  initialDelaySeconds: 5`, `readinessProbe:\n  ${http()}`], 'L13'],
  ['L13: named port vs the same number, liveness less tolerant (30 ≤ 60)', [withHttpPort, `livenessProbe:\n  ${http('http')}`, `readinessProbe:\n  ${http(8080)}\n  failureThreshold: 6`], 'L13'],
  ['L13: liveness 3 × 10 = 30 vs readiness 1 × 30 = 30 (equal windows fire too)', [`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http()}\n  failureThreshold: 1\n  periodSeconds: 30`], 'L13'],
  ['L13: same tcpSocket port, liveness less tolerant', [`livenessProbe:\n  tcpSocket: {port: 5432}\n  periodSeconds: 5`, `readinessProbe:\n  tcpSocket: {port: 5432}`], 'L13'],
  ['L13: nothing when liveness is more tolerant (6 × 10 > 3 × 10) — the docs\' recommendation', [`livenessProbe:\n  ${http()}\n  failureThreshold: 6`, `readinessProbe:\n  ${http()}`], undefined],
  ['L13: nothing for a different path (a different endpoint)', [`livenessProbe:\n  ${http(8080, '/livez')}`, `readinessProbe:\n  ${http(8080, '/readyz')}`], undefined],
  ['L13: nothing for a different port', [`livenessProbe:\n  ${http(8080)}`, `readinessProbe:\n  ${http(8081)}`], undefined],
  ['L13: nothing for a different scheme', [`livenessProbe:\n  httpGet: {path: /, port: 8443, scheme: HTTPS}`, `readinessProbe:\n  httpGet: {path: /, port: 8443}`], undefined],
  ['L13: nothing for different handler types on the same port', [`livenessProbe:\n  tcpSocket: {port: 8080}`, `readinessProbe:\n  httpGet: {path: /, port: 8080}`], undefined],
  ['L13: nothing for different exec commands', [`livenessProbe:\n  exec: {command: [cat, /tmp/alive]}`, `readinessProbe:\n  exec: {command: [cat, /tmp/ready]}`], undefined],
  ['L13: nothing without readiness', [`livenessProbe:\n  ${http()}`], undefined],
];

for (const [name, blocks, expected] of L13_L14_TABLE) {
  test(name, () => {
    const yaml = probes(...blocks);
    const l13 = findingsOf('L13', yaml);
    const l14 = findingsOf('L14', yaml);
    assert.deepEqual(
      [...l13, ...l14].map((f) => `${f.rule} ${f.path} ${f.severity}`),
      expected ? [`${expected} spec.containers[0].livenessProbe warning`] : [],
    );
  });
}

test('L14: different headers on the same endpoint are not fully identical (L13 instead)', () => {
  const yaml = probes(
    `livenessProbe:\n  httpGet:\n    path: /healthz\n    port: 8080\n    httpHeaders:\n      - {name: X-Probe, value: live}`,
    `readinessProbe:\n  httpGet:\n    path: /healthz\n    port: 8080\n    httpHeaders:\n      - {name: X-Probe, value: ready}`,
  );
  assert.deepEqual(findingsOf('L14', yaml), []);
  assert.equal(findingsOf('L13', yaml).length, 1);
});

/** The pod of `probes`, labelled, and a Service selecting it (L13 and L14 name it). */
const withService = (yaml: string) =>
  `${yaml.replace('metadata:\n  name: web\n', 'metadata:\n  name: web\n  labels: {app: web}\n')}---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80, targetPort: 8080}]\n`;

test('L13: liveness less tolerant: restarted before it leaves the Service\'s endpoints, with both windows', () => {
  const yaml = probes(withHttpPort, `livenessProbe:\n  ${http('http')}`, `readinessProbe:\n  ${http(8080)}\n  failureThreshold: 6`);
  const [finding] = findingsOf('L13', withService(yaml));
  assert.equal(
    finding?.message,
    'liveness and readiness probe the same endpoint, and liveness gives up after 30 s of failures while readiness takes 60 s: an overloaded container is restarted before it is taken out of the endpoints of Service "web"; give liveness a higher failureThreshold',
  );
});

test('L13: no Service among the manifests selects the pod: it is marked unready, and the message says what would hold for one elsewhere', () => {
  const [finding] = findingsOf('L13', probes(withHttpPort, `livenessProbe:\n  ${http('http')}`, `readinessProbe:\n  ${http(8080)}\n  failureThreshold: 6`));
  assert.equal(
    finding?.message,
    'liveness and readiness probe the same endpoint, and liveness gives up after 30 s of failures while readiness takes 60 s: an overloaded container is restarted before it is marked unready, so a Service that selects it never takes it out of rotation to recover (none among the manifests checked does); give liveness a higher failureThreshold',
  );
});

test('L13: equal windows: taken out of the Service\'s endpoints and restarted at about the same moment (not "before")', () => {
  const yaml = probes(`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http()}\n  failureThreshold: 1\n  periodSeconds: 30`);
  assert.equal(
    findingsOf('L13', withService(yaml))[0]?.message,
    'liveness and readiness probe the same endpoint and both give up after 30 s of failures: an overloaded container is taken out of the endpoints of Service "web" and restarted at about the same moment, with no time to recover out of rotation; give liveness a higher failureThreshold',
  );
  assert.equal(
    findingsOf('L13', yaml)[0]?.message,
    'liveness and readiness probe the same endpoint and both give up after 30 s of failures: an overloaded container is marked unready and restarted at about the same moment, so a Service that selects it has no time to take it out of rotation and let it recover (none among the manifests checked does); give liveness a higher failureThreshold',
  );
});

test('L14: names the Service whose endpoints the pod leaves, or says none among the manifests selects it', () => {
  const yaml = probes(`livenessProbe:\n  ${http()}`, `readinessProbe:\n  ${http()}`);
  assert.equal(
    findingsOf('L14', withService(yaml))[0]?.message,
    'liveness is identical to readiness: the moment the app is too busy to answer it is both taken out of the endpoints of Service "web" and restarted, which turns load into restarts; keep the endpoint but give liveness a higher failureThreshold',
  );
  assert.equal(
    findingsOf('L14', yaml)[0]?.message,
    'liveness is identical to readiness: the moment the app is too busy to answer it is both marked unready and restarted, which turns load into restarts (a Service that selects it never gets to take it out of rotation first; none among the manifests checked does); keep the endpoint but give liveness a higher failureThreshold',
  );
});

// ---------------------------------------------------------------------------------------------
// L15, L27, L28
// ---------------------------------------------------------------------------------------------

test('L15: a startupProbe without a livenessProbe is info on the startupProbe', () => {
  const yaml = probes(`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `readinessProbe:\n  ${http()}`);
  const [finding, ...rest] = findingsOf('L15', yaml);
  assert.equal(rest.length, 0);
  assert.equal(finding?.severity, 'info');
  assert.equal(finding?.path, 'spec.containers[0].startupProbe');
  assert.equal(finding && textAt(yaml, finding), 'startupProbe');
  // K2: a failing startupProbe does kill; what is missing is a check after start-up.
  assert.equal(
    finding?.message,
    'a startupProbe without a livenessProbe: a container that does not start within 300 s is killed and restarted, but once it has started nothing checks it again, so a hang after start-up is never restarted; add a livenessProbe if the app can hang',
  );
});

test('L15: nothing when a livenessProbe is there too', () => {
  assert.deepEqual(findingsOf('L15', probes(`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `livenessProbe:\n  ${http()}`)), []);
});

test('L15: nothing without a startupProbe', () => {
  assert.deepEqual(findingsOf('L15', probes(`readinessProbe:\n  ${http()}`)), []);
});

const L27_TABLE: readonly [string, string, boolean][] = [
  ['L27: liveness failureThreshold: 1 is a warning', `livenessProbe:\n  ${http()}\n  failureThreshold: 1`, true],
  ['L27: nothing for liveness failureThreshold: 0 (defaulted to 3)', `livenessProbe:\n  ${http()}\n  failureThreshold: 0`, false],
  ['L27: nothing for liveness failureThreshold: 2', `livenessProbe:\n  ${http()}\n  failureThreshold: 2`, false],
  ['L27: nothing for readiness failureThreshold: 1', `readinessProbe:\n  ${http()}\n  failureThreshold: 1`, false],
  ['L27: nothing for startup failureThreshold: 1', `startupProbe:\n  ${http()}\n  failureThreshold: 1\n  periodSeconds: 60`, false],
];

for (const [name, block, fires] of L27_TABLE) {
  test(name, () => {
    const yaml = probes(block);
    const findings = findingsOf('L27', yaml);
    assert.equal(findings.length, fires ? 1 : 0);
    if (fires) {
      assert.equal(findings[0]?.severity, 'warning');
      assert.equal(findings[0]?.path, 'spec.containers[0].livenessProbe.failureThreshold');
      assert.equal(findings[0] && textAt(yaml, findings[0]), '1');
    }
  });
}

test('L28: a liveness initialDelaySeconds next to a startupProbe is info on that field', () => {
  const yaml = probes(`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `livenessProbe:\n  ${http()}\n  initialDelaySeconds: 120`);
  const [finding, ...rest] = findingsOf('L28', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'info');
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.initialDelaySeconds');
  assert.equal(textAt(yaml, finding), '120');
  assert.match(finding.message, /120/);
});

const L28_SILENT: readonly [string, string[]][] = [
  ['no startupProbe', [`livenessProbe:\n  ${http()}\n  initialDelaySeconds: 120`]],
  ['a startupProbe and no liveness initialDelaySeconds', [`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `livenessProbe:\n  ${http()}`]],
  ['a startupProbe and liveness initialDelaySeconds: 0', [`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `livenessProbe:\n  ${http()}\n  initialDelaySeconds: 0`]],
  ['a small liveness initialDelaySeconds (5 s, below the 10 s worth a remark)', [`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `livenessProbe:\n  ${http()}\n  initialDelaySeconds: 5`]],
  ['a readiness initialDelaySeconds next to a startupProbe', [`startupProbe:\n  ${http()}\n  failureThreshold: 30`, `readinessProbe:\n  ${http()}\n  initialDelaySeconds: 120`]],
];

for (const [why, blocks] of L28_SILENT) {
  test(`L28: nothing with ${why}`, () => {
    assert.deepEqual(findingsOf('L28', probes(...blocks)), []);
  });
}

// ---------------------------------------------------------------------------------------------
// L16: probe grace period larger than the pod's (K3)
// ---------------------------------------------------------------------------------------------

const graced = (podGrace: number | undefined, block: string) =>
  podSpec(`${podGrace === undefined ? '' : `terminationGracePeriodSeconds: ${podGrace}\n`}containers:
  - name: web
    image: nginx
${indent(block, 4)}`);

const L16_TABLE: readonly [string, number | undefined, string, string | undefined][] = [
  ['L16: liveness 60 s > pod default 30 s', undefined, `livenessProbe:\n  ${http()}\n  terminationGracePeriodSeconds: 60`, 'spec.containers[0].livenessProbe.terminationGracePeriodSeconds'],
  ['L16: startup 120 s > pod 60 s', 60, `startupProbe:\n  ${http()}\n  failureThreshold: 30\n  terminationGracePeriodSeconds: 120`, 'spec.containers[0].startupProbe.terminationGracePeriodSeconds'],
  ['L16: nothing for the docs pattern (pod 3600 s, liveness 60 s)', 3600, `livenessProbe:\n  ${http()}\n  terminationGracePeriodSeconds: 60`, undefined],
  ['L16: nothing when equal to the pod value', 45, `livenessProbe:\n  ${http()}\n  terminationGracePeriodSeconds: 45`, undefined],
  ['L16: nothing without a probe-level value', 5, `livenessProbe:\n  ${http()}`, undefined],
  ['L16: readiness is excluded (it never kills; P11 speaks instead)', 10, `readinessProbe:\n  ${http()}\n  terminationGracePeriodSeconds: 60`, undefined],
];

for (const [name, podGrace, block, path] of L16_TABLE) {
  test(name, () => {
    const yaml = graced(podGrace, block);
    const findings = findingsOf('L16', yaml);
    assert.deepEqual(
      findings.map((f) => f.path),
      path ? [path] : [],
    );
    if (path) assert.equal(findings[0]?.severity, 'info');
  });
}

test('L16: readiness terminationGracePeriodSeconds is P11\'s error, not L16', () => {
  const yaml = graced(10, `readinessProbe:\n  ${http()}\n  terminationGracePeriodSeconds: 60`);
  assert.equal(findingsOf('P11', yaml).length, 1);
  assert.deepEqual(findingsOf('L16', yaml), []);
});

test('L16: the message shows the grace that applies and the pod\'s', () => {
  const [finding] = findingsOf('L16', graced(60, `startupProbe:\n  ${http()}\n  failureThreshold: 30\n  terminationGracePeriodSeconds: 120`));
  assert.match(finding?.message ?? '', /\b120 s\b/);
  assert.match(finding?.message ?? '', /\b60 s\b/);
});

// ---------------------------------------------------------------------------------------------
// Silence inside forbidden probes (P14, P16)
// ---------------------------------------------------------------------------------------------

const TIMING_RULES = ['L10', 'L11', 'L12', 'L13', 'L14', 'L15', 'L16', 'L27', 'L28'];

const troubled = indent(
  `livenessProbe:
  tcpSocket: {port: 8080}
  initialDelaySeconds: 15
  failureThreshold: 1
  timeoutSeconds: 20
  terminationGracePeriodSeconds: 600
readinessProbe:
  tcpSocket: {port: 8080}
  initialDelaySeconds: 60
startupProbe:
  tcpSocket: {port: 8080}
  failureThreshold: 1
  periodSeconds: 1`,
  4,
);

test('L10-L16, L27, L28: silent inside a plain init container\'s forbidden probes', () => {
  const yaml = podSpec(`initContainers:\n  - name: migrate\n    image: busybox\n${troubled}\ncontainers:\n  - name: web\n    image: nginx`);
  const found = check(yaml);
  assert.ok(found.some((f) => f.rule === 'P14'));
  assert.deepEqual(
    found.filter((f) => TIMING_RULES.includes(f.rule)).map((f) => `${f.rule} ${f.path}`),
    [],
  );
});

test('L10-L16, L27, L28: silent inside an ephemeral container\'s forbidden probes', () => {
  const yaml = podSpec(`containers:\n  - name: web\n    image: nginx\nephemeralContainers:\n  - name: debug\n    image: busybox\n${troubled}`);
  const found = check(yaml);
  assert.ok(found.some((f) => f.rule === 'P16'));
  assert.deepEqual(
    found.filter((f) => TIMING_RULES.includes(f.rule)).map((f) => `${f.rule} ${f.path}`),
    [],
  );
});

test('L10-L16, L27, L28: the same probes on a regular container do fire (control for the two tests above)', () => {
  const yaml = podSpec(`containers:\n  - name: web\n    image: nginx\n${troubled}`);
  const rules = new Set(check(yaml).map((f) => f.rule));
  for (const rule of ['L11', 'L12', 'L16', 'L27', 'L28']) assert.ok(rules.has(rule), `${rule} fires on a regular container`);
});
