import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkChart } from '../../../src/core/checkChart';
import { Helm } from '../../../src/core/render/helm/helm';
import { ProofMemo } from '../../../src/core/render/placement/proofMemo';
import type { Finding } from '../../../src/core/rules/types';
import { helmCreateChart, lineOf, replaceOnce } from '../../helpers/charts';
import { helms } from '../../helpers/renderers';

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
