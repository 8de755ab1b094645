import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';
import { applyFix, check, findingsOf, podSpec, podWith, textAt } from '../../helpers/manifests';

/** The liveness exec command of the first container, as YAML parses it. */
function livenessCommand(yaml: string): unknown {
  const pod = parse(yaml) as { spec: { containers: { livenessProbe: { exec: { command: unknown } } }[] } };
  return pod.spec.containers[0]?.livenessProbe.exec.command;
}

const livenessExec = (command: string, extra = '') => podWith(`${extra}livenessProbe:\n  exec:\n    command: ${command}`);

// ---------------------------------------------------------------------------------------------
// L07: httpGet.host / tcpSocket.host (A.6, D.7)
// ---------------------------------------------------------------------------------------------

const L07_FIRES: readonly [string, string, RegExp][] = [
  ['localhost (the node itself)', `httpGet: {path: /, port: 8080, host: localhost}`, /node/],
  ['127.0.0.1 (the node itself)', `httpGet: {path: /, port: 8080, host: 127.0.0.1}`, /node/],
  ['a Service name', `httpGet: {path: /, port: 8080, host: my-svc}`, /Service/],
  ['a fully qualified Service name', `httpGet: {path: /, port: 8080, host: my-svc.ns.svc.cluster.local}`, /Service/],
  ['another IP', `httpGet: {path: /, port: 8080, host: 10.1.2.3}`, /10\.1\.2\.3/],
  ['a tcpSocket host', `tcpSocket: {port: 5432, host: db.ns.svc}`, /Service/],
];

for (const [name, handler, gist] of L07_FIRES) {
  test(`L07: host set to ${name} is a warning`, () => {
    const yaml = podWith(`readinessProbe:\n  ${handler}`);
    const [finding, ...rest] = findingsOf('L07', yaml);
    assert.equal(rest.length, 0);
    assert.ok(finding);
    assert.equal(finding.severity, 'warning');
    const kind = handler.startsWith('httpGet') ? 'httpGet' : 'tcpSocket';
    assert.equal(finding.path, `spec.containers[0].readinessProbe.${kind}.host`);
    assert.match(finding.message, gist);
    assert.ok(textAt(yaml, finding).length > 0);
  });
}

test('L07: for httpGet the message suggests a Host header instead (docs)', () => {
  const [finding] = findingsOf('L07', podWith(`livenessProbe:\n  httpGet: {path: /, port: 8080, host: my-svc}`));
  assert.match(finding?.message ?? '', /Host header/);
});

test('L07: the range covers the host value', () => {
  const yaml = podWith(`livenessProbe:\n  httpGet:\n    path: /\n    port: 8080\n    host: my-svc.ns.svc.cluster.local`);
  const [finding] = findingsOf('L07', yaml);
  assert.equal(finding && textAt(yaml, finding), 'my-svc.ns.svc.cluster.local');
});

const L07_SILENT: readonly [string, string][] = [
  ['httpGet without host (the pod IP)', `httpGet: {path: /, port: 8080}`],
  ['tcpSocket without host', `tcpSocket: {port: 8080}`],
  ['an empty host (the pod IP)', `httpGet: {path: /, port: 8080, host: ""}`],
  ['a Host header instead of host', `httpGet:\n    path: /\n    port: 8080\n    httpHeaders:\n      - {name: Host, value: my-svc}`],
];

for (const [why, handler] of L07_SILENT) {
  test(`L07: nothing for ${why}`, () => {
    assert.deepEqual(findingsOf('L07', podWith(`livenessProbe:\n  ${handler}`)), []);
  });
}

// MetalLB's speaker, Calico's node, FRR: hostNetwork pods probing their own loopback.
for (const host of ['127.0.0.1', 'localhost', '::1']) {
  test(`L07: nothing for host ${host} in a hostNetwork pod: the node's loopback is the container's`, () => {
    const yaml = podSpec(`hostNetwork: true\ncontainers:\n  - name: speaker\n    image: metallb/speaker\n    livenessProbe:\n      httpGet: {path: /metrics, port: 7472, host: "${host}"}`);
    assert.deepEqual(findingsOf('L07', yaml), []);
    assert.equal(findingsOf('L07', yaml.replace('hostNetwork: true', 'hostNetwork: false')).length, 1, 'without hostNetwork it is the node, not the container');
  });
}

test('L07: a hostNetwork pod probing another machine or a Service name is still a warning', () => {
  const yaml = (host: string) => podSpec(`hostNetwork: true\ncontainers:\n  - name: speaker\n    image: metallb/speaker\n    livenessProbe:\n      tcpSocket: {port: 7472, host: ${host}}`);
  assert.equal(findingsOf('L07', yaml('10.0.0.5')).length, 1);
  assert.equal(findingsOf('L07', yaml('my-svc.ns.svc')).length, 1);
});

// ---------------------------------------------------------------------------------------------
// L09: duplicate Host header / names differing only by case (D.9, H2, H4)
// ---------------------------------------------------------------------------------------------

const headersProbe = (headers: string) => podWith(`livenessProbe:\n  httpGet:\n    path: /\n    port: 8080\n    httpHeaders:\n${headers}`);

test('L09: two Host headers: the second is flagged', () => {
  const yaml = headersProbe(`      - {name: Host, value: a.example.com}\n      - {name: Host, value: b.example.com}`);
  const [finding, ...rest] = findingsOf('L09', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'warning');
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.httpGet.httpHeaders[1].name');
  assert.equal(textAt(yaml, finding), 'Host');
  assert.match(finding.message, /Host/);
});

test('L09: Host and host are two Host headers', () => {
  const yaml = headersProbe(`      - {name: Host, value: a.example.com}\n      - {name: X-Other, value: "1"}\n      - {name: host, value: b.example.com}`);
  assert.deepEqual(
    findingsOf('L09', yaml).map((f) => f.path),
    ['spec.containers[0].livenessProbe.httpGet.httpHeaders[2].name'],
  );
});

test('L09: X-Foo and x-foo are one header once canonicalised', () => {
  const yaml = headersProbe(`      - {name: X-Foo, value: "1"}\n      - {name: x-foo, value: "2"}`);
  const [finding, ...rest] = findingsOf('L09', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.httpGet.httpHeaders[1].name');
  assert.equal(textAt(yaml, finding), 'x-foo');
  assert.match(finding.message, /X-Foo/);
  assert.match(finding.message, /x-foo/);
});

const L09_SILENT: readonly [string, string][] = [
  ['the same name twice with the same case (allowed; values accumulate)', `      - {name: X-Foo, value: "1"}\n      - {name: X-Foo, value: "2"}`],
  ['distinct names', `      - {name: X-Foo, value: "1"}\n      - {name: X-Bar, value: "2"}\n      - {name: Host, value: a.example.com}`],
  ['a single Host header', `      - {name: Host, value: a.example.com}`],
];

for (const [why, headers] of L09_SILENT) {
  test(`L09: nothing for ${why}`, () => {
    const yaml = headersProbe(headers);
    assert.deepEqual(findingsOf('L09', yaml), []);
    assert.deepEqual(findingsOf('P08', yaml), [], 'the API server accepts these too');
  });
}

// ---------------------------------------------------------------------------------------------
// L19: shell syntax without a shell (A.6, D.19, E1, E5)
// ---------------------------------------------------------------------------------------------

test('L19: a whole command line as the only element is an error; the fix wraps it in sh -c', () => {
  const yaml = livenessExec(`["cat /tmp/healthy"]`);
  const [finding, ...rest] = findingsOf('L19', yaml);
  assert.equal(rest.length, 0);
  assert.ok(finding);
  assert.equal(finding.severity, 'error');
  assert.equal(finding.path, 'spec.containers[0].livenessProbe.exec.command');
  assert.match(finding.message, /cat \/tmp\/healthy/);
  const fixed = applyFix(yaml, finding);
  assert.deepEqual(livenessCommand(fixed), ['sh', '-c', 'cat /tmp/healthy']);
  assert.deepEqual(findingsOf('L19', fixed), []);
  assert.deepEqual(findingsOf('L20', fixed), []);
});

const L19_WARNS: readonly [string, string, string, string?][] = [
  ['a pipe', `["cat", "/tmp/x", "|", "grep", "ok"]`, 'cat /tmp/x | grep ok'],
  ['&&', `["test", "-f", "/tmp/a", "&&", "test", "-f", "/tmp/b"]`, 'test -f /tmp/a && test -f /tmp/b'],
  ['||', `["test", "-f", "/tmp/a", "||", "exit", "1"]`, 'test -f /tmp/a || exit 1'],
  ['a redirect', `["echo", "ok", ">", "/tmp/x"]`, 'echo ok > /tmp/x'],
  ['$HOME', `["test", "-f", "$HOME/ready"]`, 'test -f $HOME/ready'],
  ['${HOME}', `["test", "-f", "\${HOME}/ready"]`, 'test -f ${HOME}/ready'],
  ['backticks', '["test", "`cat /tmp/pid`", "-gt", "0"]', 'test "`cat /tmp/pid`" -gt 0'],
  ['$(date +%s)', `["test", "$(date +%s)", "-gt", "0"]`, 'test "$(date +%s)" -gt 0'],
  ['$(date) (no env var named date, so E5 leaves it verbatim)', `["echo", "$(date)"]`, 'echo "$(date)"'],
  ['a glob', `["ls", "/tmp/*.ready"]`, 'ls /tmp/*.ready'],
];

for (const [name, command, script] of L19_WARNS) {
  test(`L19: ${name} in a command without a shell is a warning; the fix wraps it in sh -c`, () => {
    const yaml = livenessExec(command);
    const [finding, ...rest] = findingsOf('L19', yaml);
    assert.equal(rest.length, 0, JSON.stringify(rest));
    assert.ok(finding, `L19 for ${command}`);
    assert.equal(finding.severity, 'warning');
    assert.equal(finding.path, 'spec.containers[0].livenessProbe.exec.command');
    const fixed = applyFix(yaml, finding);
    assert.deepEqual(livenessCommand(fixed), ['sh', '-c', script]);
    assert.deepEqual(findingsOf('L19', fixed), []);
  });
}

test('L19: the fix keeps an argument with spaces as one word', () => {
  const yaml = livenessExec(`["grep", "-q", "all good", "/tmp/status", "&&", "true"]`);
  const fixed = applyFix(yaml, findingsOf('L19', yaml)[0]);
  assert.deepEqual(livenessCommand(fixed), ['sh', '-c', "grep -q 'all good' /tmp/status && true"]);
});

test('L19: the fix replaces a block-style list with a valid flow list', () => {
  const yaml = podWith(`livenessProbe:\n  exec:\n    command:\n      - cat\n      - /tmp/x\n      - "|"\n      - grep\n      - ok\n  periodSeconds: 5`);
  const fixed = applyFix(yaml, findingsOf('L19', yaml)[0]);
  assert.deepEqual(livenessCommand(fixed), ['sh', '-c', 'cat /tmp/x | grep ok']);
  const probe = (parse(fixed) as { spec: { containers: { livenessProbe: { periodSeconds: number } }[] } }).spec.containers[0]?.livenessProbe;
  assert.equal(probe?.periodSeconds, 5, 'the rest of the probe is untouched');
  assert.deepEqual(check(fixed).filter((f) => f.severity === 'error'), []);
});

const L19_SILENT: readonly [string, string, string?][] = [
  ['$(MY_VAR) defined in env (Kubernetes expansion, E5)', `["test", "-f", "$(MY_VAR)"]`, `env:\n  - {name: MY_VAR, value: /tmp/ready}\n`],
  ['sh -c with a pipe', `["sh", "-c", "a | b"]`],
  ['/bin/bash -c with a pipe', `["/bin/bash", "-c", "cat /tmp/x | grep ok"]`],
  ['/bin/sh -ec with $HOME', `["/bin/sh", "-ec", "test -f $HOME/ready"]`],
  ['a plain argv', `["cat", "/tmp/healthy"]`],
  ['a single program without spaces', `["/healthcheck"]`],
  ['a program with a flag', `["/bin/grpc_health_probe", "-addr=:8080"]`],
];

for (const [why, command, extra] of L19_SILENT) {
  test(`L19: nothing for ${why}`, () => {
    assert.deepEqual(findingsOf('L19', livenessExec(command, extra)), []);
  });
}

test('L19: silent inside forbidden probes (plain init container)', () => {
  const yaml = podSpec(`initContainers:
  - name: migrate
    image: busybox
    readinessProbe:
      exec: {command: ["cat /tmp/healthy"]}
containers:
  - name: web
    image: nginx`);
  assert.ok(check(yaml).some((f) => f.rule === 'P14'));
  assert.deepEqual(findingsOf('L19', yaml), []);
});

test('L19: silent inside forbidden probes (ephemeral container)', () => {
  const yaml = podSpec(`containers:
  - name: web
    image: nginx
ephemeralContainers:
  - name: debug
    image: busybox
    livenessProbe:
      exec: {command: ["cat", "/tmp/x", "|", "grep", "ok"]}`);
  assert.ok(check(yaml).some((f) => f.rule === 'P16'));
  assert.deepEqual(findingsOf('L19', yaml), []);
});

test('L19: applies to sidecars', () => {
  const yaml = podSpec(`initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always
    startupProbe:
      exec: {command: ["cat /tmp/started"]}
containers:
  - name: web
    image: nginx`);
  assert.deepEqual(
    findingsOf('L19', yaml).map((f) => f.path),
    ['spec.initContainers[0].startupProbe.exec.command'],
  );
});

// ---------------------------------------------------------------------------------------------
// L20: sh -c followed by several arguments (D.20)
// ---------------------------------------------------------------------------------------------

const L20_FIRES: readonly [string, string, readonly string[]][] = [
  ['sh -c echo hi', `["sh", "-c", "echo", "hi"]`, ['sh', '-c', 'echo hi']],
  ['/bin/sh -ec (combined flags end in c)', `["/bin/sh", "-ec", "test", "-f", "/tmp/ready"]`, ['/bin/sh', '-ec', 'test -f /tmp/ready']],
  ['bash -c', `["bash", "-c", "cat", "/tmp/healthy"]`, ['bash', '-c', 'cat /tmp/healthy']],
  ['sh -c -e (an option after -c)', `["sh", "-c", "-e", "grep", "-q", "ok|ready", "/tmp/status"]`, ['sh', '-c', '-e', "grep -q 'ok|ready' /tmp/status"]],
  ['bash -o pipefail -c', `["bash", "-o", "pipefail", "-c", "test", "-f", "/tmp/ready"]`, ['bash', '-o', 'pipefail', '-c', 'test -f /tmp/ready']],
];

for (const [name, command, joined] of L20_FIRES) {
  test(`L20: ${name} with several arguments is a warning; the fix joins the script`, () => {
    const yaml = livenessExec(command);
    const [finding, ...rest] = findingsOf('L20', yaml);
    assert.equal(rest.length, 0);
    assert.ok(finding);
    assert.equal(finding.severity, 'warning');
    assert.equal(finding.path, 'spec.containers[0].livenessProbe.exec.command');
    assert.match(finding.message, /\$0/);
    const fixed = applyFix(yaml, finding);
    assert.deepEqual(livenessCommand(fixed), joined);
    assert.deepEqual(findingsOf('L20', fixed), []);
    assert.deepEqual(findingsOf('L19', yaml), [], 'L19 is not for shells');
  });
}

test('L20: the fix replaces a block-style list with a valid flow list', () => {
  const yaml = podWith(`livenessProbe:\n  exec:\n    command:\n      - sh\n      - -c\n      - echo\n      - hi\n  periodSeconds: 5`);
  const fixed = applyFix(yaml, findingsOf('L20', yaml)[0]);
  assert.deepEqual(livenessCommand(fixed), ['sh', '-c', 'echo hi']);
  const probe = (parse(fixed) as { spec: { containers: { livenessProbe: { periodSeconds: number } }[] } }).spec.containers[0]?.livenessProbe;
  assert.equal(probe?.periodSeconds, 5, 'the rest of the probe is untouched');
});

const L20_SILENT: readonly [string, string][] = [
  ['sh -c with one script', `["sh", "-c", "echo hi"]`],
  ['sh -ec with one script', `["sh", "-ec", "echo hi"]`],
  // The PostgreSQL chart's form: -e after -c is an option, the script is the next argument.
  ['sh -c -e with one script (options may follow -c)', `["/bin/sh", "-c", "-e", "exec pg_isready -U postgres -h 127.0.0.1 -p 5432"]`],
  ['bash -c -- with one script', `["bash", "-c", "--", "echo hi"]`],
  ['sh -o pipefail -c with one script', `["sh", "-o", "pipefail", "-c", "echo hi | cat"]`],
  ['busybox sh -c with one script', `["busybox", "sh", "-c", "echo hi"]`],
  ['a script that reads the arguments after it ($1, "$@")', `["sh", "-c", "test -f \\"$1\\"", "probe", "/tmp/ready"]`],
  ['sh running a script file with arguments', `["sh", "/probe.sh", "--fast", "x"]`],
  ['a non-shell program with -c', `["redis-cli", "-c", "ping", "x"]`],
];

for (const [why, command] of L20_SILENT) {
  test(`L20: nothing for ${why}`, () => {
    assert.deepEqual(findingsOf('L20', livenessExec(command)), []);
  });
}

// ---------------------------------------------------------------------------------------------
// L21: network client without its own timeout under timeoutSeconds 1 (D.21, E4)
// ---------------------------------------------------------------------------------------------

const L21_FIRES: readonly [string, string, string][] = [
  ['curl, default timeoutSeconds', `["curl", "-f", "http://localhost:8080/healthz"]`, ''],
  ['curl inside sh -c', `["sh", "-c", "curl -sf http://localhost:8080/healthz || exit 1"]`, ''],
  ['curl with timeoutSeconds: 0 (defaulted to 1)', `["curl", "-f", "http://localhost:8080/healthz"]`, 'timeoutSeconds: 0\n'],
  ['curl with timeoutSeconds: 1', `["curl", "-f", "http://localhost:8080/healthz"]`, 'timeoutSeconds: 1\n'],
  ['curl with only --connect-timeout (it does not bound a slow answer)', `["curl", "-f", "--connect-timeout", "1", "http://localhost:8080/healthz"]`, ''],
  ['wget without -T', `["wget", "-q", "-O", "-", "http://localhost:8080/healthz"]`, ''],
];

for (const [name, command, timing] of L21_FIRES) {
  test(`L21: ${name} is info`, () => {
    const yaml = podWith(`livenessProbe:\n  ${timing.replace(/\n$/, '\n  ')}exec:\n    command: ${command}`);
    const [finding, ...rest] = findingsOf('L21', yaml);
    assert.equal(rest.length, 0);
    assert.ok(finding, yaml);
    assert.equal(finding.severity, 'info');
    assert.equal(finding.path, 'spec.containers[0].livenessProbe.exec.command');
  });
}

const L21_SILENT: readonly [string, string, string][] = [
  ['curl --max-time 1', `["curl", "-f", "--max-time", "1", "http://localhost:8080/healthz"]`, ''],
  ['curl --max-time=1', `["curl", "-f", "--max-time=1", "http://localhost:8080/healthz"]`, ''],
  ['curl -m 1', `["curl", "-f", "-m", "1", "http://localhost:8080/healthz"]`, ''],
  ['curl with timeoutSeconds: 5', `["curl", "-f", "http://localhost:8080/healthz"]`, 'timeoutSeconds: 5\n'],
  ['wget -T 1', `["wget", "-q", "-T", "1", "-O", "-", "http://localhost:8080/healthz"]`, ''],
  ['no network client', `["cat", "/tmp/healthy"]`, ''],
];

for (const [why, command, timing] of L21_SILENT) {
  test(`L21: nothing for ${why}`, () => {
    const yaml = podWith(`livenessProbe:\n  ${timing.replace(/\n$/, '\n  ')}exec:\n    command: ${command}`);
    assert.deepEqual(findingsOf('L21', yaml), []);
  });
}

test('L21: httpGet probes are not its business', () => {
  assert.deepEqual(findingsOf('L21', podWith(`livenessProbe:\n  httpGet: {path: /curl, port: 8080}`)), []);
});
