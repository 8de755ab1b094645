import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULE_INFO } from '../../src/core/rules/registry';
import { scratchDir } from '../helpers/scratch';

const CLI = 'dist/cli.js';

function cli(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '0', ...options.env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tempFile(name: string, text: string): string {
  const path = join(scratchDir('probe-lens-cli-'), name);
  writeFileSync(path, text);
  return path;
}

const CRONJOB = `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: report
              image: report
              livenessProbe:
                tcpSocket: {port: 8080}
                successThreshold: 3
`;

test('check: exit 0 and a clean summary when there are no errors', () => {
  const { code, stdout, stderr } = cli(['check', 'examples/healthy.yaml']);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /no problems in 1 file/);
});

test('check: exit 1 when errors are found; text groups by file and points at line:column', () => {
  const { code, stdout } = cli(['check', 'examples/web-deployment.yaml']);
  assert.equal(code, 1);
  assert.match(stdout, /^examples\/web-deployment\.yaml\n/);
  // As the editor shows it: plain words naming the container, the API server's exact text under them.
  assert.match(stdout, /\n {2}49:31 +error +P12 +container "metrics": the liveness probe's successThreshold is 2, but liveness needs 1: the API server rejects it\n +API server: spec\.template\.spec\.containers\[1\]\.livenessProbe\.successThreshold: Invalid value: 2: must be 1\n/);
  // A quoted port is one problem (P06, explained by L04), not two.
  assert.match(stdout, /\n {2}39:21 +error +P06 +container "web": readiness port "8080" is a string, so the API server reads it as a port name and rejects it: write 8080 without quotes\n/);
  assert.doesNotMatch(stdout, /L04/);
  assert.match(stdout, /✖ \d+ errors, \d+ warnings, \d+ info in 1 file\n$/);
});

test('check: warnings and infos alone exit 0', () => {
  const file = tempFile('warn.yaml', CRONJOB.replace('successThreshold: 3', 'timeoutSeconds: 15'));
  const { code, stdout } = cli(['check', file]);
  assert.equal(code, 0, stdout);
  assert.match(stdout, /L12/);
});

test('check: exit 2 with a clear message for a missing file, a directory, no file, bad options', () => {
  const cases: [string[], RegExp][] = [
    [['check', 'no/such/file.yaml'], /cannot read no\/such\/file\.yaml: no such file/],
    // A folder is a chart or an overlay, or holds some (a folder of plain manifests is issue 22's).
    [['check', 'examples'], /^probe-lens: examples: neither a Helm chart \(no Chart.yaml\) nor a kustomize overlay \(no kustomization.yaml\), and none within 6 levels below\n$/],
    [['check'], /check needs at least one PATH/],
    [['check', 'examples/healthy.yaml', '--format', 'xml'], /--format must be one of text, json, sarif/],
    [['check', 'examples/healthy.yaml', '--disable', 'P12,NOPE'], /--disable: unknown rule id "NOPE"/],
    [['check', 'examples/healthy.yaml', '--kubernetes-version', '2.0'], /--kubernetes-version: "2\.0" is not supported; give 1\.N or v1\.N with N from 21 to 37, such as 1\.33 \(no patch version\)\n/],
    [['check', 'examples/healthy.yaml', '--expected-startup', 'soon'], /--expected-startup: "soon" is not a duration/],
    [['check', 'examples/healthy.yaml', '--colour'], /Unknown option '--colour'/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ];
  for (const [args, message] of cases) {
    const { code, stdout, stderr } = cli(args);
    assert.equal(code, 2, `${args.join(' ')}: ${stdout}${stderr}`);
    assert.match(stderr, message, args.join(' '));
    assert.equal(stdout, '', `${args.join(' ')} prints nothing on stdout`);
  }
});

test('check -: reads standard input', () => {
  const { code, stdout } = cli(['check', '-', '--format', 'json'], { input: CRONJOB });
  assert.equal(code, 1);
  const report = JSON.parse(stdout);
  assert.equal(report.files[0], '<stdin>');
  assert.equal(report.findings[0].file, '<stdin>');
});

test('check --format json: the design.md §3 finding schema in a versioned envelope', () => {
  const file = tempFile('cron.yaml', `---\n# comment-only document\n---\n${CRONJOB}`);
  const { code, stdout } = cli(['check', file, '--format', 'json']);
  assert.equal(code, 1);
  const report = JSON.parse(stdout);
  assert.equal(report.schemaVersion, 1);
  assert.deepEqual(report.summary, { errors: 1, warnings: 0, infos: 0 });
  assert.deepEqual(report.findings, [
    {
      rule: 'P12',
      severity: 'error',
      kind: 'Invalid',
      message: 'spec.jobTemplate.spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 3: must be 1',
      file,
      doc: 0,
      path: 'spec.jobTemplate.spec.template.spec.containers[0].livenessProbe.successThreshold',
      object: { kind: 'CronJob', name: 'nightly' },
      container: 'report',
      range: { start: { line: 18, character: 34 }, end: { line: 18, character: 35 } },
    },
  ]);
});

const TWO_PODS_LIST = `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: cart, namespace: shop}
    spec:
      containers:
        - name: server
          image: example/cart:1
          livenessProbe: {tcpSocket: {port: 7070}, successThreshold: 3}
  - apiVersion: v1
    kind: Pod
    metadata: {name: ads, namespace: shop}
    spec:
      containers:
        - name: ads-server
          image: example/ads:1
          livenessProbe: {tcpSocket: {port: 9555}, successThreshold: 3}
`;

test('check --format json and sarif: each finding names its object and container, so two alike findings of one file are told apart (a List\'s items each their own)', () => {
  const file = tempFile('list.yaml', TWO_PODS_LIST);
  const json = JSON.parse(cli(['check', file, '--format', 'json']).stdout) as { findings: { rule: string; object?: unknown; container?: string }[] };
  assert.deepEqual(
    json.findings.map((f) => [f.rule, f.object, f.container]),
    [
      ['P12', { kind: 'Pod', name: 'cart', namespace: 'shop' }, 'server'],
      ['P12', { kind: 'Pod', name: 'ads', namespace: 'shop' }, 'ads-server'],
    ],
  );
  // Text names the container too — the second item's own, not the first's.
  assert.match(cli(['check', file]).stdout, /11:\d+ +error +P12 +container "server":[^]*19:\d+ +error +P12 +container "ads-server":/);
  const sarif = JSON.parse(cli(['check', file, '--format', 'sarif']).stdout);
  const results = sarif.runs[0].results as { properties: Record<string, unknown>; locations: { logicalLocations: { fullyQualifiedName: string; kind: string }[] }[] }[];
  assert.deepEqual(results.map((r) => [r.properties['object'], r.properties['namespace'], r.properties['container']]), [['Pod/cart', 'shop', 'server'], ['Pod/ads', 'shop', 'ads-server']]);
  assert.deepEqual(results[1]?.locations[0]?.logicalLocations, [
    { name: 'ads', fullyQualifiedName: 'Pod/ads', kind: 'resource' },
    { fullyQualifiedName: 'spec.containers[0].livenessProbe.successThreshold', kind: 'member' },
  ]);
});

test('check --format json: non-API findings carry no kind', () => {
  const { stdout } = cli(['check', 'examples/web-deployment.yaml', '--format', 'json']);
  const findings = JSON.parse(stdout).findings as { rule: string; kind?: string }[];
  for (const finding of findings) assert.equal('kind' in finding, /^[PD]\d/.test(finding.rule), finding.rule);
});

test('check --disable: turns rules off by id, case-insensitively, repeatable', () => {
  const { code, stdout } = cli(['check', 'examples/web-deployment.yaml', '--format', 'json', '--disable', 'p12,D01', '--disable', 'P14']);
  assert.equal(code, 1);
  const rules = new Set((JSON.parse(stdout).findings as { rule: string }[]).map((f) => f.rule));
  for (const off of ['P12', 'D01', 'P14']) assert.ok(!rules.has(off), off);
  assert.ok(rules.has('P05'));
});

test('check --format sarif: SARIF 2.1.0 with every rule, relative locations and 1-based regions', () => {
  const { code, stdout } = cli(['check', 'examples/web-deployment.yaml', '--format', 'sarif']);
  assert.equal(code, 1);
  const log = JSON.parse(stdout);
  assert.equal(log.version, '2.1.0');
  assert.match(log.$schema, /sarif-2\.1\.0/);
  const run = log.runs[0];
  assert.equal(run.tool.driver.name, 'probe-lens');
  assert.deepEqual(run.tool.driver.rules.map((r: { id: string }) => r.id), Array.from(RULE_INFO.keys()));
  const p12 = run.results.find((r: { ruleId: string }) => r.ruleId === 'P12');
  assert.equal(run.tool.driver.rules[p12.ruleIndex].id, 'P12');
  assert.equal(p12.level, 'error');
  assert.deepEqual(p12.locations[0].physicalLocation.artifactLocation, { uri: 'examples/web-deployment.yaml', uriBaseId: 'SRCROOT' });
  assert.deepEqual(p12.locations[0].physicalLocation.region, { startLine: 49, startColumn: 31, endLine: 49, endColumn: 32 });
  const levels = new Set(run.results.map((r: { level: string }) => r.level));
  assert.deepEqual([...levels].sort(), ['error', 'note', 'warning']);
});

test('check: several files in one run, each grouped under its name', () => {
  const { code, stdout } = cli(['check', 'examples/healthy.yaml', 'examples/web-deployment.yaml']);
  assert.equal(code, 1);
  assert.doesNotMatch(stdout, /examples\/healthy\.yaml/);
  assert.match(stdout, /in 2 files\n$/);
});

test('check --kubernetes-version: fields are judged for that version', () => {
  const grpc = `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: c\n      image: i\n      readinessProbe:\n        grpc: {port: 9090}\n`;
  const file = tempFile('grpc.yaml', grpc);
  assert.doesNotMatch(cli(['check', file]).stdout, /L26|D01/);
  assert.match(cli(['check', file, '--kubernetes-version', 'v1.23']).stdout, /L26 .*gRPC probes are alpha/);
  assert.match(cli(['check', file, '--kubernetes-version', '1.22']).stdout, /D01 .*unknown field .*grpc.*added in Kubernetes 1\.23/);
});

test('check: colour only when asked (FORCE_COLOR) or on a terminal', () => {
  assert.doesNotMatch(cli(['check', 'examples/web-deployment.yaml']).stdout, /\x1b\[/);
  assert.match(cli(['check', 'examples/web-deployment.yaml'], { env: { FORCE_COLOR: '1' } }).stdout, /\x1b\[31merror/);
});

test('rules: lists every rule; --help and --version answer', () => {
  const { code, stdout } = cli(['rules']);
  assert.equal(code, 0);
  assert.equal(stdout.trim().split('\n').length, RULE_INFO.size);
  assert.match(cli(['--help']).stdout, /probe-lens check PATH/);
  assert.match(cli(['--version']).stdout, /^\d+\.\d+\.\d+/);
});

test('a reader that goes away early (| head) ends the output quietly, not with an EPIPE crash', () => {
  const dir = scratchDir('probe-lens-epipe-');
  const file = join(dir, 'many.yaml');
  const pod = (i: number) => `apiVersion: v1\nkind: Pod\nmetadata: {name: p${i}}\nspec:\n  containers:\n    - name: c\n      image: x\n      livenessProbe: {httpGet: {port: "80"}, successThreshold: 2}\n`;
  writeFileSync(file, Array.from({ length: 3000 }, (_, i) => pod(i)).join('---\n'));
  const result = spawnSync('sh', ['-c', `"${process.execPath}" ${CLI} check "${file}" | head -c 100 >/dev/null`], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0);
  assert.doesNotMatch(result.stderr, /EPIPE|Unhandled/);
});

test('a simulation whose reader goes away stops instead of running to --for', () => {
  const started = Date.now();
  const result = spawnSync('sh', ['-c', `"${process.execPath}" ${CLI} simulate examples/web-deployment.yaml --for 1000h --format jsonl | head -n 3 >/dev/null`], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0);
  assert.doesNotMatch(result.stderr, /EPIPE|Unhandled/);
  assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
});
