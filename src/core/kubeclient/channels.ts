/**
 * channel.k8s.io framing, as the API server's WebSocket endpoints (exec, port-forward) speak it:
 * every binary message is one channel byte, then that channel's bytes. Exec uses stdin 0,
 * stdout 1, stderr 2, the status (v4+: a JSON `Status`) 3, resize 4 and, in v5, 255 to close a
 * channel; port-forward gives each port a data channel (2·i) and an error channel (2·i + 1),
 * each opened by the port number, 2 bytes little-endian.
 */

export const EXEC_CHANNEL = { stdin: 0, stdout: 1, stderr: 2, status: 3, resize: 4, close: 255 } as const;
export const PORT_FORWARD_CHANNEL = { data: 0, error: 1 } as const;

/** One message received: its channel and the bytes that follow (a view, not a copy). */
export interface ChannelMessage {
  readonly channel: number;
  readonly payload: Buffer;
}

/** A message to send on `channel`: the channel byte, then `payload`. */
export function channelFrame(channel: number, payload: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(payload.length + 1);
  frame[0] = channel;
  frame.set(payload, 1);
  return frame;
}

/**
 * A received message split into channel and payload; `undefined` for an empty message (no channel
 * byte). A text message (a WebSocket's `string` data) is read as its UTF-8 bytes.
 */
export function readChannelFrame(data: ArrayBuffer | Uint8Array | string): ChannelMessage | undefined {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data instanceof Uint8Array ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);
  if (bytes.length === 0) return undefined;
  return { channel: bytes[0] as number, payload: bytes.subarray(1) };
}

/**
 * The port prefix that opens each port-forward channel, read as it arrives: the first two bytes
 * of a channel are the port (they may come in a message of their own, or ahead of data).
 */
export class PortPrefix {
  private readonly seen: number[] = [];

  /** Whether both bytes have been read. */
  get complete(): boolean {
    return this.seen.length === 2;
  }

  /** The port the server named, once complete. */
  get port(): number | undefined {
    return this.complete ? (this.seen[0] as number) | ((this.seen[1] as number) << 8) : undefined;
  }

  /** Takes what of `payload` is prefix, and returns the rest (the channel's own bytes). */
  take(payload: Buffer): Buffer {
    let used = 0;
    while (!this.complete && used < payload.length) this.seen.push(payload[used++] as number);
    return used === 0 ? payload : payload.subarray(used);
  }
}
