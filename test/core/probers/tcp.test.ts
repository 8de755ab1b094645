import assert from 'node:assert/strict';
import * as net from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { joinHostPort } from '../../../src/core/probers/goFormat';
import { probeTcp } from '../../../src/core/probers/tcp';
import type { AttemptOptions, ProbeOutcome } from '../../../src/core/probers/types';

/** How late past its deadline an attempt may end (timers, loopback, a loaded CI machine). */
const SLACK_MS = 250;

/** Probes, then checks that no socket or timer of the attempt is still alive. */
async function probe(host: string, port: number, options: Partial<AttemptOptions> = {}): Promise<{ outcome: ProbeOutcome; elapsedMs: number }> {
  const before = process.getActiveResourcesInfo().length;
  const started = performance.now();
  const outcome = await probeTcp({ host, port }, { timeoutMs: 1000, ...options });
  const elapsedMs = performance.now() - started;
  for (let i = 0; i < 20 && process.getActiveResourcesInfo().length > before; i += 1) await sleep(10);
  assert.ok(process.getActiveResourcesInfo().length <= before, `resources left: ${process.getActiveResourcesInfo().join()}`);
  return { outcome, elapsedMs };
}

async function listen(server: net.Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen({ host, port: 0 }, resolve));
  return (server.address() as net.AddressInfo).port;
}

async function close(server: net.Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on: bound by the kernel, then released. */
async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  const port = await listen(server, host);
  await close(server);
  return port;
}

test('T1: an open port is a success with empty output; the connection sends nothing and is closed at once', async () => {
  const seen: { bytes: number; ended: boolean }[] = [];
  const closed: Promise<void>[] = [];
  const server = net.createServer((socket) => {
    const record = { bytes: 0, ended: false };
    seen.push(record);
    socket.on('data', (chunk) => (record.bytes += chunk.length));
    socket.on('end', () => (record.ended = true));
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
  });
  const port = await listen(server);
  try {
    const { outcome } = await probe('127.0.0.1', port);
    assert.deepEqual(outcome, { result: 'success', output: '' });
    while (seen.length === 0) await sleep(5);
    await Promise.all(closed);
    assert.deepEqual(seen, [{ bytes: 0, ended: true }]);
  } finally {
    await close(server);
  }
});

test('T1: an IPv6 loopback port is dialled too', async () => {
  const server = net.createServer((socket) => socket.destroy());
  const port = await listen(server, '::1');
  try {
    const { outcome } = await probe('::1', port);
    assert.deepEqual(outcome, { result: 'success', output: '' });
  } finally {
    await close(server);
  }
});

test('T2: a closed port is a failure (never an error) with Go\'s dial error', async () => {
  const port = await freePort();
  const { outcome } = await probe('127.0.0.1', port);
  assert.deepEqual(outcome, { result: 'failure', output: `dial tcp 127.0.0.1:${port}: connect: connection refused` });
});

test('T2: an IPv6 address is written in brackets, as Go\'s JoinHostPort does', async () => {
  const port = await freePort('::1');
  const { outcome } = await probe('::1', port);
  assert.deepEqual(outcome, { result: 'failure', output: `dial tcp [::1]:${port}: connect: connection refused` });
  assert.equal(joinHostPort('fe80::1%eth0', 80), '[fe80::1%eth0]:80');
  assert.equal(joinHostPort('', 32), ':32');
});

test('T2: a host name is reported by the address it resolved to', async () => {
  const port = await freePort();
  const { outcome } = await probe('localhost', port);
  assert.equal(outcome.result, 'failure');
  assert.match(outcome.output, new RegExp(`^dial tcp (127\\.0\\.0\\.1|\\[::1\\]):${port}: connect: connection refused$`));
});

test('T2: a port out of range fails before dialling, in Go\'s words', async () => {
  assert.deepEqual((await probe('127.0.0.1', 70000)).outcome, { result: 'failure', output: 'dial tcp: address 70000: invalid port' });
  assert.deepEqual((await probe('127.0.0.1', -1)).outcome, { result: 'failure', output: 'dial tcp: address -1: invalid port' });
});

/**
 * A loopback port whose connects hang: a listener in a worker thread whose event loop is blocked,
 * so it never accepts; once the kernel's accept queue (backlog 1) is full, further SYNs are
 * dropped and a connect waits until its timeout. Loopback only, unlike a non-routable address.
 */
async function withHangingPort(body: (port: number) => Promise<void>): Promise<void> {
  const gate = new SharedArrayBuffer(4);
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const server = require('node:net').createServer();
     server.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
       parentPort.postMessage(server.address().port);
       Atomics.wait(new Int32Array(workerData), 0, 0);
     });`,
    { eval: true, workerData: gate },
  );
  const fillers: net.Socket[] = [];
  try {
    const port = await new Promise<number>((resolve) => worker.once('message', resolve));
    // Fill the accept queue until a connect no longer completes.
    for (let i = 0; i < 64; i += 1) {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      fillers.push(socket);
      const connected = await Promise.race([
        new Promise<boolean>((resolve) => socket.once('connect', () => resolve(true))),
        sleep(200).then(() => false),
      ]);
      if (!connected) break;
    }
    await body(port);
  } finally {
    for (const socket of fillers) socket.destroy();
    Atomics.store(new Int32Array(gate), 0, 1);
    Atomics.notify(new Int32Array(gate), 0);
    await worker.terminate();
  }
}

test('T2: a connect that does not complete in time is "i/o timeout", ended on time', async () => {
  await withHangingPort(async (port) => {
    const { outcome, elapsedMs } = await probe('127.0.0.1', port, { timeoutMs: 300 });
    assert.deepEqual(outcome, { result: 'failure', output: `dial tcp 127.0.0.1:${port}: i/o timeout` });
    assert.ok(elapsedMs >= 290 && elapsedMs < 300 + SLACK_MS, `took ${elapsedMs} ms`);
  });
});

test('T1: an abort ends a hanging connect at once, as Go\'s cancelled dial', async () => {
  await withHangingPort(async (port) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { outcome, elapsedMs } = await probe('127.0.0.1', port, { timeoutMs: 5000, signal: controller.signal });
    assert.deepEqual(outcome, { result: 'failure', output: `dial tcp 127.0.0.1:${port}: operation was canceled` });
    assert.ok(elapsedMs < 50 + SLACK_MS, `took ${elapsedMs} ms`);
  });
  const { outcome } = await probe('127.0.0.1', 1, { signal: AbortSignal.abort() });
  assert.equal(outcome.output, 'dial tcp 127.0.0.1:1: operation was canceled');
});
