/**
 * `probe-lens explain RECORDING.jsonl` against the built CLI: a recording made by `probe-lens
 * simulate`, explained as text and as JSON, at chosen moments, for chosen containers; every
 * cited line is the line of the file it names; bad input is one sentence and exit 2.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, runCli } from '../helpers/cli';
import { scratchDir } from '../helpers/scratch';

const ENV = { ...process.env, NO_COLOR: '1', TZ: 'UTC' };
const dir = scratchDir('probe-lens-explain-');

const MANIFEST = `apiVersion: v1
kind: Pod
metadata: {name: shop}
spec:
  containers:
    - name: web
      image: nginx
      ports: [{name: http, containerPort: 8080}]
      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 10}
      livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
    - name: api
      image: api
      ports: [{name: http, containerPort: 9090}]
      readinessProbe: {httpGet: {path: /metrics, port: metrics}, periodSeconds: 10}
`;
/** web answers 503 to readiness from 200 s on; api's readiness port is not declared. */
const SCENARIO = `containers:
  web:
    probes:
      readiness: [{from: 0, outcome: success}, {from: 200, outcome: failure}]
`;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A recording, made by the CLI itself: 5 minutes of the manifest against the scenario. */
function recording(name = 'shop.jsonl'): string {
  const made = runCli(['simulate', file('shop.yaml', MANIFEST), '--scenario', file('shop.scenario.yaml', SCENARIO), '--for', '5m', '--format', 'jsonl'], { env: ENV });
  assert.equal(made.code, 0, made.stderr);
  return file(name, made.stdout);
}

function explain(args: readonly string[]) {
  return runCli(['explain', ...args], { env: ENV });
}

/** The file's 1-based line `n`, as an object. */
function lineOf(path: string, n: number): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8').split('\n')[n - 1] as string) as Record<string, unknown>;
}

interface JsonExplanation {
  schemaVersion: number;
  at: number;
  containers: { pod: string; container: string; state: string; sentence: string; causes: { reason: string; text: string; evidence: { line: number; t: number; type: string; summary: string }[] }[] }[];
}

test('text: a paragraph per container, its sentence, its causes with the lines they cite', () => {
  const path = recording();
  const result = explain([path, '--at', '220']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  const text = result.stdout;
  assert.match(text, /^At t\+00:03:40: 2 containers\.\n\nshop\/web — Not Ready\n  Not Ready since t\+00:03:40: readiness failed 3 times in a row \(HTTP 503 at t\+00:03:20, :30, :40; failureThreshold 3\), and once more since\.\n  · readiness-failing: /);
  assert.match(text, /\nshop\/api — Not Ready\n  Never probed: the readiness probe's named port `metrics` is not declared by this container \(prober error, discarded each period\)\.\n/);
  // Each cited line is that line of the file: its type and time.
  const cited = [...text.matchAll(/^ {6}line (\d+) t\+(\d\d):(\d\d):(\d\d) (\w+) (.*)$/gm)];
  assert.ok(cited.length >= 8, text);
  for (const [, n, h, m, s, type, summary] of cited) {
    const line = lineOf(path, Number(n));
    assert.equal(line['type'], type, `line ${n}`);
    assert.equal(Math.floor(line['t'] as number), Number(h) * 3600 + Number(m) * 60 + Number(s), `line ${n}`);
    if (type === 'attempt') assert.ok((summary as string).startsWith(`${line['probe']} ${line['error'] !== undefined ? 'error' : line['outcome']}`), summary);
  }
  assert.ok(cited.some(([, , , , , type, summary]) => type === 'attempt' && summary === 'readiness failure: HTTP probe failed with statuscode: 503'));
});

test('json: the schema, the structured cause chain, and each evidence line is the file\'s', () => {
  const path = recording();
  const result = explain([path, '--format', 'json']);
  assert.equal(result.code, 0, result.stderr);
  const output = JSON.parse(result.stdout) as JsonExplanation;
  assert.equal(output.schemaVersion, 1);
  assert.equal(output.at, 300, 'the end of the recording by default (its header says it played 5 minutes)');
  assert.deepEqual(
    output.containers.map((c) => [c.pod, c.container, c.state, c.causes[0]?.reason]),
    [
      ['shop', 'web', 'not-ready', 'readiness-failing'],
      ['shop', 'api', 'not-ready', 'never-probed-prober-error'],
    ],
  );
  for (const container of output.containers) {
    for (const cause of container.causes) {
      assert.ok(cause.evidence.length > 0);
      for (const evidence of cause.evidence) {
        const line = lineOf(path, evidence.line);
        assert.equal(line['type'], evidence.type);
        assert.equal(line['t'], evidence.t);
        assert.equal(line['container'] ?? container.container, container.container);
        assert.equal(typeof evidence.summary, 'string');
      }
    }
  }
});

test('--at: seconds, a duration, t+hh:mm:ss; on the wall clock a time of day or an ISO time; --pod and --container choose', () => {
  const path = recording();
  const at = (value: string, ...more: string[]) => {
    const result = explain([path, '--at', value, '--format', 'json', ...more]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as JsonExplanation;
  };
  const ready = at('150');
  assert.equal(ready.at, 150);
  assert.match(ready.containers[0]?.sentence ?? '', /^Ready since t\+00:00:00/);
  assert.deepEqual(at('150s'), ready);
  assert.deepEqual(at('2.5m'), ready);
  assert.deepEqual(at('t+00:02:30'), ready);
  assert.equal(at('3m', '--pod', 'shop', '--container', 'web').containers.length, 1);
  assert.deepEqual(at('3m', '--container', 'api').containers.map((c) => c.container), ['api']);
  // The same lines, recorded by a run that began at noon (UTC).
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = { ...(JSON.parse(lines[0] as string) as Record<string, unknown>), mode: 'run', target: 'local', startedAt: '2025-01-01T12:00:00.000Z' };
  const wall = file('wall.jsonl', [JSON.stringify(header), ...lines.slice(1)].join('\n'));
  const byClock = explain([wall, '--at', '12:03:40', '--container', 'web']);
  assert.equal(byClock.code, 0, byClock.stderr);
  assert.match(byClock.stdout, /^At 12:03:40: 1 container\.\n\nshop\/web — Not Ready\n  Not Ready since 12:03:40: readiness failed 3 times in a row \(HTTP 503 at 12:03:20, :30, :40; failureThreshold 3\), and once more since\.\n/);
  const byIso = explain([wall, '--at', '2025-01-01T12:03:40Z', '--container', 'web']);
  assert.equal(byIso.stdout, byClock.stdout);
});

test('a local run (kills only reported): what the kubelet would have done, at the time of day asked', () => {
  const result = explain([join('test', 'fixtures', 'insights', 'slow-start.local.jsonl'), '--at', '23:17:40']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    /^At 23:17:40: 1 container\.\n\nweb\/web — CrashLoopBackOff\n {2}Would have been killed twice: each time liveness failed 3× \(connection refused\) 5–10 s after it started; the kubelet would now wait out back-off \(10 s, until 23:17:46\)\.\n {2}· liveness-restarts: Liveness would have killed it twice \(at 23:17:01, :31\): each time it failed 3× in a row \(connection refused\), reaching its failureThreshold, at which the kubelet kills the container \(K2\); Probe Lens only reported the kills: the process runs on\.\n/,
  );
  assert.match(result.stdout, /\n {2}· back-off: CrashLoopBackOff: .* Here the kills were only reported: the process runs on, and its probes wait out the back-off as the kubelet's would\.\n/);
});

test('bad input: one sentence on stderr, nothing on stdout, exit 2', () => {
  const path = recording();
  const cases: [string[], RegExp][] = [
    [[path, '--pod', 'shpo'], /^probe-lens: no pod "shpo" in .*shop\.jsonl; did you mean "shop"\?\n$/],
    [[path, '--container', 'wbe'], /^probe-lens: no container "wbe" in .*shop\.jsonl; did you mean "web"\?\n$/],
    [[path, '--pod', 'shop', '--container', 'db'], /^probe-lens: no container "db" in pod shop; expected one of web, api\n$/],
    [[path, '--at', '10m'], /^probe-lens: --at 10m is after the recording's end \(t\+00:05:00, t=300 s\)\n$/],
    [[path, '--at', '12:00:00'], /^probe-lens: --at 12:00:00: this recording has no wall-clock start \(a simulation\): give seconds since it began/],
    [[path, '--at', 'soon'], /^probe-lens: --at soon is not a moment: /],
    [[path, '--format', 'yaml'], /^probe-lens: --format must be text or json, not "yaml"\n$/],
    [[file('shop.yaml', MANIFEST)], /^probe-lens: .*shop\.yaml is not a Probe Lens recording: line 1: not JSON: .*\(write one with 'probe-lens simulate\|run FILE --format jsonl'\)\n$/],
    [[file('empty.jsonl', '')], /^probe-lens: .*empty\.jsonl is not a Probe Lens recording: it is empty \(write one with /],
    [[file('header.jsonl', `${readFileSync(path, 'utf8').split('\n')[0]}\n{"type":"attempt","t":1}\n`)], /^probe-lens: .*header\.jsonl is a recording without a single event \(line 2: attempt: field pod is missing\)\n$/],
    [[join(dir, 'missing.jsonl')], /^probe-lens: cannot read recording .*missing\.jsonl: no such file\n$/],
    [[], /^probe-lens: explain needs exactly one RECORDING\.jsonl\n$/],
  ];
  for (const [args, stderr] of cases) {
    const result = explain(args);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, stderr);
  }
});

test('lines that are not events are skipped and said on stderr; the explanation still cites the right lines', () => {
  const path = recording();
  const lines = readFileSync(path, 'utf8').split('\n');
  const edited = file('edited.jsonl', [lines[0], '{"type":"futureLine","t":0}', 'not json', ...lines.slice(1)].join('\n'));
  const result = explain([edited, '--format', 'json', '--container', 'web']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, `probe-lens: note: ${edited}: skipped 2 lines that are not events (line 2: unknown line type "futureLine")\n`);
  const output = JSON.parse(result.stdout) as JsonExplanation;
  for (const evidence of output.containers[0]?.causes.flatMap((c) => c.evidence) ?? []) assert.equal(lineOf(edited, evidence.line)['t'], evidence.t);
});

test('a 50 MB recording: 28 pods for a simulated day, explained in seconds', () => {
  const pods = Array.from({ length: 28 }, (_, i) => MANIFEST.replace('name: shop', `name: shop-${i}`).replace(/    - name: api[\s\S]*$/, '')).join('---\n');
  const path = join(dir, 'day.jsonl');
  const out = openSync(path, 'w');
  const made = spawnSync(process.execPath, [CLI, 'simulate', file('day.yaml', pods), '--scenario', file('day.scenario.yaml', 'containers:\n  web: {readyAfter: 45, failAfter: 3000}\n'), '--for', '24h', '--format', 'jsonl'], { env: ENV, stdio: ['ignore', out, 'pipe'], timeout: 120_000 });
  closeSync(out);
  assert.equal(made.status, 0, `${String(made.stderr)} ${made.signal} ${made.error}`);
  assert.ok(statSync(path).size > 45_000_000, `${statSync(path).size} bytes`);
  const started = performance.now();
  const result = explain([path, '--format', 'json']);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(result.code, 0, result.stderr);
  const output = JSON.parse(result.stdout) as JsonExplanation;
  assert.equal(output.containers.length, 28);
  assert.ok(output.containers.every((c) => c.causes.some((cause) => cause.reason === 'liveness-restarts')));
  assert.ok(seconds < 20, `${seconds.toFixed(1)} s`);
});
