import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, spawnCli } from '../helpers/cli';
import { startHttpServer, type TestServer } from '../helpers/httpServers';
import { scratchDir } from '../helpers/scratch';

function cli(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function file(name: string, text: string): string {
  const path = join(scratchDir('probe-lens-engine-'), name);
  writeFileSync(path, text);
  return path;
}

function lines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** An HTTP server answering `ok` with the status `handler` gives for the request's path. */
function server(handler: (path: string) => number): Promise<TestServer> {
  return startHttpServer((req, res) => {
    res.statusCode = handler(req.url ?? '/');
    res.end('ok');
  });
}

const POD = (probes: string) => `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: web
      image: web
      ports: [{name: http, containerPort: 8080}]
${probes}`;

test('simulate --format jsonl: a versioned header, then design.md §3 events with t in virtual seconds', () => {
  const manifest = file('pod.yaml', POD('      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5}\n'));
  const scenario = file('scenario.yaml', 'containers:\n  web:\n    readyAfter: 12\n');
  const { code, stdout, stderr } = cli(['simulate', manifest, '--scenario', scenario, '--for', '30s', '--format', 'jsonl']);
  assert.equal(code, 0, stderr);
  const [header, ...events] = lines(stdout);
  assert.deepEqual(header, { type: 'run', schemaVersion: 1, t: 0, mode: 'simulate', file: manifest, seed: 1, durationSeconds: 30 });
  const types = new Set(events.map((e) => e.type));
  for (const type of ['attempt', 'result', 'event', 'container', 'status', 'pod']) assert.ok(types.has(type), type);
  let last = 0;
  for (const event of events) {
    assert.ok((event.t as number) >= last, 't never goes back');
    last = event.t as number;
    assert.equal(event.pod, 'web');
  }
  const ready = events.find((e) => e.type === 'result' && e.probe === 'readiness' && e.value === 'Success');
  assert.equal(ready?.t, 15, 'the first attempt at or after 12 s on a 5 s grid');
  const attempt = events.find((e) => e.type === 'attempt');
  assert.deepEqual(Object.keys(attempt ?? {}).sort(), ['container', 'containerId', 'durationMs', 'outcome', 'output', 'pod', 'probe', 't', 'type']);
});

test('simulate: the kubelet\'s event texts for a liveness kill and the back-off that follows', () => {
  const manifest = file('pod.yaml', POD('      livenessProbe: {httpGet: {path: /healthz, port: http}}\n'));
  const scenario = file('scenario.yaml', 'containers:\n  web:\n    readyAfter: 1000\n');
  const { code, stdout } = cli(['simulate', manifest, '--scenario', scenario, '--for', '4m', '--format', 'jsonl']);
  assert.equal(code, 0);
  const events = lines(stdout).filter((e) => e.type === 'event' && e.reason !== 'Unhealthy');
  const killing = events.find((e) => e.reason === 'Killing');
  assert.equal(killing?.message, 'Container web failed liveness probe, will be restarted');
  // The worker starts before the container (AddPod before SyncPod): its first doProbe finds no
  // container, so attempts come at 10, 20, 30 and the third failure kills at d + f × p = 30 s.
  assert.equal(killing?.t, 30);
  const backoff = events.find((e) => e.reason === 'BackOff');
  assert.match(String(backoff?.message), /^Back-off restarting failed container web in pod web_default\([0-9a-f-]{36}\)$/);
  const waiting = lines(stdout).find((e) => e.type === 'container' && e.state === 'waiting');
  assert.equal(waiting?.reason, 'CrashLoopBackOff');
});

test('simulate: the same seed gives the same run; text output ends with each container\'s state', () => {
  const manifest = file('pod.yaml', POD('      readinessProbe: {tcpSocket: {port: 8080}}\n'));
  const scenario = file('scenario.yaml', 'kubelet: {startedAgo: 0}\n');
  const run = (seed: string) => cli(['simulate', manifest, '--scenario', scenario, '--for', '1m', '--seed', seed, '--format', 'jsonl']).stdout;
  assert.equal(run('7'), run('7'));
  assert.notEqual(run('7').replace(/"seed":7/, ''), run('8').replace(/"seed":8/, ''), 'W4: start-up jitter follows the seed');
  const text = cli(['simulate', manifest, '--for', '1m']);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /web\/web {2}running · started · ready · restarts 0\n {4}readiness +Success +✓+ +7\/7 ok/);
});

test('simulate: bad input is exit 2 with a message naming what is wrong', () => {
  const manifest = file('pod.yaml', POD('      readinessProbe: {tcpSocket: {port: 8080}}\n'));
  const cases: [string[], RegExp][] = [
    [['simulate', manifest, '--scenario', file('s.yaml', 'containers:\n  web:\n    readyAfter: soon\n')], /containers\.web\.readyAfter: must be a number of seconds/],
    [['simulate', manifest, '--scenario', file('s.yaml', 'containers:\n  web:\n    probes:\n      liveness: {attempts: [ok]}\n')], /liveness\.attempts\[0\]: must be one of success, failure, warning/],
    [['simulate', manifest, '--scenario', file('s.yaml', 'pods: {}\n')], /pods: unknown field/],
    [['simulate', file('empty.yaml', 'kind: Service\n')], /no container with a probe/],
    [['simulate', file('broken.yaml', 'kind: Pod\nspec: [\n')], /broken\.yaml:\d+:\d+: YAML:/],
    [['simulate', manifest, '--for', 'forever'], /--for: "forever" is not a duration/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = cli(args);
    assert.equal(code, 2, args.join(' '));
    assert.match(stderr, message);
  }
});

test('probe: one HTTP attempt against a real server, as JSON; exit 0 on success, 1 on failure', async () => {
  const app = await server((path) => (path === '/healthz' ? 200 : 503));
  try {
    // Spawned asynchronously: this process's server must keep answering.
    const ok = await spawnCli(['probe', '--spec', JSON.stringify({ httpGet: { path: '/healthz', port: app.port } })]);
    assert.equal(ok.code, 0, ok.stderr);
    const result = JSON.parse(ok.stdout);
    assert.equal(result.result, 'success');
    assert.equal(result.output, 'ok');
    assert.equal(typeof result.durationMs, 'number');
    const bad = await spawnCli(['probe', '--spec', JSON.stringify({ httpGet: { path: '/ready', port: 'http' } }), '--container', JSON.stringify({ ports: [{ name: 'http', containerPort: app.port }] })]);
    assert.equal(bad.code, 1);
    assert.deepEqual(JSON.parse(bad.stdout).output, 'HTTP probe failed with statuscode: 503');
  } finally {
    await app.close();
  }
});

test('probe: prober errors are answers with error set; a malformed spec is exit 2', () => {
  const missing = cli(['probe', '--spec', '{"tcpSocket":{"port":"metrics"}}']);
  assert.equal(missing.code, 1);
  const answer = JSON.parse(missing.stdout);
  assert.equal(answer.result, 'unknown');
  assert.equal(answer.error, 'strconv.Atoi: parsing "metrics": invalid syntax');
  const exec = cli(['probe', '--spec', '{"exec":{"command":["sh","-c","echo down; exit 3"]}}']);
  assert.equal(exec.code, 1);
  assert.equal(JSON.parse(exec.stdout).output, 'down\n');
  const typo = cli(['probe', '--spec', '{"tcpSocket":{"port":80},"failureTreshold":3}']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /--spec: strict decoding error: unknown field "failureTreshold" \(did you mean "failureThreshold"\?\)/);
  assert.equal(cli(['probe']).code, 2);
  assert.equal(cli(['probe', '--spec', '{not json']).code, 2);
});

test('run --target local: probes a real server through a port mapping, then stops cleanly at --for', async () => {
  const app = await server(() => 200);
  try {
    const manifest = file('pod.yaml', POD('      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1}\n'));
    const before = Date.now();
    const { code, stdout, stderr } = await spawnCli(['run', manifest, '--port', `8080:${app.port}`, '--for', '2500ms', '--format', 'jsonl']);
    assert.equal(code, 0, stderr);
    const events = lines(stdout);
    assert.equal(events[0]?.mode, 'run');
    const startedAt = Date.parse(String(events[0]?.startedAt));
    assert.ok(startedAt >= before - 1000 && startedAt <= Date.now(), `startedAt ${events[0]?.startedAt}: the wall-clock time of t = 0`);
    const attempts = events.filter((e) => e.type === 'attempt');
    assert.ok(attempts.length >= 2, `attempts: ${attempts.length}`);
    assert.ok(attempts.every((a) => a.outcome === 'success'));
    assert.ok(events.some((e) => e.type === 'result' && e.value === 'Success'));
  } finally {
    await app.close();
  }
});

test('run: exec probes do not run without --allow-exec; Ctrl-C stops the session with a summary', async () => {
  const manifest = file('pod.yaml', POD('      livenessProbe: {exec: {command: [touch, /tmp/probe-lens-should-not-exist]}, periodSeconds: 1}\n'));
  const { code, stdout } = await spawnCli(['run', manifest], { interruptAfterMs: 1500 });
  assert.equal(code, 0);
  assert.equal(existsSync('/tmp/probe-lens-should-not-exist'), false);
  assert.match(stdout, /liveness +not run .*error: exec probes run commands on this machine and were not allowed/);
});

test('run: --target cluster without kubectl and a non-loopback --host are refused (exit 2)', () => {
  const manifest = file('pod.yaml', POD('      readinessProbe: {tcpSocket: {port: 8080}}\n'));
  assert.match(cli(['run', manifest, '--target', 'cluster', '--kubectl', '/nonexistent/kubectl']).stderr, /kubectl was not found at \/nonexistent\/kubectl: install kubectl, or set the --kubectl option/);
  const remote = cli(['run', manifest, '--host', '10.1.2.3']);
  assert.equal(remote.code, 2);
  assert.match(remote.stderr, /--allow-host 10\.1\.2\.3/);
});

test('run --allow-exec: the manifest\'s exec probe runs here, with $(VAR) expanded from the container env (E5)', async () => {
  const marker = join(scratchDir('probe-lens-exec-'), 'ran');
  const manifest = file(
    'pod.yaml',
    POD(`      env: [{name: MARKER, value: ${marker}}]
      readinessProbe: {exec: {command: [touch, "$(MARKER)"]}, periodSeconds: 1}
`),
  );
  const { code, stdout } = await spawnCli(['run', manifest, '--allow-exec', '--for', '1500ms', '--format', 'jsonl']);
  assert.equal(code, 0);
  assert.ok(existsSync(marker), 'the command ran, with the variable expanded');
  const attempts = lines(stdout).filter((e) => e.type === 'attempt');
  assert.ok(attempts.length > 0 && attempts.every((a) => a.outcome === 'success'), JSON.stringify(attempts.slice(0, 2)));
});

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

test('run on a terminal: the summary is redrawn in place under the event lines', { skip: !hasScript && 'util-linux script(1) is needed for a pseudo-terminal' }, async () => {
  const manifest = file('pod.yaml', POD('      readinessProbe: {tcpSocket: {port: 1}, periodSeconds: 1}\n'));
  // script(1) gives the CLI a pseudo-terminal, so it takes the live, coloured path.
  const command = `${JSON.stringify(process.execPath)} ${CLI} run ${JSON.stringify(manifest)} --for 1500ms`;
  const result = await new Promise<string>((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '' } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', () => resolve(out));
  });
  assert.match(result, /\x1b\[\d+A\x1b\[J/, 'the previous summary is erased before new lines');
  assert.match(result, /web\/web\x1b\[0m {2}running · started · \x1b\[31mnot ready/);
});
