import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeApi } from '../../../src/core/kubeclient/kubeApi';
import { ForwardedAttempt } from '../../../src/core/cluster/forwardedAttempt';

// The streams themselves are tested through the real kubectl (test/cli/cluster*.test.ts); here,
// what an attempt keeps when its session stops it mid-way. No connection is made: no API is needed.
test('an attempt stopped mid-way still names its local port (a stopped session never throws from an attempt in flight)', async () => {
  const attempt = await ForwardedAttempt.listen(undefined as unknown as KubeApi, { namespace: 'shop', pod: 'web-0', port: 8080 });
  assert.ok(attempt);
  const port = attempt.localPort;
  assert.ok(port > 0);
  attempt.dispose();
  assert.equal(attempt.localPort, port);
});
