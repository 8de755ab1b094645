/** Keeps the first `cap` bytes of a stream and drops the rest: the kubelet's LimitWriter (E2, H8). */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    if (this.size >= this.cap) return;
    const kept = chunk.length <= this.cap - this.size ? chunk : chunk.subarray(0, this.cap - this.size);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}
