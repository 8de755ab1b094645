import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkChart } from '../../../src/core/checkChart';
import { Helm } from '../../../src/core/render/helm/helm';
import type { Finding } from '../../../src/core/rules/types';
import { helmCreateChart, lineOf, replaceOnce } from '../../helpers/charts';
import { helms } from '../../helpers/renderers';
import { scratchDir } from '../../helpers/scratch';
import { experiment } from './experiment';

/** Where each finding landed, as `rule file:line:column (placed)`, file relative to the chart. */
function places(root: string, findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.rule} ${f.file.startsWith(root) ? f.file.slice(root.length + 1) : f.file}:${f.range.start.line + 1}:${f.range.start.character + 1} (${f.rendered?.placed ?? 'not rendered'})`);
}

async function check(helm: string, root: string, options: { valuesFiles?: string[]; set?: string[] } = {}): Promise<readonly Finding[]> {
  const result = await checkChart(root, { helm: new Helm({ path: helm, namedBy: 'pass --helm PATH' }), ...options });
  assert.ok(result.ok, result.ok ? '' : result.failure.message);
  return result.value.findings;
}

/** The `helm create` chart with a liveness probe the API server rejects, set in values.yaml (passed through toYaml). */
const BROKEN_LIVENESS = {
  'values.yaml': replaceOnce('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: http\n  successThreshold: 2\n'),
};

for (const { label, path: helm } of helms()) {
  describe(`placement on a rendered chart (${label})`, () => {
    test('M01, M05: a values key passed through toYaml: the finding is on the value in values.yaml, and a -f file that sets it again wins', async () => {
      const root = helmCreateChart(helm, 'web', BROKEN_LIVENESS);
      const values = (await import('node:fs')).readFileSync(join(root, 'values.yaml'), 'utf8');
      const p12 = (await check(helm, root)).filter((f) => f.rule === 'P12');
      assert.deepEqual(places(root, p12), [`P12 values.yaml:${lineOf(values, 'successThreshold: 2')}:21 (values)`]);
      assert.equal(p12[0]?.rendered?.valuesKey, 'livenessProbe.successThreshold');
      assert.equal(p12[0]?.rendered?.path, 'spec.template.spec.containers[0].livenessProbe.successThreshold');
      assert.equal(p12[0]?.rendered?.source, 'web/templates/deployment.yaml');

      const prod = join(scratchDir('probe-lens-values-'), 'prod.yaml');
      writeFileSync(prod, '# production\nlivenessProbe:\n  successThreshold: 3\n');
      const overridden = (await check(helm, root, { valuesFiles: [prod] })).filter((f) => f.rule === 'P12');
      assert.deepEqual(
        overridden.map((f) => `${f.file}:${f.range.start.line + 1}:${f.range.start.character + 1}`),
        [`${prod}:3:21`],
      );
      // The fix that rewrites the value rewrites it where it is set.
      assert.deepEqual(overridden[0]?.fixes?.[0]?.edits, [{ range: { start: { line: 2, character: 20 }, end: { line: 2, character: 21 } }, newText: '1' }]);
    });

    test('M03: a whole probe from values (L14 on the helm create chart): the probe\'s own key in values.yaml', async () => {
      const root = helmCreateChart(helm, 'web');
      const values = (await import('node:fs')).readFileSync(join(root, 'values.yaml'), 'utf8');
      const findings = await check(helm, root);
      assert.deepEqual(places(root, findings), [`L14 values.yaml:${lineOf(values, 'livenessProbe:')}:1 (values)`]);
      assert.equal(findings[0]?.rendered?.valuesKey, 'livenessProbe');
    });

    test('M02, M01: a literal in a template is placed on its template line; a value read with .Values on the values line', async () => {
      const root = helmCreateChart(helm, 'web', {
        'values.yaml': (text) => `${text}\nprobe:\n  period: 10\n  delay: -5\n`,
        'templates/deployment.yaml': replaceOnce(
          '          {{- with .Values.readinessProbe }}\n          readinessProbe:\n            {{- toYaml . | nindent 12 }}\n          {{- end }}',
          '          readinessProbe:\n            httpGet:\n              path: /ready\n              port: http\n            initialDelaySeconds: {{ .Values.probe.delay }}\n            periodSeconds: {{ .Values.probe.period }}\n            timeoutSeconds: 15',
        ),
      });
      const { readFileSync } = await import('node:fs');
      const template = readFileSync(join(root, 'templates/deployment.yaml'), 'utf8');
      const values = readFileSync(join(root, 'values.yaml'), 'utf8');
      const findings = await check(helm, root);
      const byRule = (rule: string) => places(root, findings.filter((f) => f.rule === rule));
      assert.deepEqual(byRule('P09'), [`P09 values.yaml:${lineOf(values, 'delay: -5')}:10 (values)`]);
      assert.deepEqual(byRule('L12'), [`L12 templates/deployment.yaml:${lineOf(template, 'timeoutSeconds: 15')}:29 (template)`]);
    });

    test('M04: a value no place can be proven to write (template arithmetic, a default in {{ }}): the workload line, the render quoted', async () => {
      const root = helmCreateChart(helm, 'web', {
        'values.yaml': (text) => `${text}\nprobe:\n  failures: 0\n`,
        'templates/deployment.yaml': replaceOnce('          livenessProbe:\n            {{- toYaml . | nindent 12 }}', '          livenessProbe:\n            {{- toYaml . | nindent 12 }}\n            failureThreshold: {{ add $.Values.probe.failures 1 }}'),
      });
      const template = (await import('node:fs')).readFileSync(join(root, 'templates/deployment.yaml'), 'utf8');
      const l27 = (await check(helm, root)).filter((f) => f.rule === 'L27');
      assert.deepEqual(places(root, l27), [`L27 templates/deployment.yaml:${lineOf(template, 'kind: Deployment')}:1 (workload)`]);
      assert.match(l27[0]?.message ?? '', /rendered as `failureThreshold: 1` at spec\.template\.spec\.containers\[0\]\.livenessProbe\.failureThreshold; the place in the chart that writes it could not be proven\)$/);
      assert.equal(l27[0]?.fixes, undefined, 'a fix of rendered text is never offered');
    });

    test('M04: a workload whose kind is templated (`kind: {{ .Values.kind }}`, as Bitnami writes it): its only kind: line', async () => {
      const root = helmCreateChart(helm, 'web', {
        'values.yaml': (text) => `${text}\nkind: Deployment\nprobe:\n  failures: 0\n`,
        'templates/deployment.yaml': (text) =>
          replaceOnce('          livenessProbe:\n            {{- toYaml . | nindent 12 }}', '          livenessProbe:\n            {{- toYaml . | nindent 12 }}\n            failureThreshold: {{ add $.Values.probe.failures 1 }}')(text.replace('kind: Deployment', 'kind: {{ .Values.kind }}')),
      });
      const template = (await import('node:fs')).readFileSync(join(root, 'templates/deployment.yaml'), 'utf8');
      const l27 = (await check(helm, root)).filter((f) => f.rule === 'L27');
      assert.deepEqual(places(root, l27), [`L27 templates/deployment.yaml:${lineOf(template, 'kind: {{ .Values.kind }}')}:1 (workload)`]);
    });

    test('M03: a probe written by a template\'s literal key: the key\'s line in the template', async () => {
      const root = helmCreateChart(helm, 'web', {
        'templates/deployment.yaml': replaceOnce(
          '          {{- with .Values.livenessProbe }}\n          livenessProbe:\n            {{- toYaml . | nindent 12 }}\n          {{- end }}',
          '          livenessProbe:\n            httpGet:\n              path: /\n              port: http',
        ),
      });
      const template = (await import('node:fs')).readFileSync(join(root, 'templates/deployment.yaml'), 'utf8');
      assert.deepEqual(places(root, await check(helm, root)), [`L14 templates/deployment.yaml:${lineOf(template, 'livenessProbe:')}:11 (template)`]);
    });

    test("M01: a subchart's probe: its own values.yaml, or the parent's key under the subchart's name when the parent sets it", async () => {
      const root = helmCreateChart(helm, 'shop');
      const sub = helmCreateChart(helm, 'cart', BROKEN_LIVENESS);
      mkdirSync(join(root, 'charts'), { recursive: true });
      cpSync(sub, join(root, 'charts', 'cart'), { recursive: true });
      const { readFileSync } = await import('node:fs');
      const subValues = readFileSync(join(root, 'charts/cart/values.yaml'), 'utf8');
      const own = (await check(helm, root)).filter((f) => f.rule === 'P12');
      assert.deepEqual(places(root, own), [`P12 charts/cart/values.yaml:${lineOf(subValues, 'successThreshold: 2')}:21 (values)`]);
      assert.equal(own[0]?.rendered?.valuesKey, 'cart.livenessProbe.successThreshold');

      writeFileSync(join(root, 'values.yaml'), `${readFileSync(join(root, 'values.yaml'), 'utf8')}\ncart:\n  livenessProbe:\n    successThreshold: 4\n`);
      const parentValues = readFileSync(join(root, 'values.yaml'), 'utf8');
      const overridden = (await check(helm, root)).filter((f) => f.rule === 'P12');
      assert.deepEqual(places(root, overridden), [`P12 values.yaml:${lineOf(parentValues, 'successThreshold: 4')}:23 (values)`]);
    });

    test('M01–M03, the experiment: changing the text at each proven place changes that rendered field, and no other', async () => {
      const root = helmCreateChart(helm, 'web', {
        'values.yaml': (text) => `${replaceOnce('    port: http\nreadinessProbe:', '    port: http\n  successThreshold: 2\n  timeoutSeconds: 30\nreadinessProbe:')(text)}\nprobe:\n  period: -5\n`,
        'templates/deployment.yaml': replaceOnce(
          '          {{- with .Values.readinessProbe }}\n          readinessProbe:\n            {{- toYaml . | nindent 12 }}\n          {{- end }}',
          '          readinessProbe:\n            httpGet:\n              path: /ready\n              port: 8080\n            periodSeconds: {{ .Values.probe.period }}\n            timeoutSeconds: 15',
        ),
      });
      const findings = (await check(helm, root)).filter((f) => f.rendered?.placed !== 'workload');
      assert.ok(findings.length >= 4, `${findings.length} placed findings`);
      for (const finding of findings) {
        const outcome = await experiment(helm, root, finding);
        assert.equal(outcome.changed, true, `${finding.rule} at ${finding.file}:${finding.range.start.line + 1}: ${outcome.detail}`);
        // A probe key renamed moves the whole probe, and its fields with it: that is "the field" too.
        assert.deepEqual(outcome.others, [], `${finding.rule}: changing its place changed other fields as well`);
      }
    });
  });
}
