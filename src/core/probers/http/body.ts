import { MAX_OUTPUT_BYTES } from '../types';

export interface BodyRead {
  readonly bytes: Buffer;
  readonly error?: Error;
}

/**
 * A response body as undici delivers it, read the way Go's `ReadAtMost` reads (H8): up to a limit,
 * with an error only when the body failed before reaching it. Never more than the largest read
 * (the 10 240-byte cap) is held, whatever the server sends.
 */
export class BoundedBody {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private error: Error | undefined;
  private waiter: { readonly limit: number; readonly resolve: (read: BodyRead) => void } | undefined;

  add(chunk: Buffer): void {
    // Never hold more than the largest read; the rest is dropped, and the socket with it.
    // (Not paused: undici asserts on a paused parser when the socket then closes.)
    if (this.buffered >= MAX_OUTPUT_BYTES) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The first error is the one a reader sees. */
  fail(error: Error): void {
    this.error ??= error;
    this.wake();
  }

  /** Up to `limit` body bytes; `error` only when the body failed before the limit (ReadAtMost). */
  read(limit: number): Promise<BodyRead> {
    return new Promise((resolve) => {
      this.waiter = { limit, resolve };
      this.wake();
    });
  }

  private wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    const full = this.buffered >= waiter.limit;
    if (!full && !this.ended && !this.error) return;
    this.waiter = undefined;
    const bytes = Buffer.concat(this.chunks).subarray(0, waiter.limit);
    waiter.resolve(full || this.ended ? { bytes } : { bytes, error: this.error });
  }
}
