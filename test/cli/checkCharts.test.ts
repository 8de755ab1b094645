import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { helmCreateChart, lineOf, replaceOnce } from '../helpers/charts';
import { runCli } from '../helpers/cli';
import { renderers } from '../helpers/renderers';

/**
 * `probe-lens check` on charts and overlays, end to end with the real helm 4 and kubectl: what a
 * CI job sees — findings at their source lines, a failed render on stderr with the others still
 * checked, exit 2, and the rendered location in JSON and SARIF.
 */
const { helm4: helm, kubectl } = renderers();

/** A folder with two charts (one fine but for a finding, one whose template does not parse) and an overlay. */
function monorepo(): { dir: string; good: string; broken: string } {
  const good = helmCreateChart(helm, 'good', {
    'values.yaml': replaceOnce('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: http\n  successThreshold: 2\n'),
  });
  const dir = dirname(good);
  execFileSync(helm, ['create', 'broken'], { cwd: dir, stdio: 'ignore', env: { ...process.env, HELM_NO_PLUGINS: '1' } });
  const broken = join(dir, 'broken');
  writeFileSync(join(broken, 'templates/oops.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }\n');
  for (const [path, text] of Object.entries({
    'deploy/base/kustomization.yaml': 'resources:\n  - web.yaml\n',
    'deploy/base/web.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: web\n      image: nginx\n      livenessProbe:\n        tcpSocket: {port: 80}\n        timeoutSeconds: 30\n',
    'deploy/prod/kustomization.yaml': 'resources:\n  - ../base\n',
  })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, good, broken };
}

const run = (dir: string, args: string[]) => runCli(['check', ...args, '--helm', helm, '--kustomize', kubectl], { cwd: dir });

test('R03, K01: a folder of charts and an overlay — findings at their source lines, the broken chart on stderr, the rest checked, exit 2', () => {
  const { dir, good } = monorepo();
  const result = run(dir, ['.']);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stderr, 'probe-lens: broken/templates/oops.yaml:4: helm template failed: unexpected "}" in operand\n');
  const values = readFileSync(join(good, 'values.yaml'), 'utf8');
  assert.match(result.stdout, /^good\/values\.yaml\n/m);
  assert.match(result.stdout, new RegExp(`^  ${lineOf(values, 'successThreshold: 2')}:21 +error +P12 +container "good": the liveness probe's successThreshold is 2`, 'm'));
  // The overlay's base is built through the overlay, once: its finding is on the base's line.
  assert.match(result.stdout, /^deploy\/base\/web\.yaml\n {2}11:25 +warning +L12 /m);
  assert.equal(result.stdout.match(/L12/g)?.length, 1);
});

test('M01: --format json carries the rendered location and the values key; SARIF the source as the location, the render as a related one, the failure as a notification', () => {
  const { dir } = monorepo();
  const json = JSON.parse(run(dir, ['good', 'broken', '--format', 'json']).stdout) as { findings: { rule: string; file: string; rendered?: Record<string, unknown> }[] };
  const p12 = json.findings.find((f) => f.rule === 'P12');
  assert.equal(p12?.file, 'good/values.yaml');
  assert.deepEqual(
    { ...p12?.rendered, range: undefined },
    { doc: 2, source: 'good/templates/deployment.yaml', path: 'spec.template.spec.containers[0].livenessProbe.successThreshold', range: undefined, placed: 'values', valuesKey: 'livenessProbe.successThreshold' },
  );

  const sarif = JSON.parse(run(dir, ['good', 'broken', '--format', 'sarif']).stdout) as { runs: { results: Record<string, unknown>[]; invocations: { executionSuccessful: boolean; toolExecutionNotifications: unknown[] }[] }[] };
  const [sarifRun] = sarif.runs;
  const result = sarifRun?.results.find((r) => r['ruleId'] === 'P12') as { locations: { physicalLocation: { artifactLocation: { uri: string } } }[]; relatedLocations: { message: { text: string } }[]; properties: Record<string, unknown> };
  assert.equal(result.locations[0]?.physicalLocation.artifactLocation.uri, 'good/values.yaml');
  assert.match(result.relatedLocations[0]?.message.text ?? '', /^rendered: document 3 \(# Source: good\/templates\/deployment\.yaml\), line \d+ of the output, spec\.template\.spec\.containers\[0\]\.livenessProbe\.successThreshold$/);
  assert.deepEqual([result.properties['placed'], result.properties['valuesKey']], ['values', 'livenessProbe.successThreshold']);
  assert.equal(sarifRun?.invocations[0]?.executionSuccessful, false);
  assert.deepEqual(sarifRun?.invocations[0]?.toolExecutionNotifications, [
    {
      level: 'error',
      message: { text: 'helm template failed: unexpected "}" in operand' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'broken/templates/oops.yaml', uriBaseId: 'SRCROOT' }, region: { startLine: 4 } } }],
    },
  ]);
});

test('R01: a chart named by its folder, its values.yaml and a template is rendered once; a values-*.yaml beside Chart.yaml is one more -f', () => {
  const { dir, good } = monorepo();
  writeFileSync(join(good, 'values-prod.yaml'), 'livenessProbe:\n  successThreshold: 3\n');
  const result = run(dir, ['good', 'good/values.yaml', 'good/templates/deployment.yaml', 'good/values-prod.yaml', '--format', 'json']);
  const findings = (JSON.parse(result.stdout) as { findings: { rule: string; file: string; range: { start: { line: number } } }[] }).findings.filter((f) => f.rule === 'P12');
  assert.deepEqual(findings.map((f) => `${f.file}:${f.range.start.line + 1}`), ['good/values-prod.yaml:2']);
});

test('R09: no helm: one line on stderr, and the templates checked as written say (Y03) how to turn rendering on', () => {
  const { good } = monorepo();
  const result = runCli(['check', good, '--helm', join(good, 'no-helm'), '--kustomize', kubectl]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /^probe-lens: helm was not found at .*no-helm: charts are not rendered; install Helm 3 or 4, or pass --helm PATH\n$/);
  assert.match(result.stdout, /Y03 +document not checked: it is a Helm template .*Probe Lens renders its chart and checks the output once it can run helm \(none at .*no-helm; install Helm 3 or 4, or pass --helm PATH\)/);
});

test('E09: a patch named on its own is checked as its overlay builds it — the merged probe, not the fragment (no false "no handler")', () => {
  const { dir } = monorepo();
  writeFileSync(join(dir, 'deploy/prod/kustomization.yaml'), 'resources:\n  - ../base\npatches:\n  - path: probes.yaml\n');
  writeFileSync(join(dir, 'deploy/prod/probes.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: web\n      livenessProbe:\n        successThreshold: 3\n');
  const result = run(dir, ['deploy/prod/probes.yaml', '--format', 'json']);
  assert.equal(result.code, 1, result.stderr);
  const findings = (JSON.parse(result.stdout) as { findings: { rule: string; file: string; range: { start: { line: number } } }[] }).findings;
  assert.deepEqual(findings.filter((f) => f.file === 'deploy/prod/probes.yaml').map((f) => `${f.rule}:${f.range.start.line + 1}`), ['P12:9']);
  // Beside a kustomization that does not name it, a file is a manifest of its own.
  writeFileSync(join(dir, 'deploy/prod/kustomization.yaml'), 'resources:\n  - ../base\n');
  const alone = run(dir, ['deploy/prod/probes.yaml', '--format', 'json']);
  assert.ok((JSON.parse(alone.stdout) as { findings: { rule: string }[] }).findings.some((f) => f.rule === 'P01'), alone.stdout);
});
