/** The kubeconfig's contexts through the real `kubectl config view -o json`, and the cluster's /version read. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseContexts, readContexts, readVersion } from '../../../src/core/kubeclient/kubeContexts';
import { KUBECTL, requireKubectl } from '../../fixtures/apiserver';
import { scratchDir } from '../../helpers/scratch';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster: {server: 'https://10.0.0.1:6443'}
- name: kind
  cluster: {server: 'https://127.0.0.1:6443'}
users:
- name: admin
  user: {token: secret-token}
contexts:
- name: prod-shop
  context: {cluster: prod, user: admin, namespace: shop}
- name: kind-dev
  context: {cluster: kind, user: admin}
current-context: kind-dev
`;

test('readContexts: names, namespaces, clusters, users and the current context, through kubectl', { timeout: 30_000 }, async () => {
  requireKubectl();
  const dir = scratchDir('probe-lens-contexts-');
  const path = join(dir, 'config');
  writeFileSync(path, KUBECONFIG);
  const result = await readContexts({ path: KUBECTL, env: { ...process.env, KUBECONFIG: path } });
  assert.deepEqual(result, {
    ok: true,
    value: {
      contexts: [
        { name: 'kind-dev', cluster: 'kind', user: 'admin' },
        { name: 'prod-shop', namespace: 'shop', cluster: 'prod', user: 'admin' },
      ].sort((a, b) => (a.name < b.name ? -1 : 1)),
      current: 'kind-dev',
    },
  });
});

test('readContexts: no kubeconfig at all is no contexts, not an error', { timeout: 30_000 }, async () => {
  requireKubectl();
  const dir = scratchDir('probe-lens-contexts-');
  const result = await readContexts({ path: KUBECTL, env: { ...process.env, KUBECONFIG: join(dir, 'missing') } });
  assert.deepEqual(result, { ok: true, value: { contexts: [] } });
});

test('readContexts: kubectl missing is kind kubectl-missing', { timeout: 30_000 }, async () => {
  const result = await readContexts({ path: '/nonexistent/kubectl' });
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.equal(result.error.kind, 'kubectl-missing');
});

test('readContexts: a kubeconfig that is not YAML is kubectl\'s complaint, classified', { timeout: 30_000 }, async () => {
  requireKubectl();
  const dir = scratchDir('probe-lens-contexts-');
  const path = join(dir, 'config');
  writeFileSync(path, 'contexts: [\n');
  const result = await readContexts({ path: KUBECTL, env: { ...process.env, KUBECONFIG: path } });
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(result.error.sentence, /\.$/);
  assert.ok(result.error.detail.length > 0);
});

test('parseContexts skips entries without a name and ignores what is not a kubeconfig', () => {
  assert.deepEqual(parseContexts('{"contexts":[{"context":{}},{"name":"a","context":null}],"current-context":""}'), { contexts: [{ name: 'a' }] });
  assert.equal(parseContexts('[oops'), undefined);
  assert.equal(parseContexts('42'), undefined);
});

test('readVersion: "29+" is minor 29; an empty minor falls back to gitVersion', () => {
  assert.deepEqual(readVersion({ major: '1', minor: '29+', gitVersion: 'v1.29.4-gke.100' }), { major: 1, minor: 29, gitVersion: 'v1.29.4-gke.100' });
  assert.deepEqual(readVersion({ major: '1', minor: '32', gitVersion: 'v1.32.0' }), { major: 1, minor: 32, gitVersion: 'v1.32.0' });
  assert.deepEqual(readVersion({ major: '', minor: '', gitVersion: 'v1.30.2+k3s1' }), { major: 1, minor: 30, gitVersion: 'v1.30.2+k3s1' });
  assert.equal(readVersion({ gitVersion: 'unknown' }), undefined);
  assert.equal(readVersion(null), undefined);
});
