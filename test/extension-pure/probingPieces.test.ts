/**
 * The pure pieces of the extension's probing (no `vscode` import): the Probes view's wording,
 * the scenario template, the exec gate. The rest runs inside VS Code
 * (test/extension/suite/probing.vstest.ts, safety.vstest.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { desiredPods } from '../../src/core/engine/manager';
import type { AttemptRequest, ProbeTarget } from '../../src/core/engine/target';
import { parseManifest } from '../../src/core/manifest';
import type { ProbeOutcome } from '../../src/core/probers/types';
import { parseScenario } from '../../src/core/scenario/parse';
import { SessionSummary } from '../../src/core/session/summary';
import { commandsHash, execCommandsOf } from '../../src/extension/safety/execCommands';
import { ExecGate } from '../../src/extension/safety/execGate';
import { probingRefusal } from '../../src/extension/safety/trust';
import { scenarioFileName, scenarioTemplate } from '../../src/extension/sessions/scenarioTemplate';
import { duration, presentContainer, presentPod, presentProbe, presentSession } from '../../src/extension/tree/format';

type Attempt = Extract<EngineEvent, { type: 'attempt' }>;

function attempt(t: number, outcome: Attempt['outcome'], output = '', error?: string, durationMs = 4): Attempt {
  return { type: 'attempt', t, pod: 'web', container: 'web', probe: 'readiness', containerId: 'local://web/web/0', outcome, output, durationMs, ...(error !== undefined ? { error } : {}) };
}

/** A summary fed the events, and the last attempt among them. */
function fold(events: readonly EngineEvent[]): { summary: SessionSummary; last: Attempt | undefined } {
  const summary = new SessionSummary();
  let last: Attempt | undefined;
  for (const event of events) {
    summary.apply(event);
    if (event.type === 'attempt') last = event;
  }
  return { summary, last };
}

const RUNNING: EngineEvent = { type: 'container', t: 0, pod: 'web', container: 'web', containerId: 'local://web/web/0', state: 'running', restartCount: 0 };

function probeRow(events: readonly EngineEvent[], failureThreshold = 3) {
  const { summary, last } = fold(events);
  const container = summary.pods.get('web')?.containers.get('web');
  return presentProbe({ type: 'readiness', summary: container?.probes.get('readiness'), last, failureThreshold, handler: 'httpGet http://:8080/healthz', running: container?.state === 'running' });
}

test('probe row: waiting, passing with counts and duration, failing toward the threshold, failed, errored', () => {
  assert.deepEqual([probeRow([RUNNING]).description, probeRow([RUNNING]).icon.id], ['waiting for the first attempt', 'loading~spin']);
  assert.deepEqual([probeRow([]).icon.id], ['circle-outline']);

  const ok = [RUNNING, attempt(1, 'success'), { type: 'result', t: 1, pod: 'web', container: 'web', probe: 'readiness', containerId: 'local://web/web/0', value: 'Success' } as EngineEvent, attempt(2, 'success', '', undefined, 3.6)];
  assert.deepEqual([probeRow(ok).description, probeRow(ok).icon], ['2/2 ok · 4 ms', { id: 'pass', color: 'testing.iconPassed' }]);

  const failing = [...ok, attempt(3, 'failure', 'HTTP probe failed with statuscode: 503')];
  assert.deepEqual([probeRow(failing).description, probeRow(failing).icon.id], ['failing 1/3 · 2/3 ok', 'warning']);
  assert.match(probeRow(failing).tooltip.markdown, /Last attempt at t=3\.0s: \*\*failure\*\*/);
  assert.equal(probeRow(failing).tooltip.code, 'HTTP probe failed with statuscode: 503');

  const failed = [...failing, attempt(4, 'failure', 'HTTP probe failed with statuscode: 503'), attempt(5, 'failure', 'HTTP probe failed with statuscode: 503'), { type: 'result', t: 5, pod: 'web', container: 'web', probe: 'readiness', containerId: 'local://web/web/0', value: 'Failure' } as EngineEvent];
  assert.deepEqual([probeRow(failed).description, probeRow(failed).icon], ['failing 3/3 · 2/5 ok', { id: 'error', color: 'testing.iconFailed' }]);
  assert.equal(probeRow(failed, 1).description, 'failing 1/1 · 2/5 ok', 'capped at the threshold');

  const errored = [RUNNING, attempt(1, 'unknown', '', 'exec probes run commands on this machine and were not allowed')];
  assert.deepEqual([probeRow(errored).description, probeRow(errored).icon.id], ['error · 0/1 ok', 'question']);
  assert.match(probeRow(errored).tooltip.markdown, /prober error, not counted/);
  assert.equal(probeRow(errored).tooltip.code, 'exec probes run commands on this machine and were not allowed');
});

test('probe row: a success before successThreshold is reached says so', () => {
  const row = probeRow([RUNNING, attempt(1, 'success')]);
  assert.equal(row.description, 'not passed yet · 1/1 ok · 4 ms');
  assert.equal(row.icon.id, 'warning');
});

test('container row: ready · restarts N, starting, started but not ready, CrashLoopBackOff, terminated', () => {
  const container = (events: readonly EngineEvent[]) => presentContainer('web', fold(events).summary.pods.get('web')?.containers.get('web'));
  const status = (started: boolean, ready: boolean): EngineEvent => ({ type: 'status', t: 1, pod: 'web', container: 'web', started, ready });
  assert.deepEqual([presentContainer('web', undefined).description, presentContainer('web', undefined).icon.id], ['not started yet', 'loading~spin']);
  assert.equal(container([RUNNING]).description, 'starting · restarts 0');
  assert.deepEqual([container([RUNNING, status(true, false)]).description, container([RUNNING, status(true, false)]).icon.id], ['started · not ready · restarts 0', 'warning']);
  const ready = container([{ ...RUNNING, restartCount: 2 } as EngineEvent, status(true, true)]);
  assert.deepEqual([ready.description, ready.icon.id], ['ready · restarts 2', 'pass']);
  const backOff = container([{ type: 'container', t: 9, pod: 'web', container: 'web', containerId: 'sim://web/web/3', state: 'waiting', restartCount: 3, reason: 'CrashLoopBackOff' }]);
  assert.deepEqual([backOff.description, backOff.icon.id], ['CrashLoopBackOff · restarts 3', 'error']);
  const done = container([{ type: 'container', t: 9, pod: 'web', container: 'web', containerId: 'sim://web/web/0', state: 'terminated', restartCount: 0, reason: 'Error' }]);
  assert.deepEqual([done.description, done.icon.id], ['terminated (Error) · restarts 0', 'circle-slash']);
  assert.match(done.tooltip.markdown, /`sim:\/\/web\/web\/0`/);
});

test('pod and session rows count ready containers; a simulation shows its virtual time', () => {
  const { summary } = fold([RUNNING, { type: 'status', t: 1, pod: 'web', container: 'web', started: true, ready: true }, { type: 'pod', t: 1, pod: 'web', ready: true }]);
  const pod = summary.pods.get('web');
  const containers = [pod?.containers.get('web'), undefined];
  assert.equal(presentPod('web', pod, [pod?.containers.get('web')]).description, 'ready');
  assert.equal(presentPod('web', { name: 'web', ready: false, containers: new Map() }, containers).description, 'not ready · 1/2 containers ready');
  assert.equal(presentSession({ kind: 'local', label: 'web.yaml', detail: '127.0.0.1', elapsedSeconds: 12, containers }).description, 'local · 127.0.0.1 · 1/2 ready');
  const simulated = presentSession({ kind: 'simulated', label: 'web.yaml', detail: '60× · web.scenario.yaml', elapsedSeconds: 310, containers });
  assert.deepEqual([simulated.description, simulated.icon.id], ['simulated · 60× · web.scenario.yaml · t=5m 10s · 1/2 ready', 'beaker']);
  assert.deepEqual([duration(42), duration(310), duration(7380)], ['42s', '5m 10s', '2h 03m']);
});

test('the scenario template parses as a scenario, naming the manifest\'s containers', () => {
  const text = scenarioTemplate('web.yaml', ['web', 'metrics', 'web']);
  const parsed = parseScenario(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.deepEqual(Object.keys(parsed.scenario.containers), ['web', 'metrics']);
  assert.equal(parsed.scenario.containers['web']?.readyAfter, 20);
  assert.equal(parsed.scenario.kubeletStartedAgo, 3600);
  assert.equal(scenarioFileName('web.yaml'), 'web.scenario.yaml');
  assert.equal(scenarioFileName('deploy.YML'), 'deploy.scenario.yaml');
  assert.ok(parseScenario(scenarioTemplate('x.yaml', [])).ok);
});

const EXEC_POD = `apiVersion: v1
kind: Pod
metadata: {name: worker}
spec:
  containers:
    - name: worker
      image: x
      env: [{name: FILE, value: /tmp/ready}]
      readinessProbe:
        exec: {command: ["cat", "$(FILE)"]}
      livenessProbe:
        httpGet: {path: /, port: 80}
  initContainers:
    - name: setup
      image: x
`;

test('E1: exec commands are collected expanded, as the kubelet would run them; an edit changes the digest', () => {
  const commands = execCommandsOf(desiredPods(parseManifest(EXEC_POD)));
  assert.deepEqual(commands, [{ pod: 'worker', container: 'worker', probe: 'readiness', argv: ['cat', '/tmp/ready'] }]);
  const edited = execCommandsOf(desiredPods(parseManifest(EXEC_POD.replace('/tmp/ready', '/tmp/other'))));
  assert.notEqual(commandsHash(commands), commandsHash(edited));
  assert.equal(commandsHash(commands), commandsHash([...commands, ...commands]), 'repeats do not matter');
});

test('the exec gate lets through only the command lines allowed; other probes go to the guarded target', () => {
  const calls: string[] = [];
  const target = (name: string): ProbeTarget => ({
    attempt: (_request: AttemptRequest, done: (outcome: ProbeOutcome) => void) => {
      calls.push(name);
      done({ result: 'success', output: '' });
    },
    dispose: () => calls.push(`${name} disposed`),
  });
  const gate = new ExecGate(target('permitted'), target('guarded'));
  const pod = desiredPods(parseManifest(EXEC_POD))[0];
  assert.ok(pod);
  const container = pod.spec.containers.find((c) => c.name === 'worker');
  assert.ok(container);
  const request = (type: 'readiness' | 'liveness'): AttemptRequest => {
    const probe = container.probe(type);
    assert.ok(probe);
    return { pod: pod.identity, podSpec: pod.spec, container, type, probe: probe.effective, containerId: 'local://worker/worker/0', startedAt: 0, instance: 0 };
  };
  const done = () => {};
  gate.attempt(request('readiness'), done);
  gate.allow(['cat', '/tmp/ready']);
  gate.attempt(request('readiness'), done);
  gate.attempt(request('liveness'), done);
  gate.revokeAll();
  gate.attempt(request('readiness'), done);
  gate.dispose();
  assert.deepEqual(calls, ['guarded', 'permitted', 'guarded', 'guarded', 'permitted disposed', 'guarded disposed']);
});

test('probing is refused in an untrusted workspace, with a reason', () => {
  assert.equal(probingRefusal(true), undefined);
  assert.match(probingRefusal(false) ?? '', /trusted workspace/);
});
