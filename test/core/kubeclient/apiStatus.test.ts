/**
 * HTTP failures through kubectl proxy, read for people: the API server's Status bodies (worded as
 * the real API server words them) and kubectl proxy's own plain-text answers (quoted from real
 * runs of kubectl proxy 1.32: `dial tcp 127.0.0.1:1: connect: connection refused`, the credential
 * plugin's paragraph, the filter's `Forbidden`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerMalformed, answerTooLarge, apiTimedOut, httpFailure, parseStatus, proxyUnreachable } from '../../../src/core/kubeclient/apiStatus';
import type { KubectlErrorKind } from '../../../src/core/kubeclient/kubectlErrors';

const status = (code: number, reason: string, message: string) => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
const PODS = '/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb';
const EXEC = '/api/v1/namespaces/shop/pods/web-1/exec?command=cat&command=%2Ftmp%2Fhealthy&container=web&stdout=true&stderr=true';
const PORT_FORWARD = '/api/v1/namespaces/shop/pods/web-1/portforward?ports=8080';

interface Case {
  readonly name: string;
  readonly status: number;
  readonly body: string;
  readonly path: string;
  readonly kind: KubectlErrorKind;
  readonly sentence: string;
}

const CASES: readonly Case[] = [
  {
    name: '500 on a port-forward: the API server could not dial the node\'s kubelet (no reason, as ErrorToAPIStatus makes it)',
    status: 500,
    body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'error dialing backend: dial tcp 172.18.0.3:10250: i/o timeout', code: 500 }),
    path: PORT_FORWARD,
    kind: 'unreachable',
    sentence: "the API server could not reach the kubelet of the pod's node (error dialing backend: dial tcp 172.18.0.3:10250: i/o timeout): its port 10250 is filtered from the control plane or the node is down; kubectl exec, port-forward and logs fail the same way.",
  },
  {
    name: '401 from the API server: the token expired or is wrong',
    status: 401,
    body: status(401, 'Unauthorized', 'Unauthorized'),
    path: PODS,
    kind: 'unauthorised',
    sentence: "the cluster did not accept kubectl's credentials (Unauthorized): log in again, or refresh the credentials in your kubeconfig.",
  },
  {
    name: '403 RBAC on port-forward: who may not do what',
    status: 403,
    body: status(403, 'Forbidden', 'pods "web-1" is forbidden: User "jane" cannot create resource "pods/portforward" in API group "" in the namespace "shop"'),
    path: PORT_FORWARD,
    kind: 'forbidden',
    sentence: 'user "jane" may not create pods/portforward (port-forward to pods) in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.',
  },
  {
    name: '403 RBAC on listing pods',
    status: 403,
    body: status(403, 'Forbidden', 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "shop"'),
    path: PODS,
    kind: 'forbidden',
    sentence: 'user "jane" may not list pods in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.',
  },
  {
    name: '403 RBAC on exec (a Status: the API server, not the proxy)',
    status: 403,
    body: status(403, 'Forbidden', 'pods "web-1" is forbidden: User "jane" cannot create resource "pods/exec" in API group "" in the namespace "shop"'),
    path: EXEC,
    kind: 'forbidden',
    sentence: 'user "jane" may not create pods/exec (run commands in pods) in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.',
  },
  {
    name: '403 from kubectl proxy\'s own filter on exec (plain text `Forbidden`): exec was not allowed',
    status: 403,
    body: 'Forbidden\n',
    path: EXEC,
    kind: 'forbidden',
    sentence: "exec probes run commands in your container and were not allowed for this session (use --allow-exec, or the extension's consent).",
  },
  {
    name: '403 from kubectl proxy\'s filter elsewhere: a bug of ours',
    status: 403,
    body: 'Forbidden\n',
    path: PODS,
    kind: 'forbidden',
    sentence: "kubectl proxy refused /api/v1/namespaces/shop/pods (Forbidden): this is Probe Lens's own proxy, so report it as a bug.",
  },
  {
    name: '404 a pod by name',
    status: 404,
    body: status(404, 'NotFound', 'pods "web-1" not found'),
    path: PORT_FORWARD,
    kind: 'not-found',
    sentence: 'the cluster has no pod "web-1": apply the manifest, or check the namespace it is looked for in.',
  },
  {
    name: '404 the namespace',
    status: 404,
    body: status(404, 'NotFound', 'namespaces "shop" not found'),
    path: PODS,
    kind: 'namespace-not-found',
    sentence: 'namespace "shop" does not exist in the cluster: create it, or correct the manifest\'s metadata.namespace.',
  },
  {
    name: '404 a path the server does not serve',
    status: 404,
    body: status(404, 'NotFound', 'the server could not find the requested resource'),
    path: '/apis/events.k8s.io/v1/namespaces/shop/events',
    kind: 'not-found',
    sentence: 'the cluster does not serve /apis/events.k8s.io/v1/namespaces/shop/events (the server could not find the requested resource): its Kubernetes version may be too old for Probe Lens.',
  },
  {
    name: '500 from kubectl proxy: the API server refuses connections (its exact text)',
    status: 500,
    body: 'dial tcp 127.0.0.1:1: connect: connection refused\n',
    path: PODS,
    kind: 'unreachable',
    sentence: "kubectl cannot reach the cluster at 127.0.0.1:1 (connection refused): check that the cluster is running and that kubectl's current context is the right one.",
  },
  {
    name: '500 from kubectl proxy on an upgrade (exec, port-forward) with the API server down',
    status: 500,
    body: 'error dialing backend: dial tcp 127.0.0.1:1: connect: connection refused\n',
    path: PORT_FORWARD,
    kind: 'unreachable',
    sentence: "kubectl cannot reach the cluster at 127.0.0.1:1 (connection refused): check that the cluster is running and that kubectl's current context is the right one.",
  },
  {
    name: '500 from kubectl proxy: no such host',
    status: 500,
    body: 'dial tcp: lookup nonexistent.invalid on 10.255.255.53:53: no such host\n',
    path: PODS,
    kind: 'unreachable',
    sentence: "kubectl cannot reach the cluster at nonexistent.invalid (no host is named nonexistent.invalid): check that the cluster is running and that kubectl's current context is the right one.",
  },
  {
    name: '500 from kubectl proxy: the credential plugin is missing (its paragraph of advice is not the sentence)',
    status: 500,
    body: 'getting credentials: exec: executable no-such-plugin not found\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n\nTo learn more about this feature, consult the documentation available at:\n      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins\n',
    path: PODS,
    kind: 'unauthorised',
    sentence: 'kubectl could not get credentials from the credential plugin its kubeconfig names (exec: executable no-such-plugin not found): install that plugin, or log in with it again.',
  },
  {
    name: '500 from kubectl proxy: the server certificate is not trusted',
    status: 500,
    body: 'tls: failed to verify certificate: x509: certificate signed by unknown authority\n',
    path: PODS,
    kind: 'certificate',
    sentence: "kubectl does not trust the cluster (x509: certificate signed by unknown authority): refresh the cluster's certificate data in your kubeconfig.",
  },
  {
    name: '500 Status from the API server: its message, not a JSON dump',
    status: 500,
    body: status(500, 'InternalError', 'Internal error occurred: error dialing backend: dial tcp 10.0.0.5:10250: i/o timeout'),
    path: EXEC,
    kind: 'unknown',
    sentence: 'the cluster answered 500 (InternalError: Internal error occurred: error dialing backend: dial tcp 10.0.0.5:10250: i/o timeout).',
  },
  {
    name: '503 Status: the API server is starting',
    status: 503,
    body: status(503, 'ServiceUnavailable', 'the server is currently unable to handle the request'),
    path: PODS,
    kind: 'unreachable',
    sentence: "the cluster's API server is not ready (ServiceUnavailable: the server is currently unable to handle the request): wait for it to start, then try again.",
  },
  {
    name: '504 Status: a timeout on the server side',
    status: 504,
    body: status(504, 'Timeout', 'the server was unable to return a response in the time allotted'),
    path: PODS,
    kind: 'timeout',
    sentence: 'the cluster did not answer in time (Timeout: the server was unable to return a response in the time allotted): check your network or VPN, and that the cluster is running.',
  },
  {
    name: '400 Status: its reason and message',
    status: 400,
    body: status(400, 'BadRequest', 'unable to upgrade connection: container not found ("web")'),
    path: EXEC,
    kind: 'unknown',
    sentence: 'the cluster answered 400 (BadRequest: unable to upgrade connection: container not found ("web")).',
  },
  {
    name: 'an HTML error page from something in between: no words of it in the sentence',
    status: 502,
    body: '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
    path: PODS,
    kind: 'unknown',
    sentence: 'the cluster answered 502 (HTTP 502).',
  },
];

for (const c of CASES) {
  test(`httpFailure: ${c.name}`, () => {
    const failure = httpFailure(c.status, c.body, c.path);
    assert.equal(failure.status, c.status);
    assert.equal(failure.error.kind, c.kind);
    assert.equal(failure.error.sentence, c.sentence);
    assert.match(failure.error.sentence, /\.$/);
    assert.doesNotMatch(failure.error.sentence, /[{}]/, 'never a JSON dump');
    assert.doesNotMatch(failure.error.sentence, /<html/i);
    assert.ok(failure.detail.length <= 240);
  });
}

test('the detail is the server\'s own words: a Status message, a text body\'s first line', () => {
  assert.equal(httpFailure(404, status(404, 'NotFound', 'pods "web-1" not found'), PORT_FORWARD).detail, 'pods "web-1" not found');
  assert.equal(httpFailure(500, 'getting credentials: exec: executable x not found\n\nIt looks like …', PODS).error.detail, 'getting credentials: exec: executable x not found');
});

test('parseStatus takes a Status and nothing else', () => {
  assert.equal(parseStatus(status(404, 'NotFound', 'x'))?.reason, 'NotFound');
  assert.equal(parseStatus('{"kind":"Pod"}'), undefined);
  assert.equal(parseStatus('Forbidden'), undefined);
  assert.equal(parseStatus('{broken'), undefined);
  assert.equal(parseStatus('null'), undefined);
});

test('the proxy not answering on its socket', () => {
  const error = Object.assign(new Error('connect ENOENT /tmp/probe-lens-x/api.sock'), { code: 'ENOENT' });
  const failure = proxyUnreachable(error);
  assert.equal(failure.status, undefined);
  assert.equal(failure.error.kind, 'unreachable');
  assert.equal(failure.error.sentence, "Probe Lens's kubectl proxy did not answer (connect ENOENT /tmp/probe-lens-x/api.sock): it restarts on its own; if it keeps failing, see the Probe Lens log.");
});

test('a timeout, an answer too large, a malformed answer: each a sentence', () => {
  assert.deepEqual(
    { kind: apiTimedOut(PODS, 10_000).error.kind, sentence: apiTimedOut(PODS, 10_000).error.sentence },
    { kind: 'timeout', sentence: 'the cluster did not answer within 10 s (GET /api/v1/namespaces/shop/pods): check your network or VPN, and that the cluster is running.' },
  );
  assert.equal(apiTimedOut('/version', 1500).error.sentence, 'the cluster did not answer within 1.5 s (GET /version): check your network or VPN, and that the cluster is running.');
  assert.equal(answerTooLarge(PODS, 32 * 1024 * 1024).error.sentence, "the cluster's answer to GET /api/v1/namespaces/shop/pods was larger than 32 MiB, so Probe Lens did not read it: narrow the label selector or the namespace.");
  assert.equal(answerMalformed(PODS, 'a watch line that is not JSON').error.sentence, 'the cluster sent a watch line that is not JSON for GET /api/v1/namespaces/shop/pods: Probe Lens tries again; if it keeps happening, see the Probe Lens log.');
});
