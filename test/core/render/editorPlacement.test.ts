import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { checkChart } from '../../../src/core/checkChart';
import { checkOverlay } from '../../../src/core/checkOverlay';
import { Helm } from '../../../src/core/render/helm/helm';
import { Kustomize } from '../../../src/core/render/kustomize/kustomize';
import { ProofMemo } from '../../../src/core/render/placement/proofMemo';
import type { Finding } from '../../../src/core/rules/types';
import { helmCreateChart, lineOf, replaceOnce } from '../../helpers/charts';
import { helms, renderers } from '../../helpers/renderers';
import { scratchDir } from '../../helpers/scratch';

/** A real helm, its `template` runs counted (what a proof render costs is a second one). */
function countedHelm(path: string): { helm: Helm; renders: () => number } {
  const helm = new Helm({ path, namedBy: 'pass --helm PATH' });
  let renders = 0;
  const template = helm.template.bind(helm);
  helm.template = (...args) => ((renders += 1), template(...args));
  return { helm, renders: () => renders };
}

function places(root: string, findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.rule} ${f.file.slice(root.length + 1)}:${f.range.start.line + 1}:${f.range.start.character + 1} (${f.rendered?.placed})`);
}

const BROKEN_LIVENESS = {
  'values.yaml': replaceOnce('livenessProbe:\n  httpGet:\n    path: /\n    port: http\n', 'livenessProbe:\n  httpGet:\n    path: /\n    port: http\n  successThreshold: 2\n'),
};

for (const { label, path } of helms()) {
  describe(`the editor's renders of a chart (${label})`, () => {
    test('M07: a values edit renders once — the proof is recalled — and places every finding where a render without the memo does', async () => {
      const root = helmCreateChart(path, 'web', BROKEN_LIVENESS);
      const valuesFile = join(root, 'values.yaml');
      const values = readFileSync(valuesFile, 'utf8');
      const { helm, renders } = countedHelm(path);
      const memo = new ProofMemo();
      const first = await checkChart(root, { helm, memo, placeProbes: true });
      assert.ok(first.ok);
      assert.equal(renders(), 2, 'the first render and its proof render');
      // The user types successThreshold 2 → 3 in the buffer: the same places write the same fields.
      const edited = values.replace('successThreshold: 2', 'successThreshold: 3');
      const second = await checkChart(root, { helm, memo, placeProbes: true, unsaved: new Map([[valuesFile, edited]]) });
      assert.ok(second.ok);
      assert.equal(renders(), 3, 'one render for the edit: no proof render');
      assert.ok(memo.recalled > 0);
      const fresh = await checkChart(root, { helm: new Helm({ path, namedBy: '' }), placeProbes: true, unsaved: new Map([[valuesFile, edited]]) });
      assert.ok(fresh.ok);
      assert.deepEqual(places(root, second.value.findings), places(root, fresh.value.findings));
      assert.deepEqual(places(root, second.value.findings.filter((f) => f.rule === 'P12')), [`P12 values.yaml:${lineOf(edited, 'successThreshold: 3')}:21 (values)`]);
      assert.deepEqual(second.value.probes, fresh.value.probes);
    });

    test('M07: a template edit forgets the remembered proofs: the next render proves again', async () => {
      const root = helmCreateChart(path, 'web', BROKEN_LIVENESS);
      const { helm, renders } = countedHelm(path);
      const memo = new ProofMemo();
      assert.ok((await checkChart(root, { helm, memo })).ok);
      const template = join(root, 'templates/deployment.yaml');
      const text = readFileSync(template, 'utf8');
      const moved = await checkChart(root, { helm, memo, unsaved: new Map([[template, text.replace('imagePullPolicy:', '# a comment\n          imagePullPolicy:')]]) });
      assert.ok(moved.ok);
      assert.equal(renders(), 4, 'render and proof, twice');
    });

    test('M08: every probe is placed for the lenses: the values maps toYaml renders as the probes, on their keys', async () => {
      const root = helmCreateChart(path, 'web');
      const values = readFileSync(join(root, 'values.yaml'), 'utf8');
      const checked = await checkChart(root, { helm: new Helm({ path, namedBy: '' }), placeProbes: true });
      assert.ok(checked.ok);
      assert.deepEqual(
        checked.value.probes.map((p) => `${p.type} ${p.container} ${p.file.slice(root.length + 1)}:${p.range.start.line + 1} (${p.placed})`),
        [`liveness web values.yaml:${lineOf(values, 'livenessProbe:')} (values)`, `readiness web values.yaml:${lineOf(values, 'readinessProbe:')} (values)`],
      );
      assert.ok(checked.value.findings.every((f) => f.rule !== 'probe-place'), 'the questions never reach the findings');
    });

    test('M08: a probe written literally in a template is placed on its key there', async () => {
      const root = helmCreateChart(path, 'web', {
        'templates/deployment.yaml': replaceOnce('          {{- with .Values.readinessProbe }}\n          readinessProbe:\n            {{- toYaml . | nindent 12 }}\n          {{- end }}', '          readinessProbe:\n            tcpSocket:\n              port: http\n            periodSeconds: 5'),
      });
      const template = readFileSync(join(root, 'templates/deployment.yaml'), 'utf8');
      const checked = await checkChart(root, { helm: new Helm({ path, namedBy: '' }), placeProbes: true });
      assert.ok(checked.ok);
      const readiness = checked.value.probes.find((p) => p.type === 'readiness');
      assert.equal(`${readiness?.file.slice(root.length + 1)}:${(readiness?.range.start.line ?? -1) + 1} (${readiness?.placed})`, `templates/deployment.yaml:${lineOf(template, 'readinessProbe:')} (template)`);
    });
  });
}

describe("the editor's renders of an overlay", () => {
  /** A base with two probes and a prod overlay whose patch rewrites one: the fixture workspace's shape. */
  function overlay(): string {
    const root = scratchDir('probe-lens-overlay-places-');
    const probe = (key: string, path: string) => `          ${key}:\n            httpGet:\n              path: ${path}\n              port: http\n`;
    const files: Record<string, string> = {
      'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
      'base/deployment.yaml': `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n        - name: api\n          image: example/api:1.0\n          ports:\n            - name: http\n              containerPort: 8080\n${probe('readinessProbe', '/ready')}${probe('livenessProbe', '/healthz')}`,
      'prod/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  - path: probes.yaml\n',
      'prod/probes.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  template:\n    spec:\n      containers:\n        - name: api\n          livenessProbe:\n            successThreshold: 3\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  test('M08: a probe a patch rewrites is placed on the patch\'s key, one only the base writes on the base\'s — and asking where probes are moves no finding', async () => {
    const root = overlay();
    const kustomize = new Kustomize({ path: renderers().kubectl, namedBy: '' });
    const withProbes = await checkOverlay(join(root, 'prod'), { kustomize, placeProbes: true, memo: new ProofMemo() });
    const without = await checkOverlay(join(root, 'prod'), { kustomize });
    assert.ok(withProbes.ok && without.ok);
    // Both keys of the liveness probe were renamed in one proof render: its successThreshold was
    // found under either (it used to fall back to the workload's line).
    assert.deepEqual(places(root, withProbes.value.findings), ['P12 prod/probes.yaml:11:31 (patch)']);
    assert.deepEqual(places(root, withProbes.value.findings), places(root, without.value.findings));
    assert.deepEqual(
      withProbes.value.probes.map((p) => `${p.type} ${p.file.slice(root.length + 1)}:${p.range.start.line + 1} (${p.placed})`).sort(),
      ['liveness prod/probes.yaml:10 (patch)', 'readiness base/deployment.yaml:18 (resource)'],
    );
  });
});
