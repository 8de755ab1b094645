/**
 * kubectl's stderr as kubectl and client-go write it (texts from kubectl's cmdutil
 * `StandardErrorMessage`/`checkErr`, client-go's clientcmd validation and memcache discovery,
 * and transcripts of real runs), read into one kind and one sentence.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyKubectlError, distinctMessages, kubectlMessages, type KubectlErrorKind, lastMeaningfulLine, MAX_DETAIL_CHARS } from '../../../src/core/kubeclient/kubectlErrors';
import { clip } from '../../../src/core/text/sentence';

/** client-go ≥ 1.31 logs discovery failures as structured klog, five times over (its retries). */
const memcache = (err: string, times = 5) =>
  Array.from({ length: times }, (_, i) => `E1124 10:00:0${i}.123456   1234 memcache.go:265] "Unhandled Error" err="${err.replace(/"/g, '\\"')}"`).join('\n');
/** Before 1.31: the same, unstructured. */
const oldMemcache = (err: string) => `E0412 09:14:22.335461   48213 memcache.go:265] couldn't get current server API group list: ${err}`;

const REFUSED_6443 = `${memcache('couldn\'t get current server API group list: Get "https://127.0.0.1:6443/api?timeout=32s": dial tcp 127.0.0.1:6443: connect: connection refused')}
The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
`;

interface Case {
  readonly name: string;
  readonly stderr: string;
  readonly kind: KubectlErrorKind;
  readonly sentence: string;
}

const CASES: readonly Case[] = [
  {
    name: 'cluster down: the structured klog lines ×5, then kubectl\'s own line',
    stderr: REFUSED_6443,
    kind: 'unreachable',
    sentence: "kubectl cannot reach the cluster at 127.0.0.1:6443 (connection refused): check that the cluster is running and that kubectl's current context is the right one.",
  },
  {
    name: 'cluster down, kubectl before 1.31 (unstructured klog)',
    stderr: `${oldMemcache('Get "https://kind-control-plane:6443/api?timeout=32s": dial tcp 172.18.0.2:6443: connect: connection refused')}\nThe connection to the server kind-control-plane:6443 was refused - did you specify the right host or port?\n`,
    kind: 'unreachable',
    sentence: "kubectl cannot reach the cluster at kind-control-plane:6443 (connection refused): check that the cluster is running and that kubectl's current context is the right one.",
  },
  {
    name: 'no kubeconfig at all: kubectl falls back to localhost:8080',
    stderr: `${memcache('couldn\'t get current server API group list: Get "http://localhost:8080/api?timeout=32s": dial tcp [::1]:8080: connect: connection refused')}\nThe connection to the server localhost:8080 was refused - did you specify the right host or port?\n`,
    kind: 'no-context',
    sentence: 'kubectl has no current context (no kubeconfig, or none chosen in it): choose one with kubectl config use-context NAME, or set KUBECONFIG.',
  },
  {
    name: 'kubectl config current-context with none set',
    stderr: 'error: current-context is not set\n',
    kind: 'no-context',
    sentence: 'kubectl has no current context (no kubeconfig, or none chosen in it): choose one with kubectl config use-context NAME, or set KUBECONFIG.',
  },
  {
    name: 'KUBECONFIG names a file that is not there (client-go\'s loader warning)',
    stderr: `W0129 17:30:23.159941   59036 loader.go:222] Config not found: /broken/config\n${oldMemcache('Get "http://localhost:8080/api?timeout=32s": dial tcp 127.0.0.1:8080: connect: connection refused')}\nThe connection to the server localhost:8080 was refused - did you specify the right host or port?\n`,
    kind: 'no-context',
    sentence: "kubectl's kubeconfig /broken/config does not exist: point KUBECONFIG at your kubeconfig, or create one for your cluster.",
  },
  {
    name: '--context naming a context the kubeconfig lacks (clientcmd errContextNotFound via MultilineError)',
    stderr: 'Error in configuration: context was not found for specified context: staging\n',
    kind: 'context-not-found',
    sentence: 'kubectl\'s context "staging" is not in its kubeconfig: choose another with kubectl config use-context NAME.',
  },
  {
    name: 'a context that does not exist, as the brief\'s tools word it',
    stderr: 'error: context "x" does not exist\n',
    kind: 'context-not-found',
    sentence: 'kubectl\'s context "x" is not in its kubeconfig: choose another with kubectl config use-context NAME.',
  },
  {
    name: 'kubectl config use-context with an unknown name',
    stderr: 'error: no context exists with the name: "prod"\n',
    kind: 'context-not-found',
    sentence: 'kubectl\'s context "prod" is not in its kubeconfig: choose another with kubectl config use-context NAME.',
  },
  {
    name: 'an invalid kubeconfig, several causes (MultilineError: a bare prefix, then `* cause` lines)',
    stderr: 'Error in configuration: \n* user "dev" was not found for context "dev"\n* cluster has no server defined\n',
    kind: 'config-invalid',
    sentence: 'kubectl\'s kubeconfig is invalid (user "dev" was not found for context "dev"): fix it, or choose another context with kubectl config use-context NAME.',
  },
  {
    name: 'credentials refused: Unauthorized',
    stderr: 'error: You must be logged in to the server (Unauthorized)\n',
    kind: 'unauthorised',
    sentence: "the cluster did not accept kubectl's credentials (Unauthorized): log in again, or refresh the credentials in your kubeconfig.",
  },
  {
    name: 'credentials refused, EKS wording, after the discovery lines',
    stderr: `${memcache("couldn't get current server API group list: the server has asked for the client to provide credentials")}\nerror: You must be logged in to the server (the server has asked for the client to provide credentials)\n`,
    kind: 'unauthorised',
    sentence: "the cluster did not accept kubectl's credentials (the server has asked for the client to provide credentials): log in again, or refresh the credentials in your kubeconfig.",
  },
  {
    name: 'a credential plugin that is not installed (multi-line structured value `err=<`)',
    stderr: `E0729 22:43:25.945807  103037 memcache.go:265] "Unhandled Error" err=<
        couldn't get current server API group list: Get "https://35.232.167.233/api?timeout=32s": getting credentials: exec: executable gke-gcloud-auth-plugin not found

        It looks like you are trying to use a client-go credential plugin that is not installed.
 >
Unable to connect to the server: getting credentials: exec: executable gke-gcloud-auth-plugin not found
`,
    kind: 'unauthorised',
    sentence:
      'kubectl could not get credentials from the credential plugin its kubeconfig names (exec: executable gke-gcloud-auth-plugin not found): install that plugin, or log in with it again.',
  },
  {
    name: 'RBAC: may not list pods',
    stderr: 'Error from server (Forbidden): pods is forbidden: User "x" cannot list resource "pods" in API group "" in the namespace "y"\n',
    kind: 'forbidden',
    sentence: 'user "x" may not list pods in namespace "y": ask your cluster admin for that permission, or use a context whose user has it.',
  },
  {
    name: 'RBAC: may not port-forward',
    stderr: 'error: error upgrading connection: pods "web-7d9c" is forbidden: User "system:serviceaccount:ci:runner" cannot create resource "pods/portforward" in API group "" in the namespace "shop"\n',
    kind: 'forbidden',
    sentence: 'user "system:serviceaccount:ci:runner" may not create pods/portforward (port-forward to pods) in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.',
  },
  {
    name: 'a namespace that does not exist',
    stderr: 'Error from server (NotFound): namespaces "foo" not found\n',
    kind: 'namespace-not-found',
    sentence: 'namespace "foo" does not exist in the cluster: create it, or correct the manifest\'s metadata.namespace.',
  },
  {
    name: 'a pod by name that does not exist',
    stderr: 'Error from server (NotFound): pods "web-abc" not found\n',
    kind: 'not-found',
    sentence: 'the cluster has no pod "web-abc": apply the manifest, or check the namespace it is looked for in.',
  },
  {
    name: 'TLS: a CA the kubeconfig does not have (Go ≥ 1.20 wording)',
    stderr: `${memcache('couldn\'t get current server API group list: Get "https://10.0.0.5:6443/api?timeout=32s": tls: failed to verify certificate: x509: certificate signed by unknown authority')}\nUnable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority\n`,
    kind: 'certificate',
    sentence: "kubectl does not trust the cluster at 10.0.0.5:6443 (x509: certificate signed by unknown authority): refresh the cluster's certificate data in your kubeconfig.",
  },
  {
    name: 'TLS: an expired certificate',
    stderr: 'Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2024-11-24T10:00:00Z is after 2024-11-20T08:12:44Z\n',
    kind: 'certificate',
    sentence:
      "kubectl does not trust the cluster (x509: certificate has expired or is not yet valid: current time 2024-11-24T10:00:00Z is after 2024-11-20T08:12:44Z): refresh the cluster's certificate data in your kubeconfig.",
  },
  {
    name: 'TLS: the server rejects the client certificate',
    stderr: 'Unable to connect to the server: remote error: tls: bad certificate\n',
    kind: 'certificate',
    sentence: "the cluster rejected kubectl's client certificate (tls: bad certificate): refresh the credentials in your kubeconfig.",
  },
  {
    name: 'a dial that times out (VPN down)',
    stderr: `${memcache('couldn\'t get current server API group list: Get "https://10.0.0.9:6443/api?timeout=32s": dial tcp 10.0.0.9:6443: i/o timeout')}\nUnable to connect to the server: dial tcp 10.0.0.9:6443: i/o timeout\n`,
    kind: 'timeout',
    sentence: 'the cluster at 10.0.0.9:6443 did not answer kubectl in time (i/o timeout): check your network or VPN, and that the cluster is running.',
  },
  {
    name: 'a TLS handshake that times out',
    stderr: `${memcache('couldn\'t get current server API group list: Get "https://192.168.49.2:8443/api?timeout=32s": net/http: TLS handshake timeout', 1)}\nUnable to connect to the server: net/http: TLS handshake timeout\n`,
    kind: 'timeout',
    sentence: 'the cluster at 192.168.49.2:8443 did not answer kubectl in time (TLS handshake timeout): check your network or VPN, and that the cluster is running.',
  },
  {
    name: 'a server name that does not resolve',
    stderr: 'Unable to connect to the server: dial tcp: lookup my-cluster.example.com on 127.0.0.53:53: no such host\n',
    kind: 'unreachable',
    sentence: "kubectl cannot reach the cluster at my-cluster.example.com (no host is named my-cluster.example.com): check that the cluster is running and that kubectl's current context is the right one.",
  },
  {
    name: 'an invalid port in the kubeconfig (from a real transcript)',
    stderr: `E0827 21:54:12.115955   47329 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \\"https://172.30.1.2:644333/api?timeout=32s\\": dial tcp: address 644333: invalid port"\nUnable to connect to the server: dial tcp: address 644333: invalid port\n`,
    kind: 'unreachable',
    sentence: "kubectl cannot reach the cluster (dial tcp: address 644333: invalid port): check that the cluster is running and that kubectl's current context is the right one.",
  },
  {
    name: 'port-forward to a pod that is not running',
    stderr: 'error: unable to forward port because pod is not running. Current status=Pending\n',
    kind: 'pod-not-running',
    sentence: 'kubectl cannot port-forward to a pod that is Pending, not Running: probing resumes once the pod runs.',
  },
  {
    name: 'port-forward: the container refused the port (the runtime\'s dial, not the API server)',
    stderr: `E1124 10:00:01.000000   4321 portforward.go:424] "Unhandled Error" err="an error occurred forwarding 41234 -> 8080: error forwarding port 8080 to pod 0f3c, uid : failed to execute portforward in network namespace \\"/var/run/netns/cni-1\\": failed to connect to localhost:8080 inside namespace \\"0f3c\\", IPv4: dial tcp4 127.0.0.1:8080: connect: connection refused IPv6 dial tcp6 [::1]:8080: connect: connection refused "\nerror: lost connection to pod\n`,
    kind: 'port-refused',
    sentence: "nothing listens on port 8080 in the pod, and kubectl's port-forward stopped on it: it reconnects on its own.",
  },
  {
    name: 'anything else: kubectl\'s last line, as a sentence',
    stderr: 'error: lost connection to pod\n',
    kind: 'unknown',
    sentence: 'kubectl failed: lost connection to pod.',
  },
];

for (const c of CASES) {
  test(`kubectl stderr → ${c.kind}: ${c.name}`, () => {
    const error = classifyKubectlError(c.stderr);
    assert.equal(error.kind, c.kind);
    assert.equal(error.sentence, c.sentence);
  });
}

test('every sentence is one sentence: it ends with a full stop and holds no line break', () => {
  for (const c of CASES) {
    const { sentence } = classifyKubectlError(c.stderr);
    assert.match(sentence, /\.$/, c.name);
    assert.doesNotMatch(sentence, /\n/, c.name);
    assert.doesNotMatch(sentence, /E\d{4} \d\d:\d\d/, `${c.name}: no klog header`);
  }
});

test('the detail is kubectl\'s last word, without klog headers or Go quoting', () => {
  assert.equal(classifyKubectlError(REFUSED_6443).detail, 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?');
  const onlyKlog = memcache('couldn\'t get current server API group list: Get "https://127.0.0.1:6443/api?timeout=32s": dial tcp 127.0.0.1:6443: connect: connection refused');
  assert.equal(lastMeaningfulLine(onlyKlog), 'couldn\'t get current server API group list: Get "https://127.0.0.1:6443/api?timeout=32s": dial tcp 127.0.0.1:6443: connect: connection refused');
});

test('repeated klog lines count once; blank lines and kubectl\'s help pointers are skipped', () => {
  assert.equal(kubectlMessages(REFUSED_6443).length, 6);
  assert.equal(distinctMessages(REFUSED_6443).length, 2);
  assert.deepEqual(kubectlMessages('error: unknown flag: --nope\nSee \'kubectl get --help\' for usage.\n\n'), ['error: unknown flag: --nope']);
  assert.equal(lastMeaningfulLine(''), '');
  assert.equal(lastMeaningfulLine('\n  \n'), '');
});

test('an unknown long last line is cut between words, never inside one', () => {
  const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  const error = classifyKubectlError(`error: ${words}\n`);
  assert.equal(error.kind, 'unknown');
  assert.ok(error.detail.length <= MAX_DETAIL_CHARS, `${error.detail.length}`);
  assert.match(error.detail, /word\d+…$/, 'ends on a whole word, marked as cut');
  const kept = error.detail.slice(0, -1).split(' ');
  assert.ok(words.split(' ').includes(kept[kept.length - 1] as string), 'the last word kept is a whole word');
  assert.match(error.sentence, /^kubectl failed: .*…$/);
  assert.equal(clip('short', 10), 'short');
});

test('an empty stderr still gives a sentence', () => {
  assert.deepEqual(classifyKubectlError(''), { kind: 'unknown', sentence: 'kubectl failed without saying why.', detail: '' });
});
