import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { sourceOfFile, sourcesInDirectory } from '../../../src/core/render/renderSource';
import { scratchDir } from '../../helpers/scratch';

/** Which charts and overlays a path names (docs/spec/rendering.md R01, R02). */

function tree(files: readonly string[]): string {
  const root = scratchDir('probe-lens-sources-');
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), file.endsWith('Chart.yaml') ? 'apiVersion: v2\nname: x\nversion: 0.1.0\n' : 'resources: []\n');
  }
  return root;
}

test('R02: a folder is every chart and overlay below it, not descending into one found, skipping node_modules, .git and vendor', () => {
  const root = tree([
    'charts/web/Chart.yaml',
    'charts/web/charts/redis/Chart.yaml',
    'deploy/overlays/prod/kustomization.yaml',
    'node_modules/some-chart/Chart.yaml',
    '.git/x/kustomization.yaml',
    'vendor/y/Chart.yaml',
    'a/b/c/d/e/f/Chart.yaml',
    'a/b/c/d/e/f/g/Chart.yaml',
  ]);
  const found = sourcesInDirectory(root);
  assert.ok(found.ok);
  assert.deepEqual(
    found.sources.map((s) => `${s.kind} ${s.root.slice(root.length + 1)}`),
    ['chart a/b/c/d/e/f', 'chart charts/web', 'overlay deploy/overlays/prod'],
  );
});

test('R02: a folder that is a chart is itself; a symbolic link loop below a folder ends', () => {
  const root = tree(['web/Chart.yaml', 'web/templates/x.yaml']);
  const itself = sourcesInDirectory(join(root, 'web'));
  assert.ok(itself.ok);
  assert.deepEqual(itself.sources, [{ kind: 'chart', root: join(root, 'web') }]);
  const looped = tree(['deep/overlay/kustomization.yaml']);
  symlinkSync('..', join(looped, 'deep', 'up'));
  const found = sourcesInDirectory(looped);
  assert.ok(found.ok);
  assert.deepEqual(found.sources.map((s) => s.root), [join(looped, 'deep/overlay')]);
});

test('R01: a file names its outermost chart (Chart.yaml, values*.yaml, any template, a subchart\'s files) or its overlay; other files are plain', () => {
  const root = tree(['web/Chart.yaml', 'web/values.yaml', 'web/values-prod.yaml', 'web/templates/deployment.yaml', 'web/charts/redis/Chart.yaml', 'web/charts/redis/templates/svc.yaml', 'ov/kustomization.yaml', 'ov/patch.yaml', 'plain.yaml']);
  const chart = { kind: 'chart', root: join(root, 'web') };
  for (const file of ['web/Chart.yaml', 'web/values.yaml', 'web/values-prod.yaml', 'web/templates/deployment.yaml', 'web/charts/redis/templates/svc.yaml', 'web/charts/redis/Chart.yaml']) assert.deepEqual(sourceOfFile(join(root, file)), chart, file);
  assert.deepEqual(sourceOfFile(join(root, 'ov/kustomization.yaml')), { kind: 'overlay', root: join(root, 'ov') });
  assert.equal(sourceOfFile(join(root, 'ov/patch.yaml')), undefined, 'a patch is a fragment: checked through its overlay, not alone');
  assert.equal(sourceOfFile(join(root, 'plain.yaml')), undefined);
});
