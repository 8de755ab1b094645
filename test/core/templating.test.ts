/**
 * Y03: a templated document is one info finding and nothing else; a manifest that merely holds
 * `{{ }}` in its strings (an app's own templates, a `sed` placeholder) is checked like any other.
 * Templating is decided on the document's own text, between its `---` lines.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findTemplating, isOnlyTemplateControl } from '../../src/core/manifest/templating';
import { check, podWith } from '../helpers/manifests';

const rules = (text: string) => check(text).map((f) => `${f.rule}@${f.range.start.line}`);
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle));

/** A pod whose liveness probe has `successThreshold: 2` (P12): proof that it was checked. */
const checkedPod = (extraContainerFields: string) => podWith(`${extraContainerFields}\nlivenessProbe:\n  tcpSocket: {port: 8080}\n  successThreshold: 2`);

describe('Y03: templated documents are found on their own text, before any YAML is read', () => {
  test('Y03: a template whose first {{ comes after a syntax error is one Y03, not a cascade of Y01', () => {
    // The shape that gave linkerd-multicluster's local-service-mirror.yaml 564 Y01 errors.
    const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
    {{- with .Values.labels }}{{ toYaml . | nindent 4 }}{{- end }}
spec:
  template:
    spec:
      containers:
      - name: web
        image: {{ .Values.image }}
`;
    const findings = check(text);
    assert.deepEqual(
      findings.map((f) => [f.rule, f.severity, f.range.start.line]),
      [['Y03', 'info', 0]],
    );
    assert.equal(findings[0]?.message, 'document not checked: it is a Helm template ({{- with .Values.labels }}), not the manifest itself: render it first (helm template …) and check the output');
  });

  test('Y03: a sed placeholder ({{PROJECT_ID}}) in a block-scalar argument is not templating: the manifest is checked', () => {
    // microservices-demo's otel-collector.yaml, reduced: the container's script and a ConfigMap's
    // collector config both hold {{PROJECT_ID}}, filled in by the container at run time.
    const pod = checkedPod(`command:\n  - /bin/sh\n  - -c\n  - |\n    sed "s/{{PROJECT_ID}}/$(cat /id)/" /template/a.yaml >> /conf/a.yaml`);
    const configMap = 'apiVersion: v1\nkind: ConfigMap\ndata:\n  collector.yaml: |\n    exporters:\n      googlecloud:\n        project: {{PROJECT_ID}}\n';
    const text = `${pod}---\n${configMap}`;
    assert.deepEqual(rules(text), [`P12@${lineOf(text, 'successThreshold')}`]);
  });

  test("Y03: an app's own Go templates in quoted strings ('{{ $labels.instance }} is down') are not templating", () => {
    const text = checkedPod(`env:\n  - name: SUMMARY\n    value: '{{ $labels.instance }} is down'\n  - name: LEGEND\n    value: "{{pod}}"`);
    assert.deepEqual(rules(text), [`P12@${lineOf(text, 'successThreshold')}`]);
  });

  test("Y03: Helm's own objects in a quoted string (\"{{ .Values.image }}\") make the document a template", () => {
    const text = checkedPod('imagePullPolicy: "{{ .Values.image.pullPolicy }}"');
    assert.deepEqual(rules(text), ['Y03@0']);
  });

  test("Y03: Helm's objects inside a block scalar are a literal ConfigMap's content (Istio's injector template), not a chart", () => {
    // Calico's manifests/alp/istio-inject-configmap-*.yaml, reduced: applied with kubectl as they are.
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: istio-sidecar-injector}\ndata:\n  config: |-\n    policy: enabled\n    template: |-\n      rewriteAppHTTPProbe: {{ valueOrDefault .Values.sidecarInjectorWebhook.rewriteAppHTTPProbe false }}\n      containers:\n      - name: istio-proxy\n';
    assert.deepEqual(check(configMap), []);
    assert.equal(findTemplating(configMap), undefined);
  });

  test('Y03: a templated text that holds no Kubernetes object (a chart\'s values.yaml) gets no finding at all', () => {
    const values = `nameOverride: ""\nextraContainers: []\nconfigName: '{{ printf "%s-configs" .Release.Name }}'\n`;
    assert.notEqual(findTemplating(values), undefined, 'it is templating…');
    assert.deepEqual(check(values), [], '…but there is no object to say it of');
  });

  test('Y03: a template that is not Helm\'s ({{HF_TOKEN}}, filled in by sed) is not sent to helm template', () => {
    const [finding] = check(podWith('env:\n  - name: HF_TOKEN\n    value: {{HF_TOKEN}}'));
    assert.equal(finding?.message, 'document not checked: it is a template ({{HF_TOKEN}}), not the manifest itself: fill it in first and check the output');
  });

  test('Y03: Jinja ({% if %}) is named as such', () => {
    const text = `kind: Pod\nspec:\n  containers:\n{% for c in containers %}\n    - name: {{ c.name }}\n{% endfor %}\n`;
    const [finding] = check(text);
    assert.equal(finding?.rule, 'Y03');
    assert.match(finding?.message ?? '', /a Jinja template \(\{% for c in containers %\}\)/);
  });

  test('Y03: a piece holding only template control ({{- if }}, {{- end }}, comments) is no document at all', () => {
    const text = `{{- if .Values.enabled }}\n# the web pod\n---\n${checkedPod('')}---\n{{- end }}\n`;
    const findings = check(text);
    assert.deepEqual(
      findings.map((f) => [f.rule, f.doc]),
      [['P12', 0]],
    );
  });

  test('Y03: ${NAME} placeholders where numbers belong (envsubst) make the document a template', () => {
    const text = podWith('ports:\n  - containerPort: ${PORT:-9002}\nlivenessProbe:\n  grpc:\n    port: ${HEALTH_PORT:-9003}\n  initialDelaySeconds: ${DELAY}');
    const findings = check(text);
    assert.deepEqual(
      findings.map((f) => [f.rule, f.range.start.line]),
      [['Y03', 0]],
    );
    assert.equal(
      findings[0]?.message,
      'document not checked: it is a template: ${PORT:-9002} stands where a number belongs; substitute the variables first (envsubst < file) and check the output',
    );
  });

  test('Y03: ${VAR} in strings (a shell script, an env value, a directory) is the app\'s business: the manifest is checked', () => {
    const text = checkedPod('workingDir: ${WORKDIR}\nenv:\n  - name: A\n    value: ${HOME}\ncommand: ["sh", "-c", "exec app --port=${PORT}"]');
    assert.deepEqual(rules(text), [`P12@${lineOf(text, 'successThreshold')}`]);
  });

  test('Y03: a run of { is YAML (or garbage), not a template', () => {
    assert.equal(findTemplating(`a: ${'{'.repeat(50)}\n`), undefined);
    assert.equal(findTemplating('a: {{b: 1}: 2}\n'), undefined, 'a flow mapping as a key, closed by } } on another line would be');
  });

  test('Y03: {{ inside comments and block scalars is not structure; after them it is', () => {
    const text = 'a: 1 # {{ .x }}\nb: |\n  {{ .y }}\n  more\nc: {{ .z }}\n';
    assert.equal(findTemplating(text)?.offset, text.indexOf('{{ .z'));
    assert.equal(findTemplating('- |\n  {{ .y }}\n- b\n'), undefined);
    assert.equal(findTemplating('- key: |\n    {{ .y }}\n  other: {{ .z }}\n')?.offset, '- key: |\n    {{ .y }}\n  other: '.length);
  });

  test('Y03: which pieces render nothing', () => {
    assert.equal(isOnlyTemplateControl('{{- if .Values.rbac.create -}}\n'), true);
    assert.equal(isOnlyTemplateControl('---\n{{- end }}\n# done\n'), true);
    assert.equal(isOnlyTemplateControl('{{/* a comment\n   over two lines */}}\n{{- $x := .Values.x }}\n'), true);
    assert.equal(isOnlyTemplateControl('{{ include "chart.extraObjects" . }}\n'), false, 'an include renders whatever it holds');
    assert.equal(isOnlyTemplateControl('{{- if .Values.x }}\nkind: Pod\n'), false);
  });
});
