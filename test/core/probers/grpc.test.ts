import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as net from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { decodeHealthCheckResponse, encodeHealthCheckRequest, probeGrpc, servingStatusName, type GrpcAttemptOptions, type GrpcTarget } from '../../../src/core/probers/grpc';
import { goDuration } from '../../../src/core/probers/goFormat';
import type { ProbeOutcome } from '../../../src/core/probers/types';
import { probeUserAgent } from '../../../src/core/probers/types';
import { SERVING_STATUS, startHealthServer, startHostileServer, type HealthServer, type Relay } from '../../helpers/grpcHealthServer';
import { activeCounts, grew } from '../../helpers/activeResources';

const USER_AGENT = probeUserAgent(33);
/** How late past its deadline an attempt may end (timers, loopback, a loaded CI machine). */
const SLACK_MS = 250;

/**
 * Every resource a probe creates must be gone once it returns (design §5). grpc-js unrefs its
 * sockets and timers, which hides them from `getActiveResourcesInfo()`, so async_hooks watches
 * every socket and timer created during the attempt as well: no socket may stay open, and no
 * timer may keep the process alive. grpc-js's own unref'd back-off timers may outlive a failed
 * connection for their delay; `settleFully` checks that they do end.
 */
async function probeLeavingNothing(target: GrpcTarget, options: Partial<GrpcAttemptOptions> = {}, server?: Relay | HealthServer) {
  const before = activeCounts();
  const watch = watchResources();
  const started = performance.now();
  let outcome: ProbeOutcome;
  try {
    outcome = await probeGrpc(target, { timeoutMs: 1000, userAgent: USER_AGENT, ...options });
  } finally {
    watch.stopRecording();
  }
  const elapsedMs = performance.now() - started;
  const clean = () => watch.alive('TCPWRAP').length === 0 && watch.refedTimers() === 0 && !grew(before, activeCounts()) && (server?.open() ?? 0) === 0;
  for (let i = 0; i < 40 && !clean(); i += 1) await sleep(25);
  try {
    assert.deepEqual(watch.alive('TCPWRAP'), [], 'a socket created by the probe is still open');
    assert.equal(watch.refedTimers(), 0, 'a timer created by the probe keeps the process alive');
    assert.deepEqual(grew(before, activeCounts()), false, `active resources grew: ${JSON.stringify(before)} → ${JSON.stringify(activeCounts())}`);
    if (server) assert.equal(server.open(), 0, 'the server still has a connection open');
  } finally {
    watch.disable();
  }
  return { outcome, elapsedMs };
}

interface ResourceWatch {
  stopRecording(): void;
  entries(): Iterable<{ type: string; resource: object }>;
  alive(type?: string): string[];
  refedTimers(): number;
  disable(): void;
}

function watchResources(): ResourceWatch {
  const created = new Map<number, { type: string; resource: object }>();
  let recording = true;
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (recording && (type === 'TCPWRAP' || type === 'Timeout')) created.set(id, { type, resource });
    },
    destroy(id) {
      created.delete(id);
    },
  }).enable();
  return {
    stopRecording: () => (recording = false),
    entries: () => created.values(),
    alive: (type) => [...created.values()].filter((r) => type === undefined || r.type === type).map((r) => r.type),
    refedTimers: () => [...created.values()].filter((r) => r.type === 'Timeout' && (r.resource as NodeJS.Timeout).hasRef()).length,
    disable: () => hook.disable(),
  };
}

/**
 * Runs attempts side by side, then waits until even grpc-js's unref'd timers and sockets from
 * them are gone: they must end by themselves. Recording goes on while waiting, so a channel that
 * keeps reconnecting after its attempt (creating sockets and back-off timers again and again)
 * never settles. The test's own sleeps are ref'd timers, told apart that way.
 */
async function settleFully(attempts: readonly (() => Promise<ProbeOutcome>)[], withinMs: number): Promise<ProbeOutcome[]> {
  const watch = watchResources();
  const lingering = () => [...watch.entries()].filter((r) => r.type === 'TCPWRAP' || !(r.resource as NodeJS.Timeout).hasRef()).map((r) => r.type);
  try {
    const outcomes = await Promise.all(attempts.map((attempt) => attempt()));
    const started = performance.now();
    while (lingering().length > 0 && performance.now() - started < withinMs) await sleep(50);
    assert.deepEqual(lingering(), [], `still alive ${withinMs} ms after the attempts`);
    return outcomes;
  } finally {
    watch.disable();
  }
}



async function withServer<T>(server: HealthServer, body: (server: HealthServer) => Promise<T>): Promise<T> {
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen({ host, port: 0 }, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// --- outcomes against a real server ---------------------------------------------------------

test('G2: SERVING is a success, "service healthy", and the connection is closed afterwards', async () => {
  await withServer(await startHealthServer(), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, {}, server);
    assert.deepEqual(outcome, { result: 'success', output: 'service healthy' });
    assert.equal(server.accepted(), 1, 'one connection per attempt');
    assert.equal(server.requests.length, 1);
  });
});

test('G2: NOT_SERVING is a failure with the exact output', async () => {
  await withServer(await startHealthServer({ answer: () => SERVING_STATUS.NOT_SERVING }), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, {}, server);
    assert.deepEqual(outcome, { result: 'failure', output: 'service unhealthy (responded with "NOT_SERVING")' });
  });
});

test('G2: UNKNOWN (an empty response, the proto3 default) is a failure', async () => {
  await withServer(await startHealthServer({ answer: () => SERVING_STATUS.UNKNOWN }), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, {}, server);
    assert.deepEqual(outcome, { result: 'failure', output: 'service unhealthy (responded with "UNKNOWN")' });
  });
});

test('G2: SERVICE_UNKNOWN for a service name the server does not know is a failure', async () => {
  const answer = (service: string) => (service === 'known' ? SERVING_STATUS.SERVING : SERVING_STATUS.SERVICE_UNKNOWN);
  await withServer(await startHealthServer({ answer }), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port, service: 'other' }, {}, server);
    assert.deepEqual(outcome, { result: 'failure', output: 'service unhealthy (responded with "SERVICE_UNKNOWN")' });
    const known = await probeLeavingNothing({ host: '127.0.0.1', port: server.port, service: 'known' }, {}, server);
    assert.equal(known.outcome.result, 'success');
  });
});

test('G1: the service field reaches the server; unset it is "" (an empty message)', async () => {
  await withServer(await startHealthServer(), async (server) => {
    await probeLeavingNothing({ host: '127.0.0.1', port: server.port, service: 'ready-ü' }, {}, server);
    await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, {}, server);
    assert.deepEqual(
      server.requests.map((r) => [r.service, r.bytes.toString('hex')]),
      [
        ['ready-ü', `0a08${Buffer.from('ready-ü').toString('hex')}`],
        ['', ''],
      ],
    );
  });
});

test('G1: the user agent is kube-probe/<major>.<minor>, then grpc-js\'s own token', async () => {
  await withServer(await startHealthServer(), async (server) => {
    await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, {}, server);
    assert.match(server.requests[0]?.userAgent ?? '', /^kube-probe\/1\.33 grpc-node-js\/\S+$/);
  });
});

test('G1: an IPv6 address is dialled and reported in brackets (JoinHostPort)', async () => {
  await withServer(await startHealthServer({ host: '::1', answer: () => SERVING_STATUS.NOT_SERVING }), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '::1', port: server.port }, {}, server);
    assert.equal(outcome.output, 'service unhealthy (responded with "NOT_SERVING")');
  });
  const port = await freePort('::1');
  const { outcome } = await probeLeavingNothing({ host: '::1', port }, { timeoutMs: 200 });
  assert.equal(outcome.output, `timeout: failed to connect service "[::1]:${port}" within 200ms: context deadline exceeded`);
});

test('G2: a server without the health service is Unimplemented, with the server\'s message', async () => {
  await withServer(await startHealthServer({ withHealth: false }), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, {}, server);
    assert.deepEqual(outcome, {
      result: 'failure',
      output:
        'error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ' +
        'The server does not implement the method /grpc.health.v1.Health/Check',
    });
  });
});

test('G2: any other RPC error is "health rpc probe failed" with grpc-go\'s status text', async () => {
  // What grpc-go's own health server answers for a service it does not know.
  const answer = () => ({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
  await withServer(await startHealthServer({ answer }), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port, service: 'x' }, {}, server);
    assert.deepEqual(outcome, { result: 'failure', output: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' });
  });
});

test('G2: a response that is not valid protobuf is an Internal RPC error, as grpc-go reports it', async () => {
  await withServer(await startHealthServer({ rawResponse: Buffer.from([0x08]) }), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, {}, server);
    assert.equal(
      outcome.output,
      'error: health rpc probe failed: rpc error: code = Internal desc = grpc: failed to unmarshal the received message: proto: cannot parse invalid wire-format data',
    );
  });
});

test('G1/G2: a handler slower than the one deadline is the RPC timeout, ended on time', async () => {
  await withServer(await startHealthServer({ delayMs: 5000 }), async (server) => {
    const { outcome, elapsedMs } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, { timeoutMs: 400 }, server);
    assert.deepEqual(outcome, { result: 'failure', output: 'timeout: health rpc did not complete within 400ms' });
    assert.ok(elapsedMs >= 380 && elapsedMs < 400 + SLACK_MS, `took ${elapsedMs} ms`);
  });
});

test('G1/G2: a refused connection is retried until the deadline, then the connect timeout (as the kubelet\'s blocking dial)', async () => {
  const port = await freePort();
  const { outcome, elapsedMs } = await probeLeavingNothing({ host: '127.0.0.1', port }, { timeoutMs: 500 });
  assert.deepEqual(outcome, {
    result: 'failure',
    output: `timeout: failed to connect service "127.0.0.1:${port}" within 500ms: context deadline exceeded`,
  });
  assert.ok(elapsedMs >= 480 && elapsedMs < 500 + SLACK_MS, `took ${elapsedMs} ms`);
});

test('G1/G2: the kubelet\'s own example: an empty host dials this machine and reads ":<port>"', async () => {
  const port = await freePort();
  const { outcome } = await probeLeavingNothing({ host: '', port }, { timeoutMs: 200 });
  assert.deepEqual(outcome, { result: 'failure', output: `timeout: failed to connect service ":${port}" within 200ms: context deadline exceeded` });
});

test('G2: a port that accepts TCP and speaks garbage ends as a failure within the deadline', async () => {
  const hostile = await startHostileServer(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n\x00\xff garbage'));
  try {
    const { outcome, elapsedMs } = await probeLeavingNothing({ host: '127.0.0.1', port: hostile.port }, { timeoutMs: 600 }, hostile);
    assert.deepEqual(outcome, {
      result: 'failure',
      output: `timeout: failed to connect service "127.0.0.1:${hostile.port}" within 600ms: context deadline exceeded`,
    });
    assert.ok(elapsedMs < 600 + SLACK_MS, `took ${elapsedMs} ms`);
    assert.ok(hostile.accepted() >= 1);
  } finally {
    await hostile.close();
  }
});

test('G2: a port that accepts TCP and never answers ends as the connect timeout', async () => {
  const silent = await startHostileServer(null);
  try {
    const { outcome, elapsedMs } = await probeLeavingNothing({ host: '127.0.0.1', port: silent.port }, { timeoutMs: 300 }, silent);
    assert.equal(outcome.output, `timeout: failed to connect service "127.0.0.1:${silent.port}" within 300ms: context deadline exceeded`);
    assert.ok(elapsedMs < 300 + SLACK_MS, `took ${elapsedMs} ms`);
  } finally {
    await silent.close();
  }
});

// --- abort ------------------------------------------------------------------------------------

test('G1: an abort while connecting ends the attempt at once, as a cancelled context (no leaks)', async () => {
  const silent = await startHostileServer(null);
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { outcome, elapsedMs } = await probeLeavingNothing(
      { host: '127.0.0.1', port: silent.port },
      { timeoutMs: 5000, signal: controller.signal },
      silent,
    );
    assert.deepEqual(outcome, { result: 'failure', output: `error: failed to connect service at "127.0.0.1:${silent.port}": context canceled` });
    assert.ok(elapsedMs < 50 + SLACK_MS, `took ${elapsedMs} ms`);
  } finally {
    await silent.close();
  }
});

test('G1: an abort during the RPC cancels it at once', async () => {
  await withServer(await startHealthServer({ delayMs: 5000 }), async (server) => {
    const controller = new AbortController();
    const probing = probeLeavingNothing({ host: '127.0.0.1', port: server.port }, { timeoutMs: 5000, signal: controller.signal }, server);
    while (server.requests.length === 0) await sleep(5);
    const abortedAt = performance.now();
    controller.abort();
    const { outcome } = await probing;
    assert.deepEqual(outcome, { result: 'failure', output: 'error: health rpc probe failed: rpc error: code = Canceled desc = context canceled' });
    assert.ok(performance.now() - abortedAt < SLACK_MS, `ended ${performance.now() - abortedAt} ms after the abort`);
  });
});

test('G1: an already aborted signal connects to nothing', async () => {
  await withServer(await startHealthServer(), async (server) => {
    const { outcome } = await probeLeavingNothing({ host: '127.0.0.1', port: server.port }, { signal: AbortSignal.abort() }, server);
    assert.equal(outcome.output, `error: failed to connect service at "127.0.0.1:${server.port}": context canceled`);
    assert.equal(server.accepted(), 0);
  });
});

test('G1: what grpc-js leaves after an early abort, a refused port or a garbled one ends by itself', async () => {
  // A channel closed before grpc-js delivered its resolved address, or while a wait for READY was
  // pending, would connect regardless and reconnect for ever. What may remain is grpc-js's own
  // back-off timer: after a refused connect its subchannel retries once more even though closed
  // (the socket is destroyed before it dials) and then waits out one more back-off, ≤ 1 s + 1.6 s × 1.2.
  const port = await freePort();
  const hostile = await startHostileServer(Buffer.from('garbage'));
  // Loaded first: the first attempt's dynamic import would otherwise outlast the 'immediate' abort.
  await probeGrpc({ host: '127.0.0.1', port }, { timeoutMs: 1, userAgent: USER_AGENT });
  const probe = (options: Partial<GrpcAttemptOptions>, to = port) => () => probeGrpc({ host: '127.0.0.1', port: to }, { timeoutMs: 1000, userAgent: USER_AGENT, ...options });
  // 'immediate' aborts after the channel exists but before grpc-js delivers the resolved address.
  const abortAfter = (delay: number | 'microtask' | 'immediate') => () => {
    const controller = new AbortController();
    const attempt = probe({ signal: controller.signal })();
    if (delay === 'microtask') queueMicrotask(() => controller.abort());
    else if (delay === 'immediate') setImmediate(() => controller.abort());
    else setTimeout(() => controller.abort(), delay);
    return attempt;
  };
  try {
    const outcomes = await settleFully(
      [abortAfter('microtask'), abortAfter('immediate'), abortAfter(1), abortAfter(5), probe({ timeoutMs: 100 }), probe({ timeoutMs: 100 }, hostile.port)],
      3500,
    );
    const canceled = `error: failed to connect service at "127.0.0.1:${port}": context canceled`;
    assert.deepEqual(outcomes.slice(0, 4).map((o) => o.output), [canceled, canceled, canceled, canceled]);
    assert.deepEqual(outcomes.slice(4).map((o) => o.output.slice(0, 35)), ['timeout: failed to connect service ', 'timeout: failed to connect service ']);
  } finally {
    await hostile.close();
  }
});

// --- the compiled-in protocol and Go formatting -------------------------------------------------

test('G1: HealthCheckRequest encoding (field 1, length-delimited; empty when "")', () => {
  assert.equal(encodeHealthCheckRequest({ service: '' }).toString('hex'), '');
  assert.equal(encodeHealthCheckRequest({ service: 'a' }).toString('hex'), '0a0161');
  const long = 'x'.repeat(300);
  assert.equal(encodeHealthCheckRequest({ service: long }).subarray(0, 3).toString('hex'), '0aac02');
});

test('G2: HealthCheckResponse decoding skips unknown fields, keeps the last status, rejects bad bytes', () => {
  const decode = (hex: string) => decodeHealthCheckResponse(Buffer.from(hex, 'hex'));
  assert.deepEqual(decode(''), { status: 0 });
  assert.deepEqual(decode('0801'), { status: 1 });
  assert.deepEqual(decode('08011002'), { status: 1 }); // field 2 is unknown
  assert.deepEqual(decode('0801180212026869' + '0803'), { status: 3 }); // varint + bytes skipped, last wins
  assert.deepEqual(decode('09' + '0102030405060708' + '0802'), { status: 2 }); // fixed64 field 1 is not the enum
  assert.deepEqual(decode('1b' + '0801' + '1c' + '0802'), { status: 2 }); // a group (field 3) is skipped
  assert.deepEqual(decode('08ffffffff0f'), { status: -1 }); // an int32 enum
  for (const bad of ['08', '0a05ab', '00', '0f', '08ffffffffffffffffffff01', '1b0801']) {
    assert.ok('malformed' in decode(bad), bad);
  }
});

test('G2: status names are protobuf-go\'s, a number when unknown', () => {
  assert.deepEqual([0, 1, 2, 3, 7].map(servingStatusName), ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN', '7']);
});

test('G2: timeouts read as Go durations', () => {
  assert.deepEqual(
    [1000, 2000, 1500, 500, 1, 0.5, 90_000, 3_600_000, 3_723_400, 0].map(goDuration),
    ['1s', '2s', '1.5s', '500ms', '1ms', '500µs', '1m30s', '1h0m0s', '1h2m3.4s', '0s'],
  );
});

// --- start-up cost ------------------------------------------------------------------------------

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('G1: only the gRPC prober refers to @grpc/grpc-js, and only as a type and a lazy import', () => {
  const users = sources('src').filter((file) => readFileSync(file, 'utf8').includes('@grpc/grpc-js'));
  assert.deepEqual(users.map((file) => file.split('\\').join('/')), ['src/core/probers/grpc.ts']);
  const text = readFileSync('src/core/probers/grpc.ts', 'utf8');
  const references = text.split('\n').filter((line) => line.includes("'@grpc/grpc-js'"));
  assert.deepEqual(references.map((line) => line.trim()), ["import type * as GrpcJs from '@grpc/grpc-js';", "grpcJs ??= import('@grpc/grpc-js');"]);
});

test('G1: importing the gRPC prober does not load @grpc/grpc-js; the first probe does', () => {
  const script = `
    const { probeGrpc } = require(${JSON.stringify(join(__dirname, '../../../src/core/probers/grpc.js'))});
    const loaded = () => Object.keys(require.cache).some((k) => k.includes('@grpc'));
    const before = loaded();
    probeGrpc({ host: '127.0.0.1', port: 1 }, { timeoutMs: 1, userAgent: 'x' }).then(() => console.log(JSON.stringify([before, loaded()])));`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), '[false,true]');
});
