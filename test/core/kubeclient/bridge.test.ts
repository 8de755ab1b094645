/**
 * bridge() between a real local TCP connection and a port-forward stream played by a stand-in
 * (this file's own PortForwardStream, so the WebSocket's buffered amount can be held high): the
 * local side waits for the open, pauses while the WebSocket is behind, and each side ends as the
 * other does. The real stream through kubectl proxy is in portForwardStream.test.ts.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { VirtualClock } from '../../../src/core/base/clock';
import type { Disposable } from '../../../src/core/base/disposable';
import { bridge, type PortForwardEnd, type PortForwardEvents, type PortForwardStream } from '../../../src/core/kubeclient/portForwardStream';
import { until } from './clusterHarness';

class StandInStream implements PortForwardStream {
  state: 'connecting' | 'open' | 'closed' = 'connecting';
  bufferedAmount = 0;
  readonly written: Buffer[] = [];
  ended = 0;
  disposed = false;
  private readonly listeners = new Set<PortForwardEvents>();

  write(chunk: Buffer): void {
    this.written.push(chunk);
  }
  end(): void {
    this.ended++;
  }
  listen(events: PortForwardEvents): Disposable {
    this.listeners.add(events);
    return { dispose: () => this.listeners.delete(events) };
  }
  dispose(): void {
    this.disposed = true;
  }
  open(): void {
    this.state = 'open';
    for (const l of [...this.listeners]) l.onOpen?.();
  }
  data(chunk: Buffer): void {
    for (const l of [...this.listeners]) l.onData?.(chunk);
  }
  close(end: PortForwardEnd): void {
    this.state = 'closed';
    for (const l of [...this.listeners]) l.onClose?.(end);
  }
  bytes(): number {
    return this.written.reduce((sum, chunk) => sum + chunk.length, 0);
  }
}

/** A connected pair: `local` is what the bridge gets (the listener's side), `client` the prober's. */
async function pair(): Promise<{ local: net.Socket; client: net.Socket; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  client.on('error', () => undefined);
  const local = await accepted;
  return {
    local,
    client,
    close: async () => {
      client.destroy();
      local.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('bridge: nothing is read from the local side before the open, then everything in order', { timeout: 30_000 }, async () => {
  const { local, client, close } = await pair();
  const stream = new StandInStream();
  const link = bridge(local, stream, { clock: new VirtualClock() });
  try {
    client.write('GET / HTTP/1.1\r\n\r\n');
    await sleep(50);
    assert.equal(stream.written.length, 0);
    stream.open();
    await until(() => stream.bytes() === 18, 'the request');
    assert.equal(Buffer.concat(stream.written).toString(), 'GET / HTTP/1.1\r\n\r\n');
  } finally {
    link.dispose();
    await close();
  }
});

test('bridge: the local side pauses while the WebSocket is behind, and reads on once it catches up', { timeout: 30_000 }, async () => {
  const { local, client, close } = await pair();
  const stream = new StandInStream();
  const clock = new VirtualClock();
  const link = bridge(local, stream, { clock, highWaterMark: 1024 });
  stream.open();
  try {
    // The WebSocket has not sent what it was given.
    stream.bufferedAmount = 4096;
    client.write(Buffer.alloc(100, 1));
    await until(() => stream.bytes() === 100, 'the first chunk');
    assert.equal(local.isPaused(), true);
    client.write(Buffer.alloc(100, 2));
    await sleep(50);
    assert.equal(stream.bytes(), 100, 'not read while paused');
    // Still behind at the next look: still paused.
    stream.bufferedAmount = 600;
    clock.advanceBy(5);
    await sleep(20);
    assert.equal(stream.bytes(), 100);
    // Under half the mark: read on.
    stream.bufferedAmount = 0;
    clock.advanceBy(5);
    await until(() => stream.bytes() === 200, 'the second chunk');
    assert.equal(local.isPaused(), false);
  } finally {
    link.dispose();
    await close();
  }
});

test('bridge: data from the pod goes to the local side; a clean close ends it gracefully', { timeout: 30_000 }, async () => {
  const { local, client, close } = await pair();
  const stream = new StandInStream();
  bridge(local, stream, { clock: new VirtualClock() });
  stream.open();
  try {
    let received = '';
    client.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise<void>((resolve) => client.once('end', resolve));
    stream.data(Buffer.from('HTTP/1.1 200 OK\r\n\r\nok'));
    stream.close({ cut: false });
    await ended;
    assert.equal(received, 'HTTP/1.1 200 OK\r\n\r\nok');
  } finally {
    await close();
  }
});

test('bridge: a refusal, a failure or a cut resets the local side (as a refused connection looks)', { timeout: 30_000 }, async () => {
  for (const end of [{ cut: false, remoteError: 'dial tcp4 127.0.0.1:9090: connect: connection refused' }, { cut: true }] satisfies PortForwardEnd[]) {
    const { local, client, close } = await pair();
    const stream = new StandInStream();
    bridge(local, stream, { clock: new VirtualClock() });
    stream.open();
    try {
      const error = new Promise<NodeJS.ErrnoException>((resolve) => client.once('error', resolve));
      stream.close(end);
      assert.equal((await error).code, 'ECONNRESET');
    } finally {
      await close();
    }
  }
});

test('bridge: the local side ending ends the stream', { timeout: 30_000 }, async () => {
  const { local, client, close } = await pair();
  const stream = new StandInStream();
  bridge(local, stream, { clock: new VirtualClock() });
  stream.open();
  try {
    client.end();
    await until(() => stream.ended > 0, 'the stream ended');
  } finally {
    await close();
  }
});

test('bridge: a local side that does not read past maxUnread is dropped, not buffered without end', { timeout: 30_000 }, async () => {
  const { local, client, close } = await pair();
  const stream = new StandInStream();
  bridge(local, stream, { clock: new VirtualClock(), maxUnread: 64 * 1024 });
  stream.open();
  client.pause();
  try {
    for (let i = 0; i < 200 && !local.destroyed; i++) stream.data(Buffer.alloc(64 * 1024));
    assert.equal(local.destroyed, true);
    assert.equal(stream.ended, 1);
  } finally {
    await close();
  }
});

test('bridge: dispose drops both sides', { timeout: 30_000 }, async () => {
  const { local, client, close } = await pair();
  const stream = new StandInStream();
  const link = bridge(local, stream, { clock: new VirtualClock() });
  try {
    link.dispose();
    assert.equal(stream.disposed, true);
    assert.equal(local.destroyed, true);
  } finally {
    client.destroy();
    await close();
  }
});
