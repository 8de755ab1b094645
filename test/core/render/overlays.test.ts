import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { checkOverlay } from '../../../src/core/checkOverlay';
import type { RenderFailure } from '../../../src/core/render/failure';
import { isRemoteReference } from '../../../src/core/render/kustomize/kustomizationFile';
import { Kustomize } from '../../../src/core/render/kustomize/kustomize';
import type { Finding } from '../../../src/core/rules/types';
import { lineOf } from '../../helpers/charts';
import { renderers } from '../../helpers/renderers';
import { scratchDir } from '../../helpers/scratch';
import { overlayExperiment } from './experiment';

/**
 * Overlays built by the real kubectl (1.35.2, kustomize 5.7.1), each finding placed on the line
 * of the base resource or the patch that writes it, proven by a sentinel build — and the
 * experiment (change that text, build again) agreeing.
 */

const kubectl = renderers().kubectl;
const kustomize = new Kustomize({ path: kubectl, namedBy: 'pass --kustomize PATH' });

/** A tree of files (relative path → text) in a scratch folder. */
function tree(files: Readonly<Record<string, string>>): string {
  const root = scratchDir('probe-lens-overlay-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const BASE_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 8080
              name: http
          readinessProbe:
            httpGet:
              path: /ready
              port: http
            periodSeconds: 10
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
            timeoutSeconds: 3
`;

const BASE = {
  'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
  'base/deployment.yaml': BASE_DEPLOYMENT,
};

async function checked(root: string, overlay: string, unsaved?: ReadonlyMap<string, string>): Promise<readonly Finding[]> {
  const outcome = await checkOverlay(join(root, overlay), { kustomize, ...(unsaved ? { unsaved } : {}) });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.failure.message);
  return outcome.value.findings;
}

async function failureOf(root: string, overlay: string): Promise<RenderFailure> {
  const outcome = await checkOverlay(join(root, overlay), { kustomize });
  assert.ok(!outcome.ok, 'the build should have failed');
  return outcome.failure;
}

function places(root: string, findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.rule} ${f.file.slice(root.length + 1)}:${f.range.start.line + 1}:${f.range.start.character + 1} (${f.rendered?.placed ?? 'not rendered'})`);
}

describe('overlays built by kubectl kustomize, each finding where it is fixed', () => {
  test('K01: a literal in the base resource is placed on its line there; the rendered location names the resource', async () => {
    const root = tree({
      ...BASE,
      'base/deployment.yaml': BASE_DEPLOYMENT.replace('            timeoutSeconds: 3\n', '            timeoutSeconds: 30\n'),
      'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\nnamePrefix: prod-\n',
    });
    const findings = (await checked(root, 'overlays/prod')).filter((f) => f.rule === 'L12');
    const base = readFileSync(join(root, 'base/deployment.yaml'), 'utf8');
    assert.deepEqual(places(root, findings), [`L12 base/deployment.yaml:${lineOf(base, 'timeoutSeconds: 30')}:29 (resource)`]);
    assert.equal(findings[0]?.rendered?.source, '../../base/deployment.yaml');
    assert.equal(findings[0]?.rendered?.path, 'spec.template.spec.containers[0].livenessProbe.timeoutSeconds');
    const outcome = await overlayExperiment(kubectl, root, join(root, 'overlays/prod'), findings[0] as Finding);
    assert.ok(outcome.changed, outcome.detail);
    assert.deepEqual(outcome.others, []);
  });

  test('K01: a value a patch sets wins over the base: the finding is on the patch line, and the fix moves there', async () => {
    const root = tree({
      ...BASE,
      'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\npatches:\n  - path: probes.yaml\n',
      'overlays/prod/probes.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n        - name: web\n          livenessProbe:\n            successThreshold: 2\n',
    });
    const findings = (await checked(root, 'overlays/prod')).filter((f) => f.rule === 'P12');
    assert.deepEqual(places(root, findings), ['P12 overlays/prod/probes.yaml:11:31 (patch)']);
    assert.deepEqual(findings[0]?.fixes?.[0]?.edits, [{ range: { start: { line: 10, character: 30 }, end: { line: 10, character: 31 } }, newText: '1' }]);
    const outcome = await overlayExperiment(kubectl, root, join(root, 'overlays/prod'), findings[0] as Finding);
    assert.ok(outcome.changed, outcome.detail);
  });

  test('K01: a whole probe (L14, liveness identical to readiness) is placed on the probe key of the file that writes it', async () => {
    const root = tree({
      ...BASE,
      'base/deployment.yaml': BASE_DEPLOYMENT.replace('              path: /healthz\n', '              path: /ready\n').replace('            timeoutSeconds: 3\n', ''),
      'overlays/dev/kustomization.yaml': 'resources:\n  - ../../base\n',
    });
    const base = readFileSync(join(root, 'base/deployment.yaml'), 'utf8');
    const findings = (await checked(root, 'overlays/dev')).filter((f) => f.rule === 'L14');
    assert.deepEqual(places(root, findings), [`L14 base/deployment.yaml:${lineOf(base, 'livenessProbe:')}:11 (resource)`]);
    const outcome = await overlayExperiment(kubectl, root, join(root, 'overlays/dev'), findings[0] as Finding);
    assert.ok(outcome.changed, outcome.detail);
  });

  test('K01, M03: a probe a container lacks (L30) is placed on its name: line — also when `- image:` opens the item, as kubectl create writes it', async () => {
    const deployment = BASE_DEPLOYMENT.replace('        - name: web\n          image: nginx:1.27\n', '        - image: nginx:1.27\n          name: web\n').replace(/          readinessProbe:\n(?: {12}.*\n)+?(?=          livenessProbe:)/, '');
    const root = tree({
      'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n  - service.yaml\n',
      'base/deployment.yaml': deployment,
      'base/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n    - port: 80\n      targetPort: http\n',
      'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\nnamePrefix: prod-\n',
    });
    const findings = (await checked(root, 'overlays/prod')).filter((f) => f.rule === 'L30');
    assert.deepEqual(places(root, findings), [`L30 base/deployment.yaml:${lineOf(deployment, '          name: web')}:11 (resource)`]);
  });

  test('K01: a value only a JSON 6902 patch writes cannot be proven: the workload line of the resource, the render quoted', async () => {
    const root = tree({
      ...BASE,
      'overlays/prod/kustomization.yaml':
        'resources:\n  - ../../base\npatches:\n  - target: {kind: Deployment, name: web}\n    patch: |-\n      - op: replace\n        path: /spec/template/spec/containers/0/livenessProbe/timeoutSeconds\n        value: 30\n',
    });
    const findings = (await checked(root, 'overlays/prod')).filter((f) => f.rule === 'L12');
    assert.deepEqual(places(root, findings), ['L12 base/deployment.yaml:2:1 (workload)']);
    assert.match(findings[0]?.message ?? '', /\(rendered as `timeoutSeconds: 30` at spec\.template\.spec\.containers\[0\]\.livenessProbe\.timeoutSeconds; the place in the overlay that writes it could not be proven\)$/);
    assert.equal(findings[0]?.fixes, undefined, 'a fix of rendered text no one keeps is not offered');
  });

  test('K01: unsaved text of a base file is what is built (a copy holds it; the user\'s files are untouched)', async () => {
    const root = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n' });
    assert.deepEqual((await checked(root, 'overlays/prod')).filter((f) => f.rule === 'P12'), []);
    const file = join(root, 'base/deployment.yaml');
    const edited = BASE_DEPLOYMENT.replace('            timeoutSeconds: 3\n', '            timeoutSeconds: 3\n            successThreshold: 3\n');
    const findings = (await checked(root, 'overlays/prod', new Map([[file, edited]]))).filter((f) => f.rule === 'P12');
    assert.deepEqual(places(root, findings), [`P12 base/deployment.yaml:${lineOf(edited, 'successThreshold: 3')}:31 (resource)`]);
    assert.equal(readFileSync(file, 'utf8'), BASE_DEPLOYMENT);
  });
});

describe('overlay failures, each at the line that causes it', () => {
  test('K02: a remote base is refused at its line before kubectl runs: nothing reaches the network', async () => {
    const root = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n  - github.com/kubernetes-sigs/kustomize/examples/multibases?ref=v1.0.6\n' });
    const failure = await failureOf(root, 'overlays/prod');
    assert.equal(failure.kind, 'refused');
    assert.equal(failure.file, join(root, 'overlays/prod/kustomization.yaml'));
    assert.equal(failure.line, 2);
    assert.match(failure.message, /is remote: Probe Lens builds overlays offline and never fetches a base/);
  });

  test('K02: what kustomize would fetch, as its repospec reads it; local paths are not', () => {
    for (const remote of ['https://github.com/org/repo//deploy?ref=v1', 'git@github.com:org/repo.git', 'github.com/org/repo/deploy?ref=main', 'gitlab.com/org/repo/base', 'ssh://git@host/repo', 'git::https://host/repo']) assert.ok(isRemoteReference(remote), remote);
    for (const local of ['../base', 'deployment.yaml', 'components/redis', './a.b/c']) assert.ok(!isRemoteReference(local), local);
  });

  test('K03: a base that does not exist is one failure at the line naming it', async () => {
    const root = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n  - ../../missing\n' });
    const failure = await failureOf(root, 'overlays/prod');
    assert.equal(failure.kind, 'unreadable');
    assert.deepEqual([failure.file, failure.line, failure.character], [join(root, 'overlays/prod/kustomization.yaml'), 2, 4]);
    assert.match(failure.message, /^resources entry \.\.\/\.\.\/missing does not exist/);
  });

  test('K03: a patch file that does not exist, and a base that builds on itself, are each one failure at their line', async () => {
    const patch = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\npatches:\n  - path: gone.yaml\n' });
    const missing = await failureOf(patch, 'overlays/prod');
    assert.deepEqual([missing.line, missing.kind], [3, 'unreadable']);
    assert.match(missing.message, /patches\[\]\.path entry gone\.yaml does not exist/);
    const cycle = tree({ 'a/kustomization.yaml': 'resources:\n  - ../b\n', 'b/kustomization.yaml': 'resources:\n  - ../a\n' });
    const cycled = await failureOf(cycle, 'a');
    assert.equal(cycled.file, join(cycle, 'b/kustomization.yaml'));
    assert.match(cycled.message, /builds on itself: a cycle/);
  });

  test('K04: helmCharts is refused at its key: it would run helm inside kustomize and may fetch the chart', async () => {
    const root = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\nhelmCharts:\n  - name: redis\n    repo: https://charts.bitnami.com/bitnami\n' });
    const failure = await failureOf(root, 'overlays/prod');
    assert.deepEqual([failure.kind, failure.line], ['refused', 2]);
    assert.match(failure.message, /helmCharts needs kustomize --enable-helm/);
  });

  test('K05: a kustomization that is not YAML is one failure at its line; one kustomize refuses is kubectl\'s own words', async () => {
    const broken = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\npatches: [\n' });
    const failure = await failureOf(broken, 'overlays/prod');
    assert.equal(failure.kind, 'render-error');
    assert.match(failure.message, /the kustomization does not read as YAML/);
    assert.ok((failure.line ?? 0) >= 2);

    const unknown = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\nnamePrefx: prod-\n' });
    const refused = await failureOf(unknown, 'overlays/prod');
    assert.equal(refused.kind, 'render-error');
    assert.match(refused.message, /^kubectl kustomize failed: invalid Kustomization: json: unknown field "namePrefx"/);
    assert.deepEqual([refused.file, refused.line], [join(unknown, 'overlays/prod/kustomization.yaml'), 2]);
  });

  test('K06: no kubectl is renderer-missing, saying how to name one', async () => {
    const root = tree({ ...BASE, 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n' });
    const outcome = await checkOverlay(join(root, 'overlays/prod'), { kustomize: new Kustomize({ path: join(root, 'no-kubectl'), namedBy: 'pass --kustomize PATH' }) });
    assert.ok(!outcome.ok);
    assert.equal(outcome.failure.kind, 'renderer-missing');
    assert.match(outcome.failure.message, /was not found at .*no-kubectl: overlays are not built; install kubectl \(or kustomize\), or pass --kustomize PATH/);
  });
});

describe('M06: a proof build that fails is halved', () => {
  test('M06: a JSON patch that a probe-key rename breaks costs that finding its proof, not the other documents theirs', async () => {
    const api = BASE_DEPLOYMENT.replace(/web/g, 'api').replace('            timeoutSeconds: 3\n', '            timeoutSeconds: 30\n');
    const web = BASE_DEPLOYMENT.replace('              path: /healthz\n', '              path: /ready\n').replace('            timeoutSeconds: 3\n', '');
    const root = tree({
      'base/kustomization.yaml': 'resources:\n  - web.yaml\n  - api.yaml\n',
      'base/web.yaml': web,
      'base/api.yaml': api,
      // Renaming web's livenessProbe key (the proof of L14's place) leaves this patch no path to replace.
      'overlays/prod/kustomization.yaml':
        'resources:\n  - ../../base\npatches:\n  - target: {kind: Deployment, name: web}\n    patch: |-\n      - op: replace\n        path: /spec/template/spec/containers/0/livenessProbe/httpGet/path\n        value: /ready\n',
    });
    const findings = await checked(root, 'overlays/prod');
    assert.deepEqual(places(root, findings.filter((f) => f.rule === 'L12' || f.rule === 'L14')).sort(), [
      `L12 base/api.yaml:${lineOf(api, 'timeoutSeconds: 30')}:29 (resource)`,
      'L14 base/web.yaml:2:1 (workload)',
    ]);
  });
});
