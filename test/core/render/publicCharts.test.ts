import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkChart } from '../../../src/core/checkChart';
import { Helm } from '../../../src/core/render/helm/helm';
import type { Finding } from '../../../src/core/rules/types';
import { lineOf } from '../../helpers/charts';
import { helms } from '../../helpers/renderers';
import { scratchDir } from '../../helpers/scratch';
import { experiment } from './experiment';

/**
 * Placement on a public chart as its authors wrote it (a reduction of podinfo, Apache-2.0, in
 * test/fixtures/charts/podinfo): each probe field read inside `with .Values.probes.liveness` as
 * `{{ .timeoutSeconds | default 5 }}`, so the template never names the values key it reads.
 */
const FIXTURE = 'test/fixtures/charts/podinfo';

function podinfo(): string {
  const root = join(scratchDir('probe-lens-podinfo-'), 'podinfo');
  cpSync(FIXTURE, root, { recursive: true });
  return root;
}

async function check(helm: string, root: string, valuesFiles: string[] = []): Promise<readonly Finding[]> {
  const outcome = await checkChart(root, { helm: new Helm({ path: helm, namedBy: 'pass --helm PATH' }), valuesFiles });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.failure.message);
  return outcome.value.findings;
}

for (const { label, path: helm } of helms()) {
  describe(`podinfo's chart (${label})`, () => {
    test('as published it has no finding', async () => {
      assert.deepEqual(await check(helm, podinfo()), []);
    });

    test('M01: a value read as `.timeoutSeconds` inside `with .Values.probes.liveness` is placed on the -f line that sets it, and the experiment agrees', async () => {
      const root = podinfo();
      const prod = join(scratchDir('probe-lens-podinfo-values-'), 'prod.yaml');
      writeFileSync(prod, '# production\nprobes:\n  liveness:\n    timeoutSeconds: 30\n  readiness:\n    timeoutSeconds: 30\n    periodSeconds: 20\n');
      const findings = (await check(helm, root, [prod])).filter((f) => f.rule === 'L12');
      assert.deepEqual(
        findings.map((f) => `${f.file === prod ? 'prod.yaml' : f.file}:${f.range.start.line + 1} ${f.rendered?.valuesKey}`),
        ['prod.yaml:4 probes.liveness.timeoutSeconds', 'prod.yaml:6 probes.readiness.timeoutSeconds'],
      );
      for (const finding of findings) {
        const outcome = await experiment(helm, root, finding, { valuesFiles: [prod] });
        assert.ok(outcome.changed, outcome.detail);
        assert.deepEqual(outcome.others, []);
      }
    });

    test('M01: the chart\'s own values.yaml when no -f sets it; the same key for two probes stays two places', async () => {
      const root = podinfo();
      const values = readFileSync(join(root, 'values.yaml'), 'utf8');
      const liveness = lineOf(values, '  liveness:');
      writeFileSync(join(root, 'values.yaml'), values.replace(/(  liveness:\n(?:    .*\n)*?)    successThreshold: 1\n/, '$1    successThreshold: 2\n'));
      const changed = readFileSync(join(root, 'values.yaml'), 'utf8');
      const p12 = (await check(helm, root)).filter((f) => f.rule === 'P12');
      assert.deepEqual(p12.map((f) => `${f.range.start.line + 1} ${f.rendered?.valuesKey}`), [`${lineOf(changed, 'successThreshold: 2', liveness)} probes.liveness.successThreshold`]);
      const outcome = await experiment(helm, root, p12[0] as Finding);
      assert.ok(outcome.changed, outcome.detail);
    });
  });
}
