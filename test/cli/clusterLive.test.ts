import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type App, assertCleanRun, assertOnePerPeriod, brief, errorLines, type Line, of, shown, startApp, withCluster } from '../helpers/liveCluster';

// The pods as they live, end to end: the built CLI, the real kubectl (one `kubectl proxy` per
// run, the dispatcher picking kubectl.1.NN by the server's /version), the test API server, and
// real servers on 127.0.0.1 playing the pods' ports. Every assertion reads the CLI's own jsonl
// lines, stderr and exit code.

const MISSING_POD = `apiVersion: v1
kind: Pod
metadata: {name: api-9, namespace: shop}
spec:
  containers:
    - name: api
      image: api
      readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 1}
`;

const WEB_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1, timeoutSeconds: 2}
`;

test('run --target cluster (kubectl 1.32): a Pod is found by its metadata.name in its namespace; same-labelled and same-named pods elsewhere are left alone', async () => {
  const apps = await Promise.all([startApp(), startApp(), startApp()]);
  const [mine, sibling, elsewhere] = apps as [App, App, App];
  await withCluster(
    '1.32',
    async (cluster) => {
      const file = cluster.manifest(`apiVersion: v1
kind: Pod
metadata: {name: api-0, namespace: shop, labels: {app: api}}
spec:
  containers:
    - name: api
      image: api
      ports: [{containerPort: 8080}]
      readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 1}
`);
      // Another pod of the same labels, and a pod of the same name in another namespace.
      cluster.server.addPod({ name: 'api-1', namespace: 'shop', labels: { app: 'api' }, containers: [{ name: 'api', ports: { 8080: sibling.port } }] });
      cluster.server.addPod({ name: 'api-0', namespace: 'other', labels: { app: 'api' }, containers: [{ name: 'api', ports: { 8080: elsewhere.port } }] });
      cluster.server.addPod({ name: 'api-0', namespace: 'shop', labels: { app: 'api' }, podIP: '10.244.1.40', containers: [{ name: 'api', ports: { 8080: mine.port } }] });
      const run = await cluster.run([file, '--for', '3s']);
      assertCleanRun(run);
      assert.deepEqual(
        of(run.lines, 'target').map((l) => [l['pod'], l['clusterPod'], l['namespace'], l['podIP']]),
        [['api-0', 'api-0', 'shop', '10.244.1.40']],
      );
      const attempts = of(run.lines, 'attempt');
      assert.ok(attempts.length >= 2 && attempts.every((a) => a['outcome'] === 'success' && a['pod'] === 'api-0'), brief(attempts));
      assert.ok(mine.seen.length >= 2 && mine.seen.every((s) => s.host === '10.244.1.40:8080' && s.path === '/ready'), JSON.stringify(mine.seen));
      assert.equal(sibling.seen.length + elsewhere.seen.length, 0, 'nothing reached the other pods');
      const forwards = cluster.server.portForwards();
      assert.ok(forwards.length >= 2 && forwards.every((f) => f.namespace === 'shop' && f.pod === 'api-0'), JSON.stringify(forwards.map((f) => `${f.namespace}/${f.pod}`)));
      const podLists = cluster.server.requests().filter((r) => /\/api\/v1\/namespaces\/[^/]+\/pods\?/.test(r.path));
      assert.ok(podLists.length > 0 && podLists.every((r) => r.path.startsWith('/api/v1/namespaces/shop/pods?') && decodeURIComponent(r.path).includes('fieldSelector=metadata.name=api-0')), JSON.stringify(podLists.map((r) => r.path)));
      assert.match(run.stderr, /Pod "api-0" → pod shop\/api-0 \(10\.244\.1\.40\)/);
      assertOnePerPeriod(attempts);

      // A name the namespace does not have: where it looked, what to do, once; no session.
      const missing = await cluster.run([cluster.manifest(MISSING_POD, 'missing.yaml'), '--for', '2s']);
      assert.equal(missing.code, 2, shown(missing));
      assert.equal(missing.stdout, '');
      assert.deepEqual(errorLines(missing), ['probe-lens: no pod named "api-9" in namespace "shop": apply the manifest to the cluster first, or check --context and --namespace']);
      assert.deepEqual(missing.kubectlLeft, []);
    },
    apps,
  );
});

for (const version of ['1.32', '1.29']) {
  test(`run --target cluster (kubectl ${version}): a rollout is followed — the new pod is probed on its own port, the old one's port-forwards end, one timeline`, async () => {
    const before = await startApp();
    const after = await startApp();
    await withCluster(
      version,
      async (cluster) => {
        const file = cluster.manifest(WEB_DEPLOYMENT);
        cluster.server.addPod({ name: 'web-7c9f8d6b5-aaaaa', namespace: 'shop', labels: { app: 'web' }, podIP: '10.244.1.10', containers: [{ name: 'web', ports: { 8080: before.port } }] });
        let replacing: Promise<unknown> | undefined;
        let replacedAt = 0;
        let deletedAt = 0;
        const run = await cluster.run([file, '--for', '5s'], () => {
          if (replacing || before.seen.length < 2) return;
          replacedAt = Date.now();
          replacing = cluster.server
            .replacePod({ namespace: 'shop', name: 'web-7c9f8d6b5-aaaaa' }, 'web-6b8d9c7f4-bbbbb', { podIP: '10.244.1.11', containers: [{ name: 'web', ports: { 8080: after.port } }] })
            .then(() => (deletedAt = Date.now()));
        });
        await replacing;
        assertCleanRun(run);
        assert.ok(replacedAt > 0 && deletedAt > 0, 'the rollout happened during the run');

        const targets = of(run.lines, 'target');
        assert.deepEqual(
          targets.map((l) => [l['pod'], l['clusterPod'], l['podIP']]),
          [
            ['web', 'web-7c9f8d6b5-aaaaa', '10.244.1.10'],
            ['web', 'web-6b8d9c7f4-bbbbb', '10.244.1.11'],
          ],
        );
        // One timeline: every line is the manifest pod's, before and after.
        assert.deepEqual([...new Set(run.lines.filter((l) => 'pod' in l).map((l) => l['pod']))], ['web']);
        const switchedAt = Number(targets[1]?.['t']);
        const attempts = of(run.lines, 'attempt');
        const afterSwitch = attempts.filter((a) => Number(a['t']) > switchedAt);
        assert.ok(afterSwitch.length >= 2 && afterSwitch.every((a) => a['outcome'] === 'success'), brief(attempts));
        assert.ok(attempts.every((a) => a['outcome'] !== 'failure'), `the rollout fails no attempt: ${brief(attempts)}`);
        // The new pod's own port, with the Host the kubelet would send it.
        assert.ok(after.seen.length >= 2 && after.seen.every((s) => s.host === '10.244.1.11:8080'), JSON.stringify(after.seen));
        assert.ok(before.seen.every((s) => s.at <= deletedAt), 'nothing reached the old pod once it was deleted');
        // The old pod's port-forwards all ended; none was opened once it was gone.
        const old = cluster.server.portForwards().filter((f) => f.pod === 'web-7c9f8d6b5-aaaaa');
        assert.ok(old.length >= 2, 'the old pod was probed through port-forwards');
        for (const forward of old) {
          assert.ok(forward.closedAt !== undefined, `a port-forward to the old pod still open: ${JSON.stringify(forward)}`);
          assert.ok(forward.openedAt.getTime() <= deletedAt, `a port-forward to the old pod opened after it was deleted: ${JSON.stringify(forward)}`);
        }
        // The new container instance starts its results over (W6), and its lifecycle line says so.
        const containers = of(run.lines, 'container');
        assert.equal(new Set(containers.map((c) => c['containerId'])).size, 2, JSON.stringify(containers));
        assert.match(run.stderr, /Deployment "web": pod web-7c9f8d6b5-aaaaa was replaced; now probing shop\/web-6b8d9c7f4-bbbbb \(10\.244\.1\.11\)/);
      },
      [before, after],
    );
  });
}

for (const version of ['1.32', '1.29']) {
  test(`run --target cluster (kubectl ${version}): port-forwards cut mid-attempt are retried, then prober errors — never failures; probing recovers and readiness never drops`, async () => {
    // A slow answer keeps each attempt's port-forward open long enough to be cut in flight.
    const app = await startApp(400);
    await withCluster(
      version,
      async (cluster) => {
        const file = cluster.manifest(WEB_DEPLOYMENT);
        cluster.server.addPod({ name: 'web-7c9f8d6b5-aaaaa', namespace: 'shop', labels: { app: 'web' }, podIP: '10.244.1.10', containers: [{ name: 'web', ports: { 8080: app.port } }] });
        // One cut in flight; then, two periods later, an outage: every port-forward cut as soon as it is up, for 2 s.
        const cuts = { single: 0, outage: 0, outageFrom: 0, outageUntil: 0, requestsBeforeOutage: 0 };
        // --for counts from the start, connecting included (seconds on a loaded machine): room for the outage and what follows.
        const run = await cluster.run([file, '--for', '11s'], () => {
          const live = cluster.server.livePortForwards();
          if (cuts.single === 0) {
            if (app.seen.length >= 2 && live > 0) cuts.single = cluster.server.cutPortForwards();
          } else if (cuts.outageFrom === 0) {
            if (app.seen.length < 5) return;
            cuts.outageFrom = Date.now();
            cuts.outageUntil = cuts.outageFrom + 2_000;
            cuts.requestsBeforeOutage = app.seen.length;
          } else if (Date.now() < cuts.outageUntil && live > 0) {
            cuts.outage += cluster.server.cutPortForwards();
          }
        });
        assertCleanRun(run);
        assert.ok(cuts.single >= 1 && cuts.outage >= 3, `port-forwards were cut in flight: ${JSON.stringify(cuts)}`);
        assert.ok(cluster.server.portForwards().filter((f) => f.end === 'cut').length >= 4);

        const attempts = of(run.lines, 'attempt');
        const header = run.lines[0] as Line;
        const tOf = (wall: number) => (wall - Date.parse(String(header['startedAt']))) / 1000;
        // The single cut: the kubelet tries an errored probe again at once (P2), and the retry succeeded.
        const beforeOutage = attempts.filter((a) => Number(a['t']) < tOf(cuts.outageFrom));
        assert.ok(beforeOutage.length >= 3 && beforeOutage.every((a) => a['outcome'] === 'success'), brief(attempts));
        assert.ok(cuts.requestsBeforeOutage > beforeOutage.length, `the cut try was made again: ${cuts.requestsBeforeOutage} requests for ${beforeOutage.length} attempts`);
        // The outage: three tries cut, so the attempt is a prober error (P5), never a failure.
        const dropped = attempts.filter((a) => a['outcome'] === 'unknown');
        assert.ok(dropped.length >= 1, `an attempt whose every try was cut is a prober error: ${brief(attempts)}`);
        for (const attempt of dropped) assert.match(String(attempt['error']), /^the port-forward to pod web-7c9f8d6b5-aaaaa dropped during the attempt \(10\.244\.1\.10:8080\)$/);
        assert.deepEqual(attempts.filter((a) => a['outcome'] === 'failure'), [], 'a cut is never a probe failure');
        const afterOutage = attempts.filter((a) => Number(a['t']) > tOf(cuts.outageUntil));
        assert.ok(afterOutage.length >= 2 && afterOutage.every((a) => a['outcome'] === 'success'), `probing recovered after the outage: ${brief(attempts)}`);
        // Readiness: Ready once, and never NotReady because of a cut (nor a Failure result).
        for (const type of ['status', 'pod']) {
          const readiness = of(run.lines, type).map((l) => l['ready']);
          const firstReady = readiness.indexOf(true);
          assert.ok(firstReady >= 0 && readiness.slice(firstReady).every((ready) => ready === true), `${type}: ${JSON.stringify(readiness)}`);
        }
        const results = of(run.lines, 'result').map((r) => r['value']);
        assert.deepEqual(results.slice(results.indexOf('Success')), ['Success']);
      },
      [app],
    );
  });
}

const EXEC_POD = `apiVersion: v1
kind: Pod
metadata: {name: jobs, namespace: shop}
spec:
  containers:
    - name: ok
      image: tools
      readinessProbe: {exec: {command: [sh, -c, 'echo all good; exit 0']}, periodSeconds: 1}
    - name: broken
      image: tools
      readinessProbe: {exec: {command: [sh, -c, 'echo not ready yet >&2; exit 1']}, periodSeconds: 1}
    - name: chatty
      image: tools
      readinessProbe: {exec: {command: [sh, -c, 'yes x | head -c 30000; exit 1']}, periodSeconds: 1}
    - name: slow
      image: tools
      readinessProbe: {exec: {command: [sleep, '5']}, periodSeconds: 1, timeoutSeconds: 1}
`;

test('run --target cluster --allow-exec (kubectl 1.32): exec probes run in the pod — exit 0 succeeds, exit 1 fails with its output, output capped at 10 KiB, a command past timeoutSeconds times out', async () => {
  await withCluster('1.32', async (cluster) => {
    const file = cluster.manifest(EXEC_POD);
    cluster.server.addPod({ name: 'jobs', namespace: 'shop', containers: ['ok', 'broken', 'chatty', 'slow'].map((name) => ({ name })) });
    const run = await cluster.run([file, '--for', '3500ms', '--allow-exec']);
    assertCleanRun(run);
    const attempts = of(run.lines, 'attempt');
    const byContainer = (name: string) => attempts.filter((a) => a['container'] === name);

    const ok = byContainer('ok');
    assert.ok(ok.length >= 2 && ok.every((a) => a['outcome'] === 'success' && a['output'] === 'all good\n'), brief(ok));
    const broken = byContainer('broken');
    assert.ok(broken.length >= 2 && broken.every((a) => a['outcome'] === 'failure' && a['output'] === 'not ready yet\n'), brief(broken));
    const chatty = byContainer('chatty');
    assert.ok(chatty.length >= 2, brief(chatty));
    for (const attempt of chatty) {
      assert.equal(attempt['outcome'], 'failure');
      assert.equal(String(attempt['output']).length, 10_240, 'the kubelet keeps the first 10 KiB of 30 000 bytes');
      assert.match(String(attempt['output']), /^(x\n)+$/);
    }
    const slow = byContainer('slow');
    assert.ok(slow.length >= 1, brief(slow));
    for (const attempt of slow) {
      assert.equal(attempt['outcome'], 'failure');
      assert.equal(attempt['output'], 'command "sleep 5" timed out');
      const ms = Number(attempt['durationMs']);
      assert.ok(ms >= 950 && ms < 1_500, `timed out at timeoutSeconds (1 s), not later: ${ms} ms`);
    }
    // Each ran as a real child process in the "container"; the timed-out one was not left running.
    const execs = cluster.server.execs();
    for (const [container, exitCode] of [['ok', 0], ['broken', 1], ['chatty', 1]] as const) {
      const ran = execs.filter((e) => e.container === container);
      assert.ok(ran.length >= 2 && ran.every((e) => e.pod === 'jobs' && e.pid !== undefined && e.exitCode === exitCode), `${container}: ${JSON.stringify(ran)}`);
    }
    const sleeps = execs.filter((e) => e.container === 'slow');
    assert.ok(sleeps.length >= 1 && sleeps.every((e) => e.pid !== undefined && e.command.join(' ') === 'sleep 5'), JSON.stringify(sleeps));
    assert.ok(sleeps.every((e) => e.end === 'client-closed'), `the timed-out command was ended when its probe gave up: ${JSON.stringify(sleeps)}`);
    assert.equal(cluster.server.liveExecs(), 0);
    assert.deepEqual(of(run.lines, 'status').filter((s) => s['ready'] === true).map((s) => s['container']), ['ok']);
  });
});

test('run --target cluster without --allow-exec (kubectl 1.32): exec probes are not run — each attempt says how to allow them, nothing reaches the pod', async () => {
  await withCluster('1.32', async (cluster) => {
    const file = cluster.manifest(EXEC_POD);
    cluster.server.addPod({ name: 'jobs', namespace: 'shop', containers: ['ok', 'broken', 'chatty', 'slow'].map((name) => ({ name })) });
    const run = await cluster.run([file, '--for', '2s']);
    assertCleanRun(run);
    const attempts = of(run.lines, 'attempt');
    assert.ok(attempts.length >= 4, brief(attempts));
    for (const attempt of attempts) {
      assert.equal(attempt['outcome'], 'unknown');
      assert.match(String(attempt['error']), /exec probes run commands in your container and were not allowed \(use --allow-exec/);
    }
    assert.deepEqual(cluster.server.execs(), []);
    assert.deepEqual(cluster.server.requests().filter((r) => r.path.includes('/exec')), [], 'no exec request reached the API server');
    assert.deepEqual(of(run.lines, 'status').filter((s) => s['ready'] === true), [], 'nothing is Ready on probes that never ran');
  });
});

test('run --target cluster (kubectl 1.32): the kubelet says NotReady while ours pass through port-forward, its events say "connection refused" → a loopback-only disagreement, explained', async () => {
  const app = await startApp();
  await withCluster(
    '1.32',
    async (cluster) => {
      const file = cluster.manifest(WEB_DEPLOYMENT);
      const pod = { namespace: 'shop', name: 'web-7c9f8d6b5-aaaaa' };
      cluster.server.addPod({ ...pod, labels: { app: 'web' }, podIP: '10.244.1.5', containers: [{ name: 'web', ports: { 8080: app.port } }] });
      const refused = 'Readiness probe failed: dial tcp 10.244.1.5:8080: connect: connection refused';
      let flipped = false;
      let repeated = false;
      const run = await cluster.run([file, '--for', '23s'], () => {
        // Once our probes pass: the cluster's kubelet fails its own, as it would for an app on 127.0.0.1 only.
        if (!flipped && app.seen.length >= 1) {
          flipped = true;
          cluster.server.setReady(pod, 'web', false);
          cluster.server.addEvent(pod, { reason: 'Unhealthy', type: 'Warning', message: refused, container: 'web' });
        } else if (flipped && !repeated && app.seen.length >= 4) {
          repeated = true;
          cluster.server.addEvent(pod, { reason: 'Unhealthy', type: 'Warning', message: refused, container: 'web' });
        }
      });
      assertCleanRun(run);
      const attempts = of(run.lines, 'attempt');
      assert.ok(attempts.length >= 15 && attempts.every((a) => a['outcome'] === 'success'), brief(attempts));
      assertOnePerPeriod(attempts);

      const kubelet = of(run.lines, 'kubelet').filter((l) => l['container'] === 'web');
      assert.deepEqual(kubelet.map((l) => l['ready']), [true, false], JSON.stringify(kubelet));
      assert.ok(of(run.lines, 'kubelet').some((l) => l['container'] === undefined && l['ready'] === false), 'the pod-level Ready condition too');
      const events = of(run.lines, 'clusterEvent');
      assert.deepEqual(
        events.map((e) => [e['pod'], e['container'], e['reason'], e['eventType'], e['count'], e['message']]),
        [
          ['web', 'web', 'Unhealthy', 'Warning', 1, refused],
          ['web', 'web', 'Unhealthy', 'Warning', 2, refused],
        ],
      );

      const disagreements = of(run.lines, 'disagreement');
      assert.equal(disagreements.length, 1, JSON.stringify(disagreements));
      const [open] = disagreements as [Line];
      assert.equal(open['state'], 'open');
      assert.equal(open['cause'], 'loopback-only');
      assert.equal(open['pod'], 'web');
      assert.equal(open['container'], 'web');
      assert.equal(open['ours'], true);
      assert.equal(open['kubelet'], false);
      assert.match(String(open['message']), /the kubelet says web is not Ready .*port-forward.*listens on 127\.0\.0\.1 only.*0\.0\.0\.0/);
      const flippedAt = Number(kubelet[1]?.['t']);
      assert.ok(Number(open['t']) >= flippedAt + 19.5, `said only after the two have differed a while: ${String(open['t'])} vs ${flippedAt}`);
    },
    [app],
  );
});

test('run --target cluster (kubectl 1.32): RBAC refusing to list pods ends in one sentence, exit 2, and leaves no kubectl', async () => {
  await withCluster('1.32', async (cluster) => {
    const file = cluster.manifest(WEB_DEPLOYMENT);
    cluster.server.addPod({ name: 'web-7c9f8d6b5-aaaaa', namespace: 'shop', labels: { app: 'web' }, containers: [{ name: 'web', ports: { 8080: 1 } }] });
    cluster.server.forbid('pods');
    const run = await cluster.run([file, '--for', '2s']);
    assert.equal(run.code, 2, shown(run));
    assert.equal(run.stdout, '', 'no session started: nothing on stdout');
    // After the line saying where it connected: the refusal, once, as the reason — no "retrying" while it exits.
    assert.deepEqual(errorLines(run), ['probe-lens: user "dev" may not list pods in namespace "shop": ask your cluster admin for that permission, or use a context whose user has it.']);
    assert.ok(run.kubectlSeen > 0);
    assert.deepEqual(run.kubectlLeft, []);
  });
});

test('run --target cluster: kubectl not on PATH, or --kubectl naming nothing, each end in one sentence naming what to do, exit 2', async () => {
  await withCluster('1.32', async (cluster) => {
    const file = cluster.manifest(WEB_DEPLOYMENT);
    const noPath = await cluster.run([file, '--for', '1s'], undefined, { ...cluster.env, PATH: join(cluster.dir, 'empty') });
    assert.equal(noPath.code, 2, shown(noPath));
    assert.equal(noPath.stdout, '');
    assert.equal(noPath.stderr.trim().split('\n').length, 1, noPath.stderr);
    assert.equal(noPath.stderr, 'probe-lens: kubectl was not found on PATH (as "kubectl"): install kubectl, or set the --kubectl option to its full path.\n');
    const named = await cluster.run([file, '--for', '1s', '--kubectl', join(cluster.dir, 'bin', 'kubectl')]);
    assert.equal(named.code, 2, shown(named));
    assert.equal(named.stdout, '');
    assert.equal(named.stderr, `probe-lens: kubectl was not found at ${join(cluster.dir, 'bin', 'kubectl')}: install kubectl, or set the --kubectl option to its full path.\n`);
    assert.equal(cluster.server.requests().length, 0, 'nothing reached the API server');
  });
});

test('run --target cluster --all-pods (kubectl 1.32): each pod of a Deployment is probed on its own port, under its own name', async () => {
  const first = await startApp();
  const second = await startApp();
  await withCluster(
    '1.32',
    async (cluster) => {
      const file = cluster.manifest(WEB_DEPLOYMENT);
      cluster.server.addPod({ name: 'web-7c9f8d6b5-aaaaa', namespace: 'shop', labels: { app: 'web' }, podIP: '10.244.1.20', containers: [{ name: 'web', ports: { 8080: first.port } }] });
      cluster.server.addPod({ name: 'web-7c9f8d6b5-bbbbb', namespace: 'shop', labels: { app: 'web' }, podIP: '10.244.1.21', containers: [{ name: 'web', ports: { 8080: second.port } }] });
      const run = await cluster.run([file, '--for', '3s', '--all-pods']);
      assertCleanRun(run);
      assert.deepEqual(
        of(run.lines, 'target')
          .map((l) => [l['pod'], l['manifestPod'], l['clusterPod'], l['podIP']])
          .sort(),
        [
          ['web-7c9f8d6b5-aaaaa', 'web', 'web-7c9f8d6b5-aaaaa', '10.244.1.20'],
          ['web-7c9f8d6b5-bbbbb', 'web', 'web-7c9f8d6b5-bbbbb', '10.244.1.21'],
        ],
      );
      const attempts = of(run.lines, 'attempt');
      for (const pod of ['web-7c9f8d6b5-aaaaa', 'web-7c9f8d6b5-bbbbb']) {
        const its = attempts.filter((a) => a['pod'] === pod);
        assert.ok(its.length >= 2 && its.every((a) => a['outcome'] === 'success'), `${pod}: ${brief(attempts)}`);
        assert.ok(of(run.lines, 'status').some((s) => s['pod'] === pod && s['ready'] === true), `${pod} Ready`);
      }
      assert.ok(first.seen.length >= 2 && first.seen.every((s) => s.host === '10.244.1.20:8080'), JSON.stringify(first.seen));
      assert.ok(second.seen.length >= 2 && second.seen.every((s) => s.host === '10.244.1.21:8080'), JSON.stringify(second.seen));
    },
    [first, second],
  );
});
