/**
 * The pure pieces of the extension's probing (no `vscode` import): the scenario template, the
 * exec gate (the Probes view's wording: probesView.test.ts). The rest runs inside VS Code
 * (test/extension/suite/probing.vstest.ts, safety.vstest.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { desiredPods } from '../../src/core/engine/manager';
import type { AttemptRequest, ProbeTarget } from '../../src/core/engine/target';
import { parseManifest } from '../../src/core/manifest';
import type { ProbeOutcome } from '../../src/core/probers/types';
import { parseScenario } from '../../src/core/scenario/parse';
import { commandsHash, execCommandsOf } from '../../src/extension/safety/execCommands';
import { ExecGate } from '../../src/extension/safety/execGate';
import { probingRefusal } from '../../src/extension/safety/trust';
import { scenarioFileName, scenarioTemplate } from '../../src/extension/sessions/scenarioTemplate';

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
