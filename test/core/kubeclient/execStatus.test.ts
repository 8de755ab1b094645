/** The exec channel's Status (channel 3), as the kubelet writes it, read as an exit code or a failure. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execPath, readExecStatus } from '../../../src/core/kubeclient/execStream';

const request = { pod: 'web-1', container: 'web', command: ['cat', '/tmp/healthy'] };

test('Success is exit 0 (the kubelet marshals it without kind)', () => {
  assert.deepEqual(readExecStatus('{"metadata":{},"status":"Success"}', request), { kind: 'exited', exitCode: 0 });
});

test('NonZeroExitCode: the exit code from details.causes[reason=ExitCode]', () => {
  const text = JSON.stringify({
    metadata: {},
    status: 'Failure',
    message: 'command terminated with non-zero exit code: error executing command [cat /tmp/healthy], exit code 1',
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: '1' }] },
  });
  assert.deepEqual(readExecStatus(text, request), { kind: 'exited', exitCode: 1 });
});

test('NonZeroExitCode without causes: the code from the message', () => {
  const text = JSON.stringify({ status: 'Failure', reason: 'NonZeroExitCode', message: 'command terminated with non-zero exit code: error executing command [sh -c exit 137], exit code 137' });
  assert.deepEqual(readExecStatus(text, request), { kind: 'exited', exitCode: 137 });
});

test('an InternalError (the runtime could not start the command) is a failure with its message', () => {
  const cause = 'error executing command in container: failed to exec in container: failed to start exec "ab12": OCI runtime exec failed: exec failed: unable to start container process: exec: "nope": executable file not found in $PATH: unknown';
  const text = JSON.stringify({ metadata: {}, status: 'Failure', message: `Internal error occurred: ${cause}`, reason: 'InternalError', details: { causes: [{ message: cause }] }, code: 500 });
  const outcome = readExecStatus(text, { ...request, command: ['nope'] });
  assert.equal(outcome.kind, 'failed');
  if (outcome.kind !== 'failed') return;
  // The runtime's reason, from under the kubelet's and containerd's wrapping (and an exec id of 64 hex digits).
  assert.equal(outcome.failure.error.sentence, 'the cluster could not run "nope" in container "web" of pod "web-1" (executable file not found in $PATH): check the exec probe\'s command.');
  assert.equal(outcome.failure.detail, 'exec: "nope": executable file not found in $PATH');
});

test('another Failure: its message, clipped, in the sentence', () => {
  const outcome = readExecStatus(JSON.stringify({ status: 'Failure', reason: 'InternalError', message: 'Internal error occurred: the container is being removed' }), request);
  assert.equal(outcome.kind, 'failed');
  if (outcome.kind !== 'failed') return;
  assert.equal(outcome.failure.error.sentence, 'the cluster could not run "cat" in container "web" of pod "web-1" (Internal error occurred: the container is being removed): check the exec probe\'s command.');
});

test('nothing on the status channel, or not a Status: none', () => {
  assert.deepEqual(readExecStatus('', request), { kind: 'none' });
  assert.deepEqual(readExecStatus('not json', request), { kind: 'none' });
});

test('the exec path repeats command= per word, encoded, and asks for stdout and stderr only', () => {
  assert.equal(
    execPath({ namespace: 'shop', pod: 'web-1', container: 'web', command: ['sh', '-c', 'test -f /tmp/a && echo ok'] }),
    '/api/v1/namespaces/shop/pods/web-1/exec?command=sh&command=-c&command=test%20-f%20%2Ftmp%2Fa%20%26%26%20echo%20ok&container=web&stdout=true&stderr=true',
  );
});
