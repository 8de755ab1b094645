/**
 * `probe-lens recommend FILE --from RECORDING.jsonl [--format patch|json]` (docs/design.md §3, issue 12
 * §2) against the real binary: a recording made by `probe-lens simulate`, a patch that the real
 * `patch -p1` and `git apply` take, the manifest it leaves checked and simulated again; the JSON
 * shape; too little data; bad input (exit 2).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli';
import { scratchDir } from '../helpers/scratch';

const cli = (args: readonly string[], cwd: string) => runCli(args, { cwd });

function run(command: string, args: readonly string[], cwd: string, input?: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
        - name: api
          image: example/api:1.0
          ports:
            - name: http
              containerPort: 8080
          readinessProbe:
            httpGet: {path: /ready, port: http}
            periodSeconds: 5
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
`;

/**
 * The same, with what the recording below calls for: 2 s timeouts (p99 700 ms) and a startupProbe
 * of 8 × 10 s (readiness first answers 47.1 s after the start: its attempt at 46.4 s takes 0.7 s).
 */
const RECOMMENDED = DEPLOYMENT.replace('            periodSeconds: 5\n', '            periodSeconds: 5\n            timeoutSeconds: 2\n').replace(
  '            periodSeconds: 10\n',
  '            periodSeconds: 10\n            timeoutSeconds: 2\n          startupProbe:\n            httpGet:\n              path: /healthz\n              port: http\n            failureThreshold: 8\n            periodSeconds: 10\n            timeoutSeconds: 2\n',
);

const SLOW_START = 'containers:\n  api:\n    readyAfter: 45\n    latency: 0.7\n';

/** A folder with the manifest and a 1 h recording of a slow-starting, slow-answering app made by `probe-lens simulate`. */
function recorded(manifest = DEPLOYMENT, scenario = SLOW_START, duration = '1h'): string {
  const dir = scratchDir('probe-lens-recommend-');
  writeFileSync(join(dir, 'api.yaml'), manifest);
  writeFileSync(join(dir, 'slow.scenario.yaml'), scenario);
  const simulated = cli(['simulate', 'api.yaml', '--scenario', 'slow.scenario.yaml', '--for', duration, '--format', 'jsonl'], dir);
  assert.equal(simulated.code, 0, simulated.stderr);
  writeFileSync(join(dir, 'rec.jsonl'), simulated.stdout);
  return dir;
}

test('patch: the reasoning as # lines, then a unified diff that patch -p1 and git apply take; the result checks clean and no longer restarts', () => {
  const dir = recorded();
  const result = cli(['recommend', 'api.yaml', '--from', 'rec.jsonl'], dir);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  const [comments, diff] = [result.stdout.slice(0, result.stdout.indexOf('--- a/')), result.stdout.slice(result.stdout.indexOf('--- a/'))];
  for (const line of comments.trimEnd().split('\n')) assert.match(line, /^#( |$)/);
  assert.match(comments, /^# probe-lens recommend: measured 2 probes of 1 container, \d+ attempts over /);
  assert.match(comments, /\n# api\/api livenessProbe\.timeoutSeconds: 1 → 2\n#   why: p99 700 ms over \d+ answered attempts/);
  assert.match(comments, /\n# api\/api startupProbe added: failureThreshold 8, periodSeconds 10, timeoutSeconds 2\n#   why: the slowest start-up seen took 47.1 s to the first success \(readinessProbe, \d+ instances\)/);
  assert.match(comments, /#   changes: adds a startupProbe with the livenessProbe's handler \(8 × 10 s\): the app gets 80 s to start instead of the 30 s liveness allows/);
  assert.match(diff, /^--- a\/api\.yaml\n\+\+\+ b\/api\.yaml\n@@ /);

  for (const tool of ['patch', 'git'] as const) {
    const copy = join(dir, tool);
    mkdirSync(copy);
    copyFileSync(join(dir, 'api.yaml'), join(copy, 'api.yaml'));
    const applied = tool === 'patch' ? run('patch', ['-p1', '--batch'], copy, result.stdout) : run('git', ['apply', '--verbose', '-'], copy, result.stdout);
    assert.equal(applied.code, 0, `${tool}: ${applied.stdout}${applied.stderr}`);
    assert.equal(readFileSync(join(copy, 'api.yaml'), 'utf8'), RECOMMENDED, tool);
  }
  const checked = cli(['check', 'patch/api.yaml', '--format', 'json'], dir);
  assert.equal(checked.code, 0, checked.stdout);
  assert.deepEqual(JSON.parse(checked.stdout).findings, []);
  // "What it changes" holds: the same app, replayed against the patched manifest, is never killed.
  const replayed = cli(['simulate', 'patch/api.yaml', '--scenario', 'slow.scenario.yaml', '--for', '1h', '--format', 'jsonl'], dir);
  const kills = replayed.stdout.split('\n').filter((line) => line.includes('"reason":"Killing"'));
  assert.deepEqual(kills, []);
  const before = cli(['simulate', 'api.yaml', '--scenario', 'slow.scenario.yaml', '--for', '1h', '--format', 'jsonl'], dir);
  assert.ok(before.stdout.includes('"reason":"Killing"'), 'as written, liveness kills the slow start');
});

test('json: {schemaVersion, measurements, recommendations[{pod, container, probe, field, from, to, reason, changes}], notEnoughData, …} and nothing else on stdout', () => {
  const dir = recorded();
  const result = cli(['recommend', 'api.yaml', '--from', 'rec.jsonl', '--format', 'json'], dir);
  assert.equal(result.code, 0, result.stderr);
  const body = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(body), ['schemaVersion', 'measurements', 'recommendations', 'notEnoughData', 'dropped', 'unmatched']);
  assert.equal(body.schemaVersion, 1);
  assert.deepEqual(
    body.measurements.map((m: Record<string, unknown>) => [m.pod, m.container, m.probe]),
    [
      ['api', 'api', 'readiness'],
      ['api', 'api', 'liveness'],
    ],
  );
  const liveness = body.measurements[1];
  assert.deepEqual(Object.keys(liveness), ['pod', 'container', 'probe', 'config', 'attempts', 'proberErrors', 'paused', 'latency', 'timeouts', 'timeoutsAfterStart', 'startup', 'failuresAfterStart', 'bursts', 'longestBurst', 'attemptsAfterStart', 'instances', 'span', 'kills']);
  assert.deepEqual([liveness.latency.p50Ms, liveness.latency.p99Ms, liveness.latency.maxMs], [700, 700, 700]);
  for (const r of body.recommendations) assert.deepEqual(Object.keys(r), ['pod', 'container', 'probe', 'field', 'from', 'to', 'reason', 'changes']);
  assert.deepEqual(
    body.recommendations.map((r: Record<string, unknown>) => [r.probe, r.field, r.from, r.to]),
    [
      ['liveness', 'timeoutSeconds', 1, 2],
      ['readiness', 'timeoutSeconds', 1, 2],
      ['startup', 'startupProbe', null, { failureThreshold: 8, periodSeconds: 10, timeoutSeconds: 2 }],
    ],
  );
  assert.deepEqual(body.notEnoughData, []);
});

test('too little data: exit 0, no patch, and stderr says there is none and why', () => {
  const dir = recorded(DEPLOYMENT, 'containers:\n  api:\n    readyAfter: 0\n', '60s');
  const patch = cli(['recommend', 'api.yaml', '--from', 'rec.jsonl'], dir);
  assert.equal(patch.code, 0, patch.stderr);
  assert.equal(patch.stdout, '');
  assert.match(patch.stderr, /^probe-lens: no recommendations for api\.yaml \(measured 2 probes of 1 container, \d+ attempts over 60 s \(t = 0 s to 60 s\)\): some figures rest on too little data\n/);
  assert.match(patch.stderr, /\nprobe-lens: not enough data: api\/api livenessProbe \(latency\): \d answered attempts: a p99 needs at least 20\n/);
  const json = cli(['recommend', 'api.yaml', '--from', 'rec.jsonl', '--format', 'json'], dir);
  assert.equal(json.code, 0);
  const body = JSON.parse(json.stdout);
  assert.deepEqual(body.recommendations, []);
  assert.deepEqual(
    body.notEnoughData.map((n: Record<string, unknown>) => [n.probe, n.figure]),
    [
      ['liveness', 'latency'],
      ['readiness', 'latency'],
    ],
  );
});

test('recording pods the manifest does not have are noted on stderr; a recording of another manifest is bad input', () => {
  const dir = recorded();
  const other = DEPLOYMENT.replace('name: api\nspec', 'name: web\nspec');
  writeFileSync(join(dir, 'web.yaml'), other);
  const wrong = cli(['recommend', 'web.yaml', '--from', 'rec.jsonl'], dir);
  assert.equal(wrong.code, 2);
  assert.equal(wrong.stdout, '');
  assert.match(wrong.stderr, /probe-lens: note: rec\.jsonl: pod "api" is not in the manifest \(its pods: web\)\n/);
  assert.match(wrong.stderr, /probe-lens: rec\.jsonl: none of its pods and containers are in web\.yaml: was it recorded from another manifest\?/);
  // Both pods in the file: the recorded one gets its values, the other a note for what it lacks.
  writeFileSync(join(dir, 'both.yaml'), `${DEPLOYMENT}---\n${other}`);
  const stray = `${readFileSync(join(dir, 'rec.jsonl'), 'utf8')}${JSON.stringify({ type: 'attempt', t: 3600, pod: 'db', container: 'pg', probe: 'liveness', containerId: 'sim://db/pg/0', outcome: 'success', output: '', durationMs: 1 })}\n`;
  writeFileSync(join(dir, 'stray.jsonl'), stray);
  const both = cli(['recommend', 'both.yaml', '--from', 'stray.jsonl'], dir);
  assert.equal(both.code, 0, both.stderr);
  assert.equal(both.stderr, 'probe-lens: note: stray.jsonl: pod "db" is not in the manifest (its pods: api, web)\n');
  assert.match(both.stdout, /--- a\/both\.yaml/);
});

test('bad input is exit 2 with a message on stderr and nothing on stdout', () => {
  const dir = recorded(DEPLOYMENT, SLOW_START, '10m');
  writeFileSync(join(dir, 'notes.txt'), 'hello\n');
  writeFileSync(join(dir, 'broken.yaml'), 'kind: Pod\nspec: {containers: [\n');
  writeFileSync(join(dir, 'noprobes.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: api}\nspec:\n  containers: [{name: api, image: x}]\n');
  const cases: readonly [args: readonly string[], message: RegExp][] = [
    [['recommend', 'api.yaml'], /recommend needs --from RECORDING\.jsonl/],
    [['recommend', '--from', 'rec.jsonl'], /recommend needs exactly one FILE/],
    [['recommend', 'api.yaml', '--from', 'rec.jsonl', '--format', 'yaml'], /--format must be patch or json, not "yaml"/],
    [['recommend', 'missing.yaml', '--from', 'rec.jsonl'], /cannot read missing\.yaml: no such file/],
    [['recommend', 'api.yaml', '--from', 'missing.jsonl'], /cannot read recording missing\.jsonl: no such file/],
    [['recommend', 'api.yaml', '--from', 'notes.txt'], /^probe-lens: notes\.txt is not a Probe Lens recording: line 1: not JSON: /],
    [['recommend', 'broken.yaml', '--from', 'rec.jsonl'], /^probe-lens: broken\.yaml:\d+:\d+: /],
    [['recommend', 'noprobes.yaml', '--from', 'rec.jsonl'], /noprobes\.yaml: no container with a probe to recommend values for/],
    [['recommend', '-', '--from', 'rec.jsonl'], /recommend needs FILE as a file: the patch names it/],
    [['recommend', 'api.yaml', '--from', 'rec.jsonl', '--kubernetes-version', '2.0'], /--kubernetes-version: "2\.0" is not supported/],
  ];
  for (const [args, message] of cases) {
    const result = cli(args, dir);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(result.stdout, '', args.join(' '));
    assert.match(result.stderr, message, args.join(' '));
  }
});

test('FILE outside the working directory keeps its path in the diff; --help describes the command', () => {
  const dir = recorded();
  const elsewhere = scratchDir('probe-lens-recommend-cwd-');
  const result = cli(['recommend', join(dir, 'api.yaml'), '--from', join(dir, 'rec.jsonl')], elsewhere);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(result.stdout.includes(`--- a/${join(dir, 'api.yaml')}\n`));
  const help = cli(['recommend', '--help'], dir);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: probe-lens recommend FILE --from RECORDING\.jsonl/);
});
