/**
 * A probe's hover (docs/design.md §4): the verdict and its timing first (docs/spec/validation-rules.md §C), the
 * address the kubelet probes (H1, T1, G1) with `<pod IP>` named, the last attempts while a
 * session runs, then the effective values; a probe that can never run says why, with no timings.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type LiveProbe, probeHoverMarkdown, type TimedAttempt } from '../../../src/core/editor/hoverText';
import { sessionTime } from '../../../src/core/text/durations';
import { parseManifest, type ProbeModel, type ProbeType } from '../../../src/core/manifest';
import { check, podSpec, podWith } from '../../helpers/manifests';

/** The probe of that type in a manifest, and the hover for it with the manifest's findings. */
function hoverOf(yaml: string, type: ProbeType, live?: LiveProbe, containerIndex = 0): string {
  const containers = parseManifest(yaml).documents[0]?.podSpecs[0]?.containers ?? [];
  const probe = containers[containerIndex]?.probes.find((p) => p.type === type) as ProbeModel;
  assert.ok(probe, `a ${type} probe`);
  return probeHoverMarkdown(probe, check(yaml), live);
}

/** The hover's second paragraph: the verdict (or why the probe never runs). */
function verdictOf(markdown: string): string {
  return markdown.split('\n\n')[1] ?? '';
}

function live(partial: Partial<LiveProbe>): LiveProbe {
  return { attempts: 0, successes: 0, recent: [], lastOutput: '', lastError: undefined, lastDurationMs: 0, result: undefined, ...partial };
}

const SHOP_API = `ports:
  - name: http
    containerPort: 8080
startupProbe:
  httpGet: {path: /healthz, port: http}
  failureThreshold: 30
  periodSeconds: 10
livenessProbe:
  httpGet: {path: /healthz, port: http}
readinessProbe:
  httpGet: {path: /ready, port: http}
  periodSeconds: 5`;

describe('the whole hover', () => {
  test('liveness behind a startupProbe: verdict, address, then the values with defaults marked', () => {
    assert.equal(
      hoverOf(podWith(SHOP_API), 'liveness'),
      [
        '**livenessProbe** of `web`',
        '',
        '**Restarts the container after 30 s of failures once the startup probe has succeeded** (3 × 10 s); it then has 30 s to stop.',
        '',
        "**Probes** `http://<pod IP>:8080/healthz` (port `http`) · `<pod IP>` is the pod's own IP address",
        '',
        '| field | value |',
        '|---|---|',
        '| initialDelaySeconds | 0 *(default)* |',
        '| periodSeconds | 10 *(default)* |',
        '| timeoutSeconds | 1 *(default)* |',
        '| successThreshold | 1 *(default)* |',
        '| failureThreshold | 3 *(default)* |',
      ].join('\n'),
    );
  });

  test('while probing, with attempt times: the newest first, before the values', () => {
    const attempts: TimedAttempt[] = [
      { t: 3.2, outcome: 'success', durationMs: 4.4, output: '' },
      { t: 8.2, outcome: 'failure', durationMs: 1001.6, output: 'HTTP probe failed with statuscode: 503' },
      { t: 75, outcome: 'unknown', durationMs: 0, error: 'dial tcp 127.0.0.1:8080: connect: connection refused | really' },
    ];
    const markdown = hoverOf(podWith(SHOP_API), 'readiness', live({ attempts: 3, successes: 1, recent: ['success', 'failure', 'unknown'], recentAttempts: attempts }));
    assert.equal(
      markdown.split('\n\n').slice(1, 4).join('\n\n'),
      [
        '**Ready after the first success; unready after 15 s failing** (3 × 5 s).',
        'Probed once the startup probe has succeeded; not ready until then.',
        '',
        "**Probes** `http://<pod IP>:8080/ready` (port `http`) · `<pod IP>` is the pod's own IP address",
        '',
        '**Last 3 attempts** (1 of 3 ok), newest first:',
      ].join('\n'),
    );
    assert.match(
      markdown,
      /\| at \| result \| took \| output \|\n\|---\|---\|---\|---\|\n\| 1:15 \| \? unknown \| 0 ms \| dial tcp 127\\\.0\\\.0\\\.1:8080: connect: connection refused \\\| really \|\n\| 8\.2 s \| ✖ failure \| 1002 ms \| HTTP probe failed with statuscode: 503 \|\n\| 3\.2 s \| ● success \| 4 ms \| {2}\|\n\n\| field \| value \|/,
    );
  });

  test('while probing, without attempt times: the outcomes and the last error', () => {
    const markdown = hoverOf(podWith(SHOP_API), 'liveness', live({ attempts: 3, successes: 2, recent: ['success', 'success', 'failure'], lastError: 'Get "http://x": EOF' }));
    assert.match(markdown, /\n\n\*\*Last 3 attempts:\*\* ● ● ✖ \(2 of 3 ok\)\n\*\*Last error:\*\* Get "http:\/\/x": EOF\n\n\| field/);
  });

  test('after a restart: the counts are the current container instance\'s, the total of every instance beside them', () => {
    const attempts: TimedAttempt[] = [{ t: 40, outcome: 'failure', durationMs: 2, output: 'HTTP probe failed with statuscode: 500' }];
    const markdown = hoverOf(podWith(SHOP_API), 'liveness', live({ attempts: 1, successes: 0, recentAttempts: attempts, total: { attempts: 7, successes: 4 } }));
    assert.match(markdown, /\*\*Last attempt\*\* \(0 of 1 ok · every container instance: 4 of 7 ok\), newest first:/);
    const same = hoverOf(podWith(SHOP_API), 'liveness', live({ attempts: 1, successes: 0, recentAttempts: attempts, total: { attempts: 1, successes: 0 } }));
    assert.match(same, /\(0 of 1 ok\), newest first/, 'no total while there has been one instance');
  });

  test('only the last 5 attempts are listed', () => {
    const attempts = Array.from({ length: 9 }, (_, i): TimedAttempt => ({ t: i * 10, outcome: 'success', durationMs: 1 }));
    const markdown = hoverOf(podWith(SHOP_API), 'liveness', live({ attempts: 9, successes: 9, recentAttempts: attempts }));
    assert.match(markdown, /\*\*Last 5 attempts\*\* \(9 of 9 ok\), newest first:\n\n\| at \| result \| took \|\n\|---\|---\|---\|\n/, 'no output column when no attempt said anything');
    assert.deepEqual(markdown.match(/^\| [\d.:]+( s)? \|/gm), ['| 1:20 |', '| 1:10 |', '| 1:00 |', '| 50.0 s |', '| 40.0 s |']);
  });
});

describe('verdict and timing (validation-rules.md §C)', () => {
  const TABLE: readonly [string, string, ProbeType, string][] = [
    [
      'liveness alone: K_live = d + f × p, the earliest kill a period sooner',
      'livenessProbe:\n  tcpSocket: {port: 9000}\n  initialDelaySeconds: 5\n  periodSeconds: 20',
      'liveness',
      '**Restarts the container after 60 s of failures** (3 × 20 s); it then has 30 s to stop.\nIf it never succeeds: restarted 45–65 s after the container starts (5 s + 3 × 20 s).',
    ],
    [
      'liveness with its own grace period (K3)',
      'livenessProbe:\n  tcpSocket: {port: 9000}\n  terminationGracePeriodSeconds: 10',
      'liveness',
      '**Restarts the container after 30 s of failures** (3 × 10 s); it then has 10 s to stop.\nIf it never succeeds: restarted 20–30 s after the container starts (3 × 10 s).',
    ],
    [
      'readiness: several successes in a row, a first delay, hanging attempts stretching the failures (L12)',
      'readinessProbe:\n  tcpSocket: {port: 9000}\n  initialDelaySeconds: 10\n  periodSeconds: 5\n  timeoutSeconds: 8\n  successThreshold: 2',
      'readiness',
      '**Ready after 2 successes in a row (2 × 5 s); unready after 15 s failing** (3 × 5 s).\nFirst attempt 10 s after the container starts; not ready until then. Back in after 10 s of successes. Hanging attempts stretch the failures to 3 × 8 s = 24 s (timeoutSeconds > periodSeconds).',
    ],
    [
      'readiness with no delay',
      'readinessProbe:\n  tcpSocket: {port: 9000}',
      'readiness',
      '**Ready after the first success; unready after 30 s failing** (3 × 10 s).\nFirst attempt as the container starts; not ready until a success.',
    ],
    [
      'startup: B_start = d + f × p',
      'startupProbe:\n  tcpSocket: {port: 9000}\n  initialDelaySeconds: 10\n  failureThreshold: 30\nlivenessProbe:\n  tcpSocket: {port: 9000}',
      'startup',
      '**Gives the app 310 s to start** (10 s + 30 × 10 s), then restarts it; liveness and readiness wait for its first success.',
    ],
  ];
  for (const [name, fields, type, expected] of TABLE) {
    test(name, () => assert.equal(verdictOf(hoverOf(podWith(fields), type)), expected));
  }

  test('restartPolicy Never: liveness and startup kill for good; a sidecar still restarts', () => {
    const never = podSpec('restartPolicy: Never\ncontainers:\n  - name: job\n    image: app\n    startupProbe: {tcpSocket: {port: 1}, failureThreshold: 30}\n    livenessProbe: {tcpSocket: {port: 1}}');
    assert.match(verdictOf(hoverOf(never, 'startup')), /^\*\*Gives the app 300 s to start\*\* \(30 × 10 s\), then kills it for good \(restartPolicy: Never\);/);
    assert.match(verdictOf(hoverOf(never, 'liveness')), /^\*\*Kills the container for good \(restartPolicy: Never\) after 30 s of failures once the startup probe has succeeded\*\*/);
    const sidecar = podSpec('restartPolicy: Never\ninitContainers:\n  - name: proxy\n    image: envoy\n    restartPolicy: Always\n    livenessProbe: {tcpSocket: {port: 1}}\ncontainers:\n  - name: job\n    image: app');
    assert.match(verdictOf(hoverOf(sidecar, 'liveness')), /^\*\*Restarts the container after 30 s of failures\*\*/);
  });
});

describe('the address the kubelet probes', () => {
  const addressOf = (fields: string, type: ProbeType = 'liveness') => hoverOf(podWith(fields), type).split('\n\n')[2];
  const TABLE: readonly [string, string, string][] = [
    ['an HTTPS path with a query, a number port', 'livenessProbe:\n  httpGet: {path: "/healthz?full=1", port: 8443, scheme: HTTPS}', "**Probes** `https://<pod IP>:8443/healthz?full=1` · `<pod IP>` is the pod's own IP address"],
    ['a path without its slash is probed with one (H1)', 'livenessProbe:\n  httpGet: {path: healthz, port: 80}', "**Probes** `http://<pod IP>:80/healthz` · `<pod IP>` is the pod's own IP address"],
    [
      'host set: that address, no placeholder; a Host header named',
      'livenessProbe:\n  httpGet:\n    host: 10.0.0.7\n    port: 80\n    httpHeaders: [{name: host, value: shop.example}]',
      '**Probes** `http://10.0.0.7:80/` · Host header `shop.example`',
    ],
    ['an IPv6 host in brackets (JoinHostPort)', 'livenessProbe:\n  tcpSocket: {host: "fd00::7", port: 5432}', '**Connects to** `[fd00::7]:5432` over TCP'],
    ['tcpSocket on the pod IP', 'ports: [{name: pg, containerPort: 5432}]\nlivenessProbe:\n  tcpSocket: {port: pg}', "**Connects to** `<pod IP>:5432` (port `pg`) over TCP · `<pod IP>` is the pod's own IP address"],
    ['grpc with a service', 'livenessProbe:\n  grpc: {port: 9090, service: shop.v1}', "**Calls** the gRPC health check on `<pod IP>:9090` for service `shop.v1` · `<pod IP>` is the pod's own IP address"],
    ['exec runs its argv without a shell', 'livenessProbe:\n  exec: {command: [cat, /tmp/healthy]}', '**Runs** `cat /tmp/healthy` in the container, without a shell'],
    ['exec through sh -c, the script quoted as one word', 'livenessProbe:\n  exec: {command: [sh, -c, "test -f /tmp/ok && echo `date`"]}', '**Runs** `` sh -c "test -f /tmp/ok && echo `date`" `` in the container'],
    ['an undeclared named port keeps its name in the place of the number', 'livenessProbe:\n  httpGet: {path: /healthz, port: metrics}', "**Probes** `http://<pod IP>:<metrics>/healthz` · `<pod IP>` is the pod's own IP address"],
  ];
  for (const [name, fields, expected] of TABLE) {
    test(name, () => assert.equal(addressOf(fields), expected));
  }
});

describe('a probe that can never run says why, with no timings', () => {
  const TABLE: readonly [string, string, ProbeType, string][] = [
    [
      'on an init container (P14)',
      podSpec('initContainers:\n  - name: migrate\n    image: app\n    livenessProbe: {tcpSocket: {port: 1}}\ncontainers:\n  - name: web\n    image: app'),
      'liveness',
      '**Never runs:** probes are not allowed on an init container (P14); the API server rejects the pod. Give the container `restartPolicy: Always` to make it a sidecar, whose probes do run.',
    ],
    [
      'rejected by the API server (its own error finding)',
      podWith('livenessProbe:\n  tcpSocket: {port: 1}\n  successThreshold: 2'),
      'liveness',
      '**Never runs:** the API server rejects the pod: `spec.containers[0].livenessProbe.successThreshold`: Invalid value: 2: must be 1 (P12).',
    ],
    ['with no handler (P01)', podWith('readinessProbe:\n  periodSeconds: 5'), 'readiness', '**Never runs:** the API server rejects the pod: `spec.containers[0].readinessProbe`: Required value: must specify a handler type (P01).'],
    [
      'on a named port the container does not declare (L01)',
      podWith('ports: [{name: http, containerPort: 8080}]\nstartupProbe:\n  httpGet: {path: /healthz, port: metrics}'),
      'startup',
      '**Never succeeds or fails:** port `metrics` is not declared in the ports of `web`, so every attempt is a prober error, which the kubelet counts neither way: the container never counts as started, so it is never ready (L01).',
    ],
  ];
  for (const [name, yaml, type, expected] of TABLE) {
    test(name, () => {
      const markdown = hoverOf(yaml, type, live({ attempts: 2, recent: ['unknown', 'unknown'] }));
      assert.equal(verdictOf(markdown), expected);
      assert.doesNotMatch(markdown, /Restarts|Gives the app|unready after|Last \d+ attempts/, 'no timings, no attempts');
    });
  }

  test('with the findings turned off, a missing handler still says why', () => {
    const yaml = podWith('readinessProbe:\n  periodSeconds: 5');
    const probe = parseManifest(yaml).documents[0]?.podSpecs[0]?.containers[0]?.probe('readiness') as ProbeModel;
    assert.equal(verdictOf(probeHoverMarkdown(probe)), '**Never runs:** it has no handler (exec, httpGet, tcpSocket or grpc), so the API server rejects the pod (P01).');
  });
});

test('session times: tenths of a second in the first minute, then m:ss and h:mm:ss', () => {
  assert.deepEqual([0, 9.96, 59.94, 60, 100.7, 3725].map(sessionTime), ['0.0 s', '10.0 s', '59.9 s', '1:00', '1:40', '1:02:05']);
});
