import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseManifest } from '../../src/core/manifest';
import { parseScenario } from '../../src/core/scenario/parse';
import { simulate } from '../../src/core/targets/simulation';
import { runCli, spawnCli } from '../helpers/cli';
import { startHttpServer } from '../helpers/httpServers';
import { scratchDir } from '../helpers/scratch';

// "The CLI, tried with bad input": each case as a user meets it, through the built CLI.

function tempFile(name: string, content: string | Uint8Array): string {
  const path = join(scratchDir('probe-lens-bad-input-'), name);
  writeFileSync(path, content);
  return path;
}

/** A Pod on one line, so that its P12 finding is on the first line, where a byte-order mark is. */
const ONE_LINE_POD = '{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i, livenessProbe: {tcpSocket: {port: 80}, successThreshold: 3}}]}}\n';

const POD = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: web
      image: web
      readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5}
`;

function utf16(text: string, endian: 'le' | 'be'): Buffer {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return endian === 'le' ? le : Buffer.from(le).swap16();
}

function findings(stdout: string): { rule: string; range: unknown }[] {
  return (JSON.parse(stdout) as { findings: { rule: string; range: unknown }[] }).findings.map(({ rule, range }) => ({ rule, range }));
}

// --- files that are not text -------------------------------------------------------------------

test('check: a binary (NUL bytes) is "not a text file", exit 2, nothing on stdout', () => {
  const { code, stdout, stderr } = runCli(['check', process.execPath]);
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.equal(stderr, `probe-lens: cannot read ${process.execPath}: not a text file (it contains NUL bytes)\n`);
});

test('check: invalid UTF-8 (a Latin-1 "é") is "not a text file", exit 2; so is UTF-16 without a byte-order mark', () => {
  const latin1 = tempFile('latin1.yaml', Buffer.from(`# caf\xe9\n${POD}`, 'latin1'));
  const result = runCli(['check', latin1]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, `probe-lens: cannot read ${latin1}: not a text file (not valid UTF-8)\n`);
  const unmarked = tempFile('utf16.yaml', Buffer.from(POD, 'utf16le'));
  assert.match(runCli(['check', unmarked]).stderr, /not a text file \(it contains NUL bytes\)/);
});

test('check: a UTF-8 byte-order mark is dropped, so first-line columns are the editor\'s', () => {
  const plain = runCli(['check', tempFile('plain.yaml', ONE_LINE_POD), '--format', 'json']);
  const marked = runCli(['check', tempFile('bom.yaml', `\ufeff${ONE_LINE_POD}`), '--format', 'json']);
  assert.equal(plain.code, 1);
  assert.equal(marked.code, 1, marked.stderr);
  assert.deepEqual(findings(marked.stdout), findings(plain.stdout));
  assert.ok(findings(plain.stdout).some((f) => f.rule === 'P12'));
});

test('check: UTF-16 with a byte-order mark (what PowerShell writes) is read as kubectl reads it', () => {
  const plain = runCli(['check', tempFile('plain.yaml', ONE_LINE_POD), '--format', 'json']);
  for (const endian of ['le', 'be'] as const) {
    const result = runCli(['check', tempFile(`utf16${endian}.yaml`, utf16(ONE_LINE_POD, endian)), '--format', 'json']);
    assert.equal(result.code, 1, `${endian}: ${result.stderr}`);
    assert.deepEqual(findings(result.stdout), findings(plain.stdout), endian);
  }
});

test('check -: standard input that is not text is refused the same way', () => {
  const { code, stdout, stderr } = runCli(['check', '-'], { input: Buffer.from([0x6b, 0x69, 0x6e, 0x64, 0x00, 0x01]) });
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.equal(stderr, 'probe-lens: cannot read standard input: not a text file (it contains NUL bytes)\n');
});

// --- several files, some unreadable --------------------------------------------------------------

test('check a.yaml missing.yaml b.yaml: the readable files are checked, each unreadable one reported, exit 2 at the end', () => {
  const missing = join(scratchDir('probe-lens-missing-'), 'missing.yaml');
  const args = ['check', 'examples/healthy.yaml', missing, 'examples/web-deployment.yaml', process.execPath];
  const text = runCli(args);
  assert.equal(text.code, 2, 'an unreadable file wins over the errors found (1)');
  assert.equal(text.stderr, `probe-lens: cannot read ${missing}: no such file\nprobe-lens: cannot read ${process.execPath}: not a text file (it contains NUL bytes)\n`);
  assert.match(text.stdout, /^examples\/web-deployment\.yaml\n/m);
  assert.match(text.stdout, /✖ \d+ errors, \d+ warnings, \d+ info in 2 files\n$/);

  const json = runCli([...args, '--format', 'json']);
  assert.equal(json.code, 2);
  const report = JSON.parse(json.stdout) as { files: string[]; findings: { file: string }[] };
  assert.deepEqual(report.files, ['examples/healthy.yaml', 'examples/web-deployment.yaml']);
  assert.ok(report.findings.some((f) => f.file === 'examples/web-deployment.yaml'));

  const sarif = runCli([...args, '--format', 'sarif']);
  assert.equal(sarif.code, 2);
  const uris = new Set((JSON.parse(sarif.stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }).runs[0]?.results.map((r) => r.locations[0]?.physicalLocation.artifactLocation.uri));
  assert.deepEqual([...uris], ['examples/web-deployment.yaml']);
});

test('check: when no file can be read, stdout stays empty (exit 2)', () => {
  for (const format of ['text', 'json', 'sarif']) {
    const { code, stdout, stderr } = runCli(['check', 'no/such/a.yaml', 'no/such/b.yaml', '--format', format]);
    assert.equal(code, 2, format);
    assert.equal(stdout, '', format);
    assert.equal(stderr.split('\n').filter(Boolean).length, 2, format);
  }
});

// --- usage ---------------------------------------------------------------------------------------

test('probe-lens with no arguments: the usage on stderr, nothing on stdout, exit 2; --help on stdout, exit 0', () => {
  const bare = runCli([]);
  assert.equal(bare.code, 2);
  assert.equal(bare.stdout, '');
  assert.match(bare.stderr, /^Usage:\n {2}probe-lens check PATH/);
  const help = runCli(['--help']);
  assert.equal(help.code, 0);
  assert.equal(help.stderr, '');
  assert.match(help.stdout, /^Usage:\n/);
});

test('every command answers --help (and -h) with its own usage on stdout, exit 0, whatever else is on the line', () => {
  for (const command of ['check', 'probe', 'simulate', 'run', 'rules']) {
    for (const flag of ['--help', '-h']) {
      const help = runCli([command, flag, '--target', 'cluster']);
      assert.equal(help.code, 0, `${command} ${flag}: ${help.stderr}`);
      assert.equal(help.stderr, '');
      assert.match(help.stdout, new RegExp(`^Usage: probe-lens ${command}\\b`));
    }
  }
  assert.match(runCli(['run', '--help']).stdout, /--context C[\s\S]*--all-pods/);
});

// --- Ctrl-C ------------------------------------------------------------------------------------

test('simulate interrupted by Ctrl-C ends as run does: the summary so far, exit 0', async () => {
  const manifest = tempFile('pod.yaml', POD);
  const started = Date.now();
  const { code, stdout, stderr } = await spawnCli(['simulate', manifest, '--for', '100000h'], { interruptAfterMs: 1500 });
  assert.equal(code, 0, stderr);
  assert.match(stdout, /\n {2}web\/web {2}running · started · ready · restarts 0\n {4}readiness +Success /);
  assert.ok(Date.now() - started < 20_000, `stopped ${Date.now() - started} ms after the start`);
});

test('simulate: played in steps to hear Ctrl-C, the run is the one simulate() plays in one go', () => {
  // Kills, back-off and jittered starts, so that events fall on and across the steps' edges.
  const pod = POD.replace('      readinessProbe:', '      livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 3, failureThreshold: 2}\n      readinessProbe:');
  const scenario = 'containers:\n  web:\n    readyAfter: 40\n    failAfter: 1300\nkubelet: {startedAgo: 1}\n';
  const { code, stdout, stderr } = runCli(['simulate', tempFile('pod.yaml', pod), '--scenario', tempFile('scenario.yaml', scenario), '--for', '3h', '--seed', '4', '--format', 'jsonl']);
  assert.equal(code, 0, stderr);
  const parsed = parseScenario(scenario);
  assert.ok(parsed.ok);
  const expected: string[] = [];
  simulate(parseManifest(pod), { scenario: parsed.scenario, durationSeconds: 3 * 3600, seed: 4, emit: (event) => expected.push(JSON.stringify(event)) });
  assert.ok(expected.some((line) => line.includes('"reason":"Killing"')), 'the run has kills');
  assert.deepEqual(stdout.trim().split('\n').slice(1), expected);
});

// --- option values -----------------------------------------------------------------------------

test('--for and --expected-startup need a unit: "10" is refused with the accepted forms', () => {
  const manifest = tempFile('pod.yaml', POD);
  const cases: [string[], string][] = [
    [['simulate', manifest, '--for', '10'], 'probe-lens: --for: "10" has no unit: give 10s, 10m or 10h (units: ms, s, m, h)\n'],
    [['run', manifest, '--for', '2.5'], 'probe-lens: --for: "2.5" has no unit: give 2.5s, 2.5m or 2.5h (units: ms, s, m, h)\n'],
    [['check', manifest, '--expected-startup', '60'], 'probe-lens: --expected-startup: "60" has no unit: give 60s, 60m or 60h (units: ms, s, m, h)\n'],
    [['simulate', manifest, '--for', 'ten'], 'probe-lens: --for: "ten" is not a duration: give a number and a unit, ms, s, m or h (90s, 10m, 2h)\n'],
  ];
  for (const [args, message] of cases) {
    const { code, stdout, stderr } = runCli(args);
    assert.equal(code, 2, args.join(' '));
    assert.equal(stdout, '', args.join(' '));
    assert.equal(stderr, message);
  }
});

test('--kubernetes-version: only 1.N or v1.N with a minor version the rules know (1.21–1.37); the message lists the forms', () => {
  const manifest = tempFile('pod.yaml', POD);
  for (const version of ['1.0', '1.33.2', 'v1.33.2', '1.20', '1.38', '2.0', '1.033', 'latest']) {
    for (const command of [['check', manifest], ['simulate', manifest, '--for', '1m'], ['probe', '--spec', '{"tcpSocket":{"port":1}}']]) {
      const { code, stdout, stderr } = runCli([...command, '--kubernetes-version', version]);
      assert.equal(code, 2, `${command[0]} ${version}`);
      assert.equal(stdout, '');
      assert.equal(stderr, `probe-lens: --kubernetes-version: "${version}" is not supported; give 1.N or v1.N with N from 21 to 37, such as 1.33 (no patch version)\n`);
    }
  }
  for (const version of ['1.21', 'v1.37', '1.33']) assert.equal(runCli(['check', manifest, '--kubernetes-version', version]).code, 0, version);
});

// --- probe --spec --------------------------------------------------------------------------------

test('probe --spec with two handlers is refused as the API server refuses it (P02), nothing run', () => {
  const { code, stdout, stderr } = runCli(['probe', '--spec', '{"exec":{"command":["true"]},"httpGet":{"port":1},"tcpSocket":{"port":1}}']);
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.equal(stderr, 'probe-lens: --spec: httpGet: Forbidden: may not specify more than 1 handler type\n--spec: tcpSocket: Forbidden: may not specify more than 1 handler type\n');
});

test('probe --spec with no handler is refused as the API server refuses it (P01), nothing run', () => {
  const { code, stdout, stderr } = runCli(['probe', '--spec', '{"periodSeconds": 5}']);
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.equal(stderr, 'probe-lens: --spec: readinessProbe: Required value: must specify a handler type\n');
});

test('probe --spec: a JSON syntax error is reported in JSON\'s words, with its line and column', () => {
  const inline = runCli(['probe', '--spec', '{"httpGet": {"port": 8080}']);
  assert.equal(inline.code, 2);
  assert.equal(inline.stdout, '');
  assert.equal(inline.stderr, 'probe-lens: --spec: not valid JSON: Expected \',\' or \'}\' after property value in JSON at position 26 (line 1, column 27)\n');
  const file = tempFile('probe.json', '{\n  "tcpSocket": {"port": 80}\n  "periodSeconds": 5\n}\n');
  const fromFile = runCli(['probe', '--spec', `@${file}`]);
  assert.equal(fromFile.code, 2);
  assert.match(fromFile.stderr, new RegExp(`^probe-lens: --spec @${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON: .* \\(line 3, column 3\\)\\n$`));
  // YAML that is not JSON is still taken, and still reported in YAML's words.
  assert.equal(runCli(['probe', '--spec', '{tcpSocket: {port: 1}}']).code, 1);
  assert.match(runCli(['probe', '--spec', 'tcpSocket: {port: [}']).stderr, /^probe-lens: --spec: not valid YAML: /);
});

test('probe: durationMs times the attempt, not the loading of the HTTP prober', async () => {
  // The prober's load is made slow on purpose: before the fix, durationMs would include it.
  const hook = tempFile(
    'slow-prober.js',
    `const Module = require('module'); const load = Module._load;
     Module._load = function (request, ...rest) {
       if (/probers[\\\\/]http(\\.js)?$/.test(request)) { const until = Date.now() + 1000; while (Date.now() < until); }
       return load.call(this, request, ...rest);
     };`,
  );
  const app = await startHttpServer((_req, res) => res.end('ok'));
  try {
    const { code, stdout, stderr } = await spawnCli(['probe', '--spec', JSON.stringify({ httpGet: { port: app.port } })], { env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: `--require ${hook}` } });
    assert.equal(code, 0, stderr);
    const answer = JSON.parse(stdout) as { result: string; durationMs: number };
    assert.equal(answer.result, 'success');
    assert.ok(answer.durationMs < 500, `durationMs ${answer.durationMs}`);
  } finally {
    await app.close();
  }
});
