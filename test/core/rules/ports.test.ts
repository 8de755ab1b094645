import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveContainerPort } from '../../../src/core/manifest/ports';
import type { ContainerPort, IntOrString } from '../../../src/core/manifest/model';
import { applyFix, check, findingsOf, podSpec, podWith, textAt } from '../../helpers/manifests';

const PROBE_FIELD = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' } as const;

// ---------------------------------------------------------------------------------------------
// L01: named port not declared on the same container (A.6, D.1, N2, P5)
// ---------------------------------------------------------------------------------------------

const L01_CONSEQUENCE: readonly [keyof typeof PROBE_FIELD, RegExp][] = [
  ['readiness', /never becomes Ready/],
  ['startup', /never started/],
  ['liveness', /never restarts/],
];

for (const [type, consequence] of L01_CONSEQUENCE) {
  test(`L01: an undeclared named port on a ${type} probe is an error saying what P5 means for ${type}`, () => {
    const yaml = podWith(`ports:\n  - {name: metrics, containerPort: 9090}\n${PROBE_FIELD[type]}:\n  httpGet: {path: /healthz, port: http}`);
    const [finding, ...rest] = findingsOf('L01', yaml);
    assert.equal(rest.length, 0);
    assert.ok(finding);
    assert.equal(finding.severity, 'error');
    assert.equal(finding.path, `spec.containers[0].${PROBE_FIELD[type]}.httpGet.port`);
    assert.equal(textAt(yaml, finding), 'http');
    assert.match(finding.message, /"http"/);
    assert.match(finding.message, consequence);
    // The other probe types' consequences are not mixed in.
    for (const [other, otherConsequence] of L01_CONSEQUENCE) if (other !== type) assert.doesNotMatch(finding.message, otherConsequence);
  });
}

test('L01: a named port declared only on another container is not found', () => {
  const yaml = podSpec(`containers:
  - name: web
    image: nginx
    livenessProbe:
      tcpSocket: {port: admin}
  - name: side
    image: envoy
    ports:
      - {name: admin, containerPort: 9901}`);
  const [finding, ...rest] = findingsOf('L01', yaml);
  assert.equal(rest.length, 0);
  assert.equal(finding?.path, 'spec.containers[0].livenessProbe.tcpSocket.port');
  assert.equal(finding && textAt(yaml, finding), 'admin');
});

test('L01: a named port of a container with no ports at all is not found (tcpSocket too)', () => {
  const yaml = podWith(`readinessProbe:\n  tcpSocket:\n    port: grpc-web`);
  assert.deepEqual(
    findingsOf('L01', yaml).map((f) => f.path),
    ['spec.containers[0].readinessProbe.tcpSocket.port'],
  );
});

test('L01: a sidecar (restartPolicy: Always init container) is checked like a regular container', () => {
  const yaml = podSpec(`initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always
    ports:
      - {name: admin, containerPort: 9901}
    readinessProbe:
      httpGet: {path: /ready, port: admn}
containers:
  - name: web
    image: nginx`);
  assert.deepEqual(
    findingsOf('L01', yaml).map((f) => f.path),
    ['spec.initContainers[0].readinessProbe.httpGet.port'],
  );
});

const L01_SILENT: readonly [string, string][] = [
  ['the name is declared on the container', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: http}`],
  ['the name is declared with another protocol (lookup ignores protocol; L02 is the one to speak)', `ports:\n  - {name: dns, containerPort: 53, protocol: UDP}\nlivenessProbe:\n  tcpSocket: {port: dns}`],
  ['the port is a number', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: 8080}`],
  ['the name is invalid under P06 (upper case)', `livenessProbe:\n  httpGet: {path: /, port: HTTP}`],
  ['the name is invalid under P06 (underscore)', `livenessProbe:\n  httpGet: {path: /, port: my_port}`],
  ['the name is invalid under P06 (longer than 15)', `livenessProbe:\n  httpGet: {path: /, port: a-very-long-port-name}`],
  ['the port is a quoted number (L04, P06)', `livenessProbe:\n  httpGet: {path: /, port: "8080"}`],
];

for (const [why, fields] of L01_SILENT) {
  test(`L01: nothing when ${why}`, () => {
    assert.deepEqual(findingsOf('L01', podWith(fields)), []);
  });
}

test('L01: an invalid name is P06\'s business, not L01\'s', () => {
  const yaml = podWith(`livenessProbe:\n  httpGet: {path: /, port: my_port}`);
  assert.ok(findingsOf('P06', yaml).length > 0);
  assert.deepEqual(findingsOf('L01', yaml), []);
});

test('L01: silent inside forbidden probes (plain init container, P14)', () => {
  const yaml = podSpec(`initContainers:
  - name: migrate
    image: busybox
    livenessProbe:
      httpGet: {path: /, port: nowhere}
containers:
  - name: web
    image: nginx`);
  const rules = check(yaml).map((f) => f.rule);
  assert.ok(rules.includes('P14'));
  assert.deepEqual(findingsOf('L01', yaml), []);
});

test('L01: silent inside forbidden probes (ephemeral container, P16)', () => {
  const yaml = podSpec(`containers:
  - name: web
    image: nginx
ephemeralContainers:
  - name: debug
    image: busybox
    readinessProbe:
      tcpSocket: {port: nowhere}`);
  const rules = check(yaml).map((f) => f.rule);
  assert.ok(rules.includes('P16'));
  assert.deepEqual(findingsOf('L01', yaml), []);
});

test('L01-L08: no runtime port rule fires inside a forbidden probe', () => {
  const yaml = podSpec(`initContainers:
  - name: migrate
    image: busybox
    ports:
      - {name: dns, containerPort: 53, protocol: UDP, hostPort: 53}
      - {name: http, containerPort: 8080, hostPort: 80}
    livenessProbe:
      httpGet: {path: /, port: dns, scheme: HTTPS}
    readinessProbe:
      httpGet: {path: /, port: 80}
    startupProbe:
      tcpSocket: {port: "8080"}
containers:
  - name: web
    image: nginx`);
  const runtime = check(yaml).filter((f) => /^L0[1-8]$/.test(f.rule));
  assert.deepEqual(runtime, []);
});

// ---------------------------------------------------------------------------------------------
// L02: named port resolving to UDP/SCTP (A.6, D.2)
// ---------------------------------------------------------------------------------------------

for (const protocol of ['UDP', 'SCTP']) {
  test(`L02: a named port that is ${protocol} resolves, then the TCP/HTTP probe fails`, () => {
    const yaml = podWith(`ports:\n  - {name: stats, containerPort: 8125, protocol: ${protocol}}\nreadinessProbe:\n  httpGet: {path: /, port: stats}`);
    const [finding, ...rest] = findingsOf('L02', yaml);
    assert.equal(rest.length, 0);
    assert.equal(finding?.severity, 'warning');
    assert.equal(finding?.path, 'spec.containers[0].readinessProbe.httpGet.port');
    assert.equal(finding && textAt(yaml, finding), 'stats');
    assert.ok(finding?.message.includes(protocol));
    assert.deepEqual(findingsOf('L01', yaml), []);
  });
}

test('L02: a tcpSocket probe on a UDP named port fires too', () => {
  const yaml = podWith(`ports:\n  - {name: dns, containerPort: 53, protocol: UDP}\nlivenessProbe:\n  tcpSocket: {port: dns}`);
  assert.deepEqual(
    findingsOf('L02', yaml).map((f) => f.path),
    ['spec.containers[0].livenessProbe.tcpSocket.port'],
  );
});

test('L02: the first port with the name decides (N2 first match)', () => {
  const yaml = podWith(`ports:\n  - {name: dns, containerPort: 53, protocol: TCP}\n  - {name: dns, containerPort: 53, protocol: UDP}\nlivenessProbe:\n  tcpSocket: {port: dns}`);
  assert.deepEqual(findingsOf('L02', yaml), []);
});

const L02_SILENT: readonly [string, string][] = [
  ['the named port is TCP', `ports:\n  - {name: http, containerPort: 8080, protocol: TCP}\nlivenessProbe:\n  httpGet: {path: /, port: http}`],
  ['the named port has no protocol (TCP by default)', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: http}`],
  ['the probe uses the UDP port by number (L02 is about names)', `ports:\n  - {name: dns, containerPort: 53, protocol: UDP}\nlivenessProbe:\n  tcpSocket: {port: 8080}`],
];

for (const [why, fields] of L02_SILENT) {
  test(`L02: nothing when ${why}`, () => {
    assert.deepEqual(findingsOf('L02', podWith(fields)), []);
  });
}

// ---------------------------------------------------------------------------------------------
// L03: numeric port not declared (D.3, info)
// ---------------------------------------------------------------------------------------------

test('L03: a numeric port not among the declared ports is info', () => {
  const yaml = podWith(`ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: 9000}`);
  const [finding, ...rest] = findingsOf('L03', yaml);
  assert.equal(rest.length, 0);
  assert.equal(finding?.severity, 'info');
  assert.equal(finding?.path, 'spec.containers[0].livenessProbe.httpGet.port');
  assert.equal(finding && textAt(yaml, finding), '9000');
  assert.match(finding?.message ?? '', /9000/);
});

test('L03: tcpSocket numeric ports are checked too', () => {
  const yaml = podWith(`ports:\n  - {containerPort: 5432}\nreadinessProbe:\n  tcpSocket: {port: 5433}`);
  assert.deepEqual(
    findingsOf('L03', yaml).map((f) => [f.path, f.severity]),
    [['spec.containers[0].readinessProbe.tcpSocket.port', 'info']],
  );
});

const L03_SILENT: readonly [string, string][] = [
  ['the container declares no ports (declaration is documentation only)', `livenessProbe:\n  httpGet: {path: /, port: 9000}`],
  ['the port is declared', `ports:\n  - {containerPort: 8080}\n  - {containerPort: 9000}\nlivenessProbe:\n  httpGet: {path: /, port: 9000}`],
  ['the port is a declared name', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: http}`],
  ['the probe is exec', `ports:\n  - {containerPort: 8080}\nlivenessProbe:\n  exec: {command: [cat, /tmp/healthy]}`],
];

for (const [why, fields] of L03_SILENT) {
  test(`L03: nothing when ${why}`, () => {
    assert.deepEqual(findingsOf('L03', podWith(fields)), []);
  });
}

// ---------------------------------------------------------------------------------------------
// L04: quoted number as a port (A.5, D.4)
// ---------------------------------------------------------------------------------------------

const L04_CASES: readonly [string, string, string][] = [
  ['httpGet, double quotes', `livenessProbe:\n  httpGet:\n    path: /\n    port: "8080"`, 'spec.containers[0].livenessProbe.httpGet.port'],
  ['httpGet, single quotes', `readinessProbe:\n  httpGet:\n    path: /\n    port: '8080'`, 'spec.containers[0].readinessProbe.httpGet.port'],
  ['tcpSocket', `startupProbe:\n  tcpSocket:\n    port: "8080"`, 'spec.containers[0].startupProbe.tcpSocket.port'],
];

for (const [name, fields, path] of L04_CASES) {
  test(`L04: a quoted number is a name; the fix unquotes it (${name})`, () => {
    const yaml = podWith(`ports:\n  - {containerPort: 8080}\n${fields}`);
    const [finding, ...rest] = findingsOf('L04', yaml);
    assert.equal(rest.length, 0);
    assert.ok(finding);
    assert.equal(finding.path, path);
    assert.match(textAt(yaml, finding), /^["']8080["']$/);
    assert.match(finding.message, /8080/);
    // P06(c): the API server rejects it as a name without a letter.
    assert.ok(findingsOf('P06', yaml).some((f) => f.path === path));
    const fixed = applyFix(yaml, finding);
    assert.match(fixed, /port: 8080\n/);
    assert.doesNotMatch(fixed, /["']8080["']/);
    const after = check(fixed).map((f) => f.rule);
    assert.ok(!after.includes('L04'), `L04 gone after the fix: ${after.join(', ')}`);
    assert.ok(!after.includes('P06'), `P06 gone after the fix: ${after.join(', ')}`);
    assert.ok(!after.includes('L01'));
  });
}

const L04_SILENT: readonly [string, string][] = [
  ['the port is an unquoted number', `livenessProbe:\n  httpGet: {path: /, port: 8080}`],
  ['the port is a real name', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: http}`],
  ['the quoted port has letters', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: "http"}`],
];

for (const [why, fields] of L04_SILENT) {
  test(`L04: nothing when ${why}`, () => {
    assert.deepEqual(findingsOf('L04', podWith(fields)), []);
  });
}

// ---------------------------------------------------------------------------------------------
// L05: gRPC port given as a name (A.5 D02, D.5)
// ---------------------------------------------------------------------------------------------

test('L05: a gRPC port name declared on the container suggests its containerPort, with a fix', () => {
  const yaml = podWith(`ports:\n  - {name: grpc, containerPort: 9090, hostPort: 19090}\nlivenessProbe:\n  grpc:\n    port: grpc`);
  const [finding, ...rest] = findingsOf('L05', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.grpc.port');
  assert.equal(textAt(yaml, finding), 'grpc');
  assert.match(finding.message, /9090/);
  assert.doesNotMatch(finding.message, /19090/);
  assert.ok(findingsOf('D02', yaml).length > 0, 'the decode error itself is D02');
  const fixed = applyFix(yaml, finding);
  assert.match(fixed, /grpc:\n\s+port: 9090\n/);
  const after = check(fixed).map((f) => f.rule);
  assert.ok(!after.includes('L05') && !after.includes('D02'), after.join(', '));
});

test('L05: an unknown gRPC port name gets a message but no fix', () => {
  const yaml = podWith(`ports:\n  - {name: http, containerPort: 8080}\nreadinessProbe:\n  grpc: {port: grpc}`);
  const [finding, ...rest] = findingsOf('L05', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.path, 'spec.containers[0].readinessProbe.grpc.port');
  assert.match(finding.message, /"grpc"/);
  assert.equal(finding.fixes, undefined);
});

test('L05: a gRPC port name declared on a sibling container is not used', () => {
  const yaml = podSpec(`containers:
  - name: web
    image: app
    livenessProbe:
      grpc: {port: grpc}
  - name: side
    image: app
    ports:
      - {name: grpc, containerPort: 9090}`);
  const [finding] = findingsOf('L05', yaml);
  assert.ok(finding);
  assert.equal(finding.fixes, undefined);
  assert.doesNotMatch(finding.message, /9090/);
});

test('L05: a quoted number as a gRPC port is unquoted by the fix', () => {
  const yaml = podWith(`livenessProbe:\n  grpc:\n    port: "9090"`);
  const [finding, ...rest] = findingsOf('L05', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.match(finding.message, /9090/);
  const fixed = applyFix(yaml, finding);
  assert.match(fixed, /grpc:\n\s+port: 9090\n/);
  assert.ok(!check(fixed).some((f) => f.rule === 'L05' || f.rule === 'D02'));
});

test('L05: nothing for a numeric gRPC port', () => {
  const yaml = podWith(`ports:\n  - {name: grpc, containerPort: 9090}\nlivenessProbe:\n  grpc: {port: 9090}`);
  assert.deepEqual(findingsOf('L05', yaml), []);
  assert.deepEqual(findingsOf('D02', yaml), []);
});

// ---------------------------------------------------------------------------------------------
// L06: probe port is a hostPort only (D.6)
// ---------------------------------------------------------------------------------------------

test('L06: a probe on a hostPort that is not a containerPort is a warning naming the containerPort', () => {
  const yaml = podWith(`ports:\n  - {containerPort: 8080, hostPort: 80}\nlivenessProbe:\n  httpGet: {path: /, port: 80}`);
  const [finding, ...rest] = findingsOf('L06', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'warning');
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.httpGet.port');
  assert.equal(textAt(yaml, finding), '80');
  assert.match(finding.message, /8080/);
  assert.deepEqual(findingsOf('L03', yaml), [], 'L06 says it better than L03');
});

test('L06: tcpSocket on a hostPort fires too', () => {
  const yaml = podWith(`ports:\n  - {containerPort: 5432, hostPort: 15432}\nreadinessProbe:\n  tcpSocket: {port: 15432}`);
  assert.deepEqual(
    findingsOf('L06', yaml).map((f) => f.path),
    ['spec.containers[0].readinessProbe.tcpSocket.port'],
  );
});

const L06_SILENT: readonly [string, string][] = [
  ['the probe uses the containerPort', `ports:\n  - {containerPort: 8080, hostPort: 80}\nlivenessProbe:\n  httpGet: {path: /, port: 8080}`],
  ['the port is both a hostPort and a containerPort', `ports:\n  - {containerPort: 8080, hostPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: 8080}`],
  ['the port is both one entry\'s hostPort and another\'s containerPort', `ports:\n  - {containerPort: 8080, hostPort: 80}\n  - {containerPort: 80}\nlivenessProbe:\n  httpGet: {path: /, port: 80}`],
  ['no ports are declared', `livenessProbe:\n  httpGet: {path: /, port: 80}`],
];

for (const [why, fields] of L06_SILENT) {
  test(`L06: nothing when ${why}`, () => {
    assert.deepEqual(findingsOf('L06', podWith(fields)), []);
  });
}

// ---------------------------------------------------------------------------------------------
// L08: scheme / port-name mismatch (D.8, info)
// ---------------------------------------------------------------------------------------------

const L08_FIRES: readonly [string, string][] = [
  ['HTTPS on a port named http', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: http, scheme: HTTPS}`],
  ['HTTPS on a number whose declared name is http', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: 8080, scheme: HTTPS}`],
  ['explicit HTTP on a port named https', `ports:\n  - {name: https, containerPort: 8443}\nlivenessProbe:\n  httpGet: {path: /, port: https, scheme: HTTP}`],
  ['default scheme (HTTP) on a port named https', `ports:\n  - {name: https, containerPort: 8443}\nlivenessProbe:\n  httpGet: {path: /, port: https}`],
  ['default scheme (HTTP) on port 443', `livenessProbe:\n  httpGet: {path: /, port: 443}`],
];

for (const [name, fields] of L08_FIRES) {
  test(`L08: fires for ${name}`, () => {
    const findings = findingsOf('L08', podWith(fields));
    assert.equal(findings.length, 1);
    assert.equal(findings[0]?.severity, 'info');
    assert.equal(findings[0]?.path, 'spec.containers[0].livenessProbe.httpGet.scheme');
  });
}

const L08_SILENT: readonly [string, string][] = [
  ['HTTPS on a port named https', `ports:\n  - {name: https, containerPort: 8443}\nlivenessProbe:\n  httpGet: {path: /, port: https, scheme: HTTPS}`],
  ['HTTP on a port named http', `ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: http}`],
  ['HTTPS on port 443', `livenessProbe:\n  httpGet: {path: /, port: 443, scheme: HTTPS}`],
  ['HTTP on an unnamed number', `livenessProbe:\n  httpGet: {path: /, port: 8080}`],
  ['tcpSocket on a port named https (no scheme at all)', `ports:\n  - {name: https, containerPort: 8443}\nlivenessProbe:\n  tcpSocket: {port: https}`],
];

for (const [why, fields] of L08_SILENT) {
  test(`L08: nothing for ${why}`, () => {
    assert.deepEqual(findingsOf('L08', podWith(fields)), []);
  });
}

// ---------------------------------------------------------------------------------------------
// N1–N3: resolveContainerPort (docs/spec/kubelet-probes.md §9)
// ---------------------------------------------------------------------------------------------

type Resolution = { ok: true; port: number } | { ok: false; error: string };

const PORTS: readonly ContainerPort[] = [
  { name: 'http', containerPort: 8080, hostPort: 80 },
  { name: 'http', containerPort: 9999 },
  { name: 'dns', containerPort: 53, protocol: 'UDP' },
  { name: 'sctp', containerPort: 3868, protocol: 'SCTP' },
  { name: 'zero', containerPort: 0 },
  { name: 'numeric', containerPort: 7000 },
];

const RESOLVE_TABLE: readonly [string, IntOrString, readonly ContainerPort[], Resolution][] = [
  ['N1: int 1 is accepted', 1, [], { ok: true, port: 1 }],
  ['N1: int 65535 is accepted', 65535, [], { ok: true, port: 65535 }],
  ['N1: int 8080 is accepted whether declared or not', 8080, PORTS, { ok: true, port: 8080 }],
  ['N1: int 0 is rejected', 0, [], { ok: false, error: 'invalid port number: 0' }],
  ['N1: int 65536 is rejected', 65536, [], { ok: false, error: 'invalid port number: 65536' }],
  ['N1: int -1 is rejected', -1, [], { ok: false, error: 'invalid port number: -1' }],
  ['N2: a name resolves to the first matching containerPort, not the hostPort', 'http', PORTS, { ok: true, port: 8080 }],
  ['N2: a UDP name resolves all the same (protocol ignored)', 'dns', PORTS, { ok: true, port: 53 }],
  ['N2: an SCTP name resolves all the same (protocol ignored)', 'sctp', PORTS, { ok: true, port: 3868 }],
  ['N2: a name whose containerPort is invalid fails N1', 'zero', PORTS, { ok: false, error: 'invalid port number: 0' }],
  ['N2: a numeric string with no such name is parsed', '118', PORTS, { ok: true, port: 118 }],
  ['N2: a numeric string with no ports at all is parsed', '8080', [], { ok: true, port: 8080 }],
  ['N2: an unknown name is a parse error', 'not-found', PORTS, { ok: false, error: 'strconv.Atoi: parsing "not-found": invalid syntax' }],
  ['N2: a name declared on no port of an empty list is a parse error', 'http', [], { ok: false, error: 'strconv.Atoi: parsing "http": invalid syntax' }],
  ['N2: "-1" parses and fails N1', '-1', [], { ok: false, error: 'invalid port number: -1' }],
  ['N2: "0" parses and fails N1', '0', [], { ok: false, error: 'invalid port number: 0' }],
  ['N2: "65536" parses and fails N1', '65536', [], { ok: false, error: 'invalid port number: 65536' }],
];

for (const [name, port, ports, expected] of RESOLVE_TABLE) {
  test(name, () => {
    const actual = resolveContainerPort(port, { ports });
    assert.equal(actual.ok, expected.ok, JSON.stringify(actual));
    if (expected.ok && actual.ok) assert.equal(actual.port, expected.port);
    if (!expected.ok && !actual.ok) assert.equal(actual.error, expected.error);
  });
}

test('N2: an empty string is an error', () => {
  const actual = resolveContainerPort('', { ports: PORTS });
  assert.equal(actual.ok, false);
  assert.ok(!actual.ok && actual.error.length > 0);
});

test('N2: the name lookup wins over parsing (a port named like a number is looked up first)', () => {
  // Only the kubelet's order is being tested here; the API server would reject such a name (P06).
  const actual = resolveContainerPort('118', { ports: [{ name: '118', containerPort: 7000 }] });
  assert.deepEqual(actual.ok && actual.port, 7000);
});

test('N2: container without a ports field resolves numbers and fails names', () => {
  assert.deepEqual(resolveContainerPort('80', {}).ok, true);
  assert.deepEqual(resolveContainerPort('web', {}), { ok: false, error: 'strconv.Atoi: parsing "web": invalid syntax' });
});

test('N3: an unresolvable port makes the probe a prober error: L01 for the kubelet-only case', () => {
  // The named-port case of N3 as the checker reports it (the numeric range is P05's).
  const yaml = podWith(`ports:\n  - {name: http, containerPort: 8080}\nlivenessProbe:\n  httpGet: {path: /, port: not-found}`);
  assert.equal(findingsOf('L01', yaml).length, 1);
});

test('L04: a quoted number outside 1–65535 gets no unquote fix (it would only become a P05)', () => {
  const [finding] = findingsOf('L04', podWith(`readinessProbe:\n  httpGet: {port: "70000"}`));
  assert.ok(finding);
  assert.equal(finding.fixes, undefined);
});
