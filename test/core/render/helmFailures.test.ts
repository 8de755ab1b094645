import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkChart } from '../../../src/core/checkChart';
import type { RenderBounds, RenderFailure } from '../../../src/core/render/failure';
import { Helm, parseHelmVersion } from '../../../src/core/render/helm/helm';
import { sourcesInDirectory } from '../../../src/core/render/renderSource';
import { helmCreateChart, lineOf, replaceOnce } from '../../helpers/charts';
import { helms } from '../../helpers/renderers';
import { scratchDir } from '../../helpers/scratch';

/**
 * Every way a render can fail ends in one failure value placed at the file and line the user
 * fixes — from the real helm's own words (Helm 4.1.4 and 3.17.2), never a crash or a hang.
 */

const helmAt = (path: string) => new Helm({ path, namedBy: 'pass --helm PATH' });

async function failureOf(helm: string, root: string, options: { valuesFiles?: string[]; bounds?: RenderBounds } = {}): Promise<RenderFailure> {
  const outcome = await checkChart(root, { helm: helmAt(helm), ...options });
  assert.ok(!outcome.ok, 'the render should have failed');
  return outcome.failure;
}

/** `kind file:line` with the file relative to the chart, 1-based line as helm and a CLI print it. */
function placeOf(root: string, failure: RenderFailure): string {
  const file = failure.file?.startsWith(root) ? failure.file.slice(root.length + 1) : failure.file;
  return `${failure.kind} ${file}:${(failure.line ?? -1) + 1}`;
}

/** No helm (nor anything it started) outlives a failed render. */
function helmProcessesUnder(root: string): string[] {
  const listing = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return listing.split('\n').filter((line) => line.includes(root) && line.includes(' template '));
}

for (const { label, path: helm } of helms()) {
  describe(`render failures, from ${label}'s own words`, () => {
    test(`R03: a template syntax error is one failure at the template's line (${label})`, async () => {
      const root = helmCreateChart(helm, 'web', { 'templates/broken.yaml': () => 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }\n' });
      const failure = await failureOf(helm, root);
      assert.equal(placeOf(root, failure), 'render-error templates/broken.yaml:4');
      assert.match(failure.message, /^helm template failed: /);
    });

    test(`R03: fail and required failing are one failure at the template's line and column, in the chart's words (${label})`, async () => {
      const failing = helmCreateChart(helm, 'web', { 'templates/guard.yaml': () => '{{- if not .Values.acceptTerms }}\n{{ fail "set acceptTerms=true to install" }}\n{{- end }}\n' });
      const failed = await failureOf(helm, failing);
      assert.equal(placeOf(failing, failed), 'render-error templates/guard.yaml:2');
      assert.equal(failed.character, 2, 'helm names column 3, 1-based');
      assert.match(failed.message, /set acceptTerms=true to install/);

      const requiring = helmCreateChart(helm, 'web', {
        'templates/deployment.yaml': replaceOnce('image: "{{ .Values.image.repository }}', 'image: "{{ required "image.registry is required" .Values.image.registry }}/{{ .Values.image.repository }}'),
      });
      const required = await failureOf(helm, requiring);
      assert.match(required.message, /image\.registry is required/);
      assert.equal(required.file, join(requiring, 'templates/deployment.yaml'));
      assert.ok((required.line ?? -1) > 0, 'on the line that requires it');
    });

    test(`R04: a dependency Chart.yaml declares but charts/ lacks is one failure at its entry, saying to run helm dependency build (${label})`, async () => {
      const root = helmCreateChart(helm, 'web', {
        'Chart.yaml': (text) => `${text}dependencies:\n  - name: redis\n    version: 20.x.x\n    repository: oci://registry-1.docker.io/bitnamicharts\n`,
      });
      const failure = await failureOf(helm, root);
      assert.equal(failure.kind, 'dependency-missing');
      assert.equal(failure.file, join(root, 'Chart.yaml'));
      assert.equal((failure.line ?? 0) + 1, lineOf(readFileSync(join(root, 'Chart.yaml'), 'utf8'), '- name: redis'));
      assert.match(failure.message, /"redis" is declared in Chart\.yaml but not in charts\/: run `helm dependency build .*web`/);
      assert.match(failure.message, /never fetches charts/);
    });

    test(`R05: a -f values file that is not YAML is one failure at its line (${label})`, async () => {
      const root = helmCreateChart(helm, 'web');
      const values = join(scratchDir('probe-lens-values-'), 'prod.yaml');
      writeFileSync(values, 'replicaCount: 2\nimage:\n  tag: [1.2\n');
      const failure = await failureOf(helm, root, { valuesFiles: [values] });
      assert.equal(failure.kind, 'render-error');
      assert.equal(failure.file, values);
      assert.match(failure.message, /a values file does not read as YAML/);
      assert.ok(failure.line !== undefined && failure.line >= 2, `at the broken line, not ${failure.line}`);
    });

    test(`R05: the chart's own values.yaml that is not YAML is one failure at its line (${label})`, async () => {
      const root = helmCreateChart(helm, 'web', { 'values.yaml': (text) => `${text}broken: [\n` });
      const failure = await failureOf(helm, root);
      assert.equal(failure.kind, 'render-error');
      assert.equal(failure.file, join(root, 'values.yaml'));
      assert.match(failure.message, /the chart's values\.yaml does not read as YAML/);
      const lines = readFileSync(join(root, 'values.yaml'), 'utf8').split('\n').length;
      assert.ok(failure.line !== undefined && failure.line >= lines - 3, `near the end, where the break is (line ${(failure.line ?? 0) + 1} of ${lines})`);
    });

    test(`R06: values against the chart's values.schema.json are one failure on values.yaml naming what the schema says (${label})`, async () => {
      const root = helmCreateChart(helm, 'web', {
        'values.schema.json': () => JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { replicaCount: { type: 'integer' } } }),
        'values.yaml': replaceOnce('replicaCount: 1', 'replicaCount: one'),
      });
      const failure = await failureOf(helm, root);
      assert.equal(placeOf(root, failure), 'render-error values.yaml:1');
      assert.match(failure.message, /values\.schema\.json: .*replicaCount/);
    });

    test(`R07: a template that never finishes ends at the timeout, and no helm outlives it (${label})`, async () => {
      const root = helmCreateChart(helm, 'web', {
        'templates/spin.yaml': () => '{{- range $i := until 100000 }}{{- range $j := until 100000 }}{{- end }}{{- end }}\n',
      });
      const started = Date.now();
      const failure = await failureOf(helm, root, { bounds: { timeoutMs: 1500, maxOutputBytes: 8 << 20 } });
      assert.equal(failure.kind, 'timed-out');
      assert.match(failure.message, /did not finish within 1\.5 s/);
      assert.ok(Date.now() - started < 15_000, 'ended near its bound');
      assert.deepEqual(helmProcessesUnder(root), []);
    });

    test(`R07: output beyond the bound is one too-large failure, not a check of a partial manifest (${label})`, async () => {
      const root = helmCreateChart(helm, 'web', {
        'templates/big.yaml': () => 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n{{- range $i := until 40000 }}\n  k{{ $i }}: "{{ repeat 40 "x" }}"\n{{- end }}\n',
      });
      const failure = await failureOf(helm, root, { bounds: { timeoutMs: 30_000, maxOutputBytes: 1 << 20 } });
      assert.equal(placeOf(root, failure), 'too-large Chart.yaml:1');
      assert.match(failure.message, /more than 1 MB/);
    });

    test(`R08: a symbolic link loop in the chart is one failure at the link, not helm's ever-longer path (${label})`, async () => {
      const root = helmCreateChart(helm, 'web');
      symlinkSync('.', join(root, 'templates', 'loop'));
      const failure = await failureOf(helm, root);
      assert.equal(placeOf(root, failure), 'unreadable templates/loop:1');
      assert.match(failure.message, /symbolic link loop \(templates\/loop points back at a folder that holds it\)/);
    });

    test(`R10: a values file given as a URL is refused before helm runs: rendering never reaches the network (${label})`, async () => {
      const root = helmCreateChart(helm, 'web');
      const failure = await failureOf(helm, root, { valuesFiles: ['https://example.com/values.yaml'] });
      assert.equal(failure.kind, 'refused');
      assert.match(failure.message, /is a URL: Probe Lens renders offline/);
    });
  });
}

describe('R07: a render that prints 50 MB', () => {
  test('R07: 55 MB of output under the default bounds is one too-large failure, helm drained and gone', async () => {
    const helm = helms()[0]?.path as string;
    const root = helmCreateChart(helm, 'web', {
      'templates/huge.yaml': () => 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\ndata:\n{{- range $i := until 550000 }}\n  k{{ $i }}: "{{ repeat 90 "x" }}"\n{{- end }}\n',
    });
    const failure = await failureOf(helm, root);
    assert.equal(failure.kind, 'too-large');
    assert.match(failure.message, /more than 8 MB: too large to check/);
    assert.deepEqual(helmProcessesUnder(root), []);
  });
});

describe('R09: which helm, and when there is none', () => {
  test('R09: a helm that is not there is renderer-missing, saying how to name one', async () => {
    const root = scratchDir('probe-lens-chart-');
    writeFileSync(join(root, 'Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
    const outcome = await checkChart(root, { helm: helmAt(join(root, 'no-such-helm')) });
    assert.ok(!outcome.ok);
    assert.equal(outcome.failure.kind, 'renderer-missing');
    assert.match(outcome.failure.message, /^helm was not found at .*no-such-helm: charts are not rendered; install Helm 3 or 4, or pass --helm PATH$/);
  });

  test('R09: a program that does not answer `helm version` like helm is renderer-unsupported, with what it said', async () => {
    const outcome = await helmAt('/bin/echo').versionOf();
    assert.ok(!outcome.ok);
    assert.equal(outcome.failure.kind, 'renderer-unsupported');
    assert.match(outcome.failure.message, /"\/bin\/echo" does not answer `helm version` like helm: version --short/);
  });

  test('R09: versions as helm prints them: Helm 4 and 3 render; Helm 2 (Client: …, then no Tiller) is refused', () => {
    assert.deepEqual(parseHelmVersion('v4.1.4+g05fa379\n'), { major: 4, text: 'v4.1.4' });
    assert.deepEqual(parseHelmVersion('v3.17.2+gcc0bbbd\n'), { major: 3, text: 'v3.17.2' });
    assert.deepEqual(parseHelmVersion('Client: v2.17.0+ga690bad\nError: could not find tiller\n'), { major: 2, text: 'v2.17.0' });
    assert.equal(parseHelmVersion('kustomize v5.7.1'), undefined);
  });

  test('R09: the real helms answer as parsed', async () => {
    for (const { path } of helms()) {
      const version = await helmAt(path).versionOf();
      assert.ok(version.ok && version.value.major >= 3, JSON.stringify(version));
    }
  });
});

describe('R11: a directory that is neither a chart nor an overlay', () => {
  test('R11: is one failure naming what it looked for', () => {
    const dir = scratchDir('probe-lens-empty-');
    mkdirSync(join(dir, 'docs'));
    const found = sourcesInDirectory(dir);
    assert.ok(!found.ok);
    assert.equal(found.failure.kind, 'unreadable');
    assert.match(found.failure.message, /^neither a Helm chart \(no Chart.yaml\) nor a kustomize overlay \(no kustomization.yaml\), and none within 6 levels below$/);
    assert.equal(found.failure.file, dir);
  });
});
