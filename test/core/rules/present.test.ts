/**
 * One problem, one message: the editor's diagnostics and the CLI's text say what is wrong in plain
 * words first, naming the container; the API server's exact text goes beside them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkText } from '../../../src/core/check';
import { apiLine, presentFindings, type Problem } from '../../../src/core/rules/present';
import { podSpec, podWith } from '../../helpers/manifests';

const problems = (text: string): Problem[] => presentFindings(checkText(text, { file: 'f.yaml' }));
const only = (text: string, rule: string): Problem => {
  const found = problems(text).filter((p) => p.primary.rule === rule);
  assert.equal(found.length, 1, `one ${rule} problem in ${JSON.stringify(problems(text).map((p) => p.primary.rule))}`);
  return found[0]!;
};

describe('one problem, one message', () => {
  test('P06 + L04: a quoted port is one error, in plain words, with the API text beside it', () => {
    const text = podWith('ports: [{containerPort: 8080}]\nreadinessProbe:\n  httpGet: {path: /, port: "8080"}');
    const all = problems(text);
    assert.deepEqual(
      all.map((p) => p.primary.rule),
      ['P06'],
    );
    const [problem] = all;
    assert.equal(problem!.headline, 'container "web": readiness port "8080" is a string, so the API server reads it as a port name and rejects it: write 8080 without quotes');
    assert.deepEqual(problem!.folded.map((f) => f.rule), ['L04']);
    assert.equal(apiLine(problem!.apiText!), 'API server: spec.containers[0].readinessProbe.httpGet.port: Invalid value: "8080": must contain at least one letter (a-z)');
  });

  test('D02 + L05: a named gRPC port is one error; decoding text gets its full field path', () => {
    const text = podWith('ports: [{name: grpc, containerPort: 9090}]\nlivenessProbe:\n  grpc: {port: grpc}');
    const problem = only(text, 'D02');
    assert.equal(problem.headline, 'container "web": the liveness probe\'s grpc.port is a name, but a gRPC probe takes a port number only: the API server rejects it; use 9090 (the containerPort named "grpc")');
    assert.ok(!problems(text).some((p) => p.primary.rule === 'L05'));
    assert.match(apiLine(problem.apiText!), /^API server: json: cannot unmarshal string into Go struct field GRPCAction\..* of type int32 \(at spec\.containers\[0\]\.livenessProbe\.grpc\.port\)$/);
  });

  test('P14 + L24: probes on a plain init container are one error naming it', () => {
    const text = podSpec(`initContainers:
  - name: migrate
    image: m
    readinessProbe: {exec: {command: [true]}}
containers:
  - name: web
    image: w`);
    const problem = only(text, 'P14');
    assert.match(problem.headline, /^container "migrate": probes are not allowed on a plain init container: the API server rejects it; .*sidecar \(restartPolicy: Always\)$/);
    assert.ok(!problems(text).some((p) => p.primary.rule === 'L24'));
  });

  test('two problems at the same place stay two (L19, L21: not explanations of each other)', () => {
    const text = podWith('livenessProbe:\n  exec: {command: ["curl -sf localhost/healthz"]}');
    const rules = problems(text).map((p) => p.primary.rule);
    assert.ok(rules.includes('L19') && rules.includes('L21'), rules.join());
  });

  test("Probe Lens's own findings: their words, named by container, no API text", () => {
    const problem = only(podWith('livenessProbe:\n  tcpSocket: {port: 8080}\n  timeoutSeconds: 8\n  periodSeconds: 5'), 'L12');
    assert.match(problem.headline, /^container "web": timeoutSeconds \(8\) is longer than periodSeconds \(5\)/);
    assert.equal(problem.apiText, undefined);
  });

  const apiCases: [string, string, string][] = [
    ['P12', 'livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2', `container "web": the liveness probe's successThreshold is 2, but liveness needs 1: the API server rejects it`],
    ['P05', 'livenessProbe:\n  tcpSocket: {port: 0}', `container "web": the liveness probe's tcpSocket.port 0 is out of range: a port must be between 1 and 65535`],
    ['P07', 'livenessProbe:\n  httpGet: {port: 8080, scheme: https}', `container "web": the liveness probe's httpGet.scheme "https" is not supported: write HTTP or HTTPS, in capitals`],
    ['P09', 'livenessProbe:\n  tcpSocket: {port: 8080}\n  periodSeconds: -1', `container "web": the liveness probe's periodSeconds is -1: it must not be negative (0 means the default)`],
    ['P01', 'livenessProbe:\n  periodSeconds: 5', `container "web": the liveness probe has no handler: give it one of exec, httpGet, tcpSocket or grpc`],
    ['P02', 'livenessProbe:\n  tcpSocket: {port: 8080}\n  grpc: {port: 9090}', `container "web": the liveness probe has more than one handler: the API server rejects it; keep only one (grpc is extra)`],
    ['D01', 'livenessProbe:\n  tcpSocket: {port: 8080}\n  failureTreshold: 3', `container "web": unknown field "failureTreshold" in the liveness probe (did you mean "failureThreshold"?): the API server rejects it`],
  ];
  for (const [rule, fields, headline] of apiCases) {
    test(`${rule}: the API server's error in plain words first, its exact text beside`, () => {
      const problem = only(podWith(fields), rule);
      assert.equal(problem.headline, headline);
      assert.equal(problem.apiText?.message, problem.primary.message, 'the exact text is kept');
    });
  }
});
