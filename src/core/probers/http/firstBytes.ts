import type * as net from 'node:net';
import { Duplex } from 'node:stream';

/**
 * A pass-through over the TCP socket that keeps the first bytes the server sends: Go words a
 * failed handshake after them (`http: server gave HTTP response to HTTPS client`), and node's TLS
 * layer would otherwise read the socket directly and hide them.
 */
export class FirstBytes extends Duplex {
  head = Buffer.alloc(0);
  /** The server closed its side (a FIN, not a reset). */
  finished = false;

  constructor(private readonly raw: net.Socket) {
    super();
    raw.on('data', (chunk: Buffer) => {
      if (this.head.length < 5) this.head = Buffer.concat([this.head, chunk]).subarray(0, 5);
      if (!this.push(chunk)) raw.pause();
    });
    raw.on('end', () => {
      this.finished = true;
      this.push(null);
    });
    // A reset must reach the TLS layer as the error it is, not as a quiet close.
    raw.on('error', (error) => this.destroy(error));
    raw.on('close', () => this.destroy());
  }

  override _read(): void {
    this.raw.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.raw.write(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.raw.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.raw.destroy();
    callback(error);
  }
}
