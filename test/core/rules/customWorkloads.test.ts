/**
 * Workloads of other API groups: an Argo Rollout carries a Deployment's pod template and is
 * checked like one; a Knative Service's probes are run by Knative and are said not to be checked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { check, indent } from '../../helpers/manifests';

const rollout = (apiVersion: string, container: string) => `apiVersion: ${apiVersion}
kind: Rollout
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  strategy:
    canary: {steps: [{setWeight: 20}]}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
${indent(container, 8)}
`;

test('P12 on an Argo Rollout: the path of a Deployment, and who refuses it (the Rollouts controller, InvalidSpec)', () => {
  const findings = check(rollout('argoproj.io/v1alpha1', 'livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2'));
  assert.deepEqual(
    findings.map((f) => `${f.rule} ${f.message}`),
    ['P12 spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1 (kubectl apply accepts the Rollout; the Argo Rollouts controller refuses this template and reports it in the Rollout\'s InvalidSpec condition)'],
  );
});

test('D02 on an Argo Rollout: the CRD schema words a wrong type, not Go decoding', () => {
  const [finding] = check(rollout('argoproj.io/v1alpha1', 'readinessProbe:\n  tcpSocket: {port: 8080}\n  timeoutSeconds: "5"'));
  assert.equal(finding?.rule, 'D02');
  assert.equal(
    finding?.message,
    'spec.template.spec.containers[0].readinessProbe.timeoutSeconds: Invalid value: "string": spec.template.spec.containers[0].readinessProbe.timeoutSeconds in body must be of type integer: "string"',
  );
});

test('run-time and timing rules apply to a Rollout as to a Deployment (L19)', () => {
  const findings = check(rollout('argoproj.io/v1alpha1', 'readinessProbe:\n  exec: {command: ["cat /tmp/ready"]}'));
  assert.deepEqual(findings.map((f) => f.rule), ['L19']);
});

test('a Rollout of another API group is not Argo\'s: not read as a pod template', () => {
  assert.deepEqual(check(rollout('example.com/v1', 'livenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2')), []);
});

const KNATIVE_SERVICE = `apiVersion: serving.knative.dev/v1
kind: Service
metadata:
  name: hello
spec:
  template:
    spec:
      containers:
        - image: ghcr.io/knative/helloworld-go:latest
          ports:
            - containerPort: 8080
          readinessProbe:
            httpGet:
              path: /healthz
          livenessProbe:
            tcpSocket: {}
`;

test('Y04: a Knative Service with probes is one info finding saying they are not checked, not "no problems"', () => {
  const findings = check(KNATIVE_SERVICE);
  assert.deepEqual(
    findings.map((f) => [f.rule, f.severity, f.range.start.line]),
    [['Y04', 'info', 0]],
  );
  assert.equal(
    findings[0]?.message,
    "probes not checked: Knative runs this Service's readiness probes from its queue-proxy, polling far more often than periodSeconds says, and validates the template with its own webhook (serving.knative.dev/v1); the kubelet's and the API server's rules that Probe Lens checks do not describe it",
  );
});

test('Y04: nothing for a Knative Service without probes, nor for a core Service', () => {
  assert.deepEqual(check(KNATIVE_SERVICE.replace(/ {10}readinessProbe:[^]*$/, '')), []);
  assert.deepEqual(check('apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n'), []);
});
