/** channel.k8s.io framing: one channel byte, then the payload; port-forward channels open with the port. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelFrame, EXEC_CHANNEL, PortPrefix, readChannelFrame } from '../../../src/core/kubeclient/channels';

test('a frame is the channel byte then the payload, and reads back as the same', () => {
  const frame = channelFrame(EXEC_CHANNEL.stderr, Buffer.from('oops'));
  assert.deepEqual([...frame], [2, ...Buffer.from('oops')]);
  const read = readChannelFrame(frame);
  assert.equal(read?.channel, 2);
  assert.equal(read?.payload.toString(), 'oops');
});

test('a frame read from an ArrayBuffer (undici WebSocket binaryType arraybuffer) and from a view into a larger buffer', () => {
  const bytes = Uint8Array.from([255, 0, 1, 2, 3]);
  assert.deepEqual({ ...readChannelFrame(bytes.buffer), payload: [...(readChannelFrame(bytes.buffer)?.payload ?? [])] }, { channel: 255, payload: [0, 1, 2, 3] });
  const view = bytes.subarray(2, 4);
  const read = readChannelFrame(view);
  assert.equal(read?.channel, 1);
  assert.deepEqual([...(read?.payload ?? [])], [2]);
});

test('a text message (a WebSocket string) is read as its UTF-8 bytes', () => {
  const read = readChannelFrame('\u0001é');
  assert.equal(read?.channel, 1);
  assert.deepEqual([...(read?.payload ?? [])], [...Buffer.from('é')]);
});

test('an empty message has no channel', () => {
  assert.equal(readChannelFrame(new ArrayBuffer(0)), undefined);
});

test('a channel with an empty payload is a frame of one byte', () => {
  assert.deepEqual([...channelFrame(3, Buffer.alloc(0))], [3]);
});

test('the port prefix: 2 bytes little-endian, alone or ahead of data', () => {
  const alone = new PortPrefix();
  assert.equal(alone.take(Buffer.from([0x90, 0x1f])).length, 0);
  assert.equal(alone.complete, true);
  assert.equal(alone.port, 8080);
  // After the prefix, everything is the channel's own.
  assert.equal(alone.take(Buffer.from('GET')).toString(), 'GET');

  const ahead = new PortPrefix();
  assert.equal(ahead.take(Buffer.from([0x50, 0x00, 0x48, 0x49])).toString(), 'HI');
  assert.equal(ahead.port, 80);
});

test('the port prefix split across two messages', () => {
  const prefix = new PortPrefix();
  assert.equal(prefix.take(Buffer.from([0x39])).length, 0);
  assert.equal(prefix.complete, false);
  assert.equal(prefix.port, undefined);
  assert.equal(prefix.take(Buffer.from([0x30, 0x41])).toString(), 'A');
  assert.equal(prefix.port, 0x3039);
});
