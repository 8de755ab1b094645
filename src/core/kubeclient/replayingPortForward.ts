import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import type { PortForwardEnd, PortForwardEvents, PortForwardStream } from './portForwardStream';

/**
 * A port-forward that opens again, and sends again what was written, when its stream is cut
 * before the pod said anything. The kubelet writes a refused port's error, then a close frame,
 * and closes the connection at once (docs/cluster-protocol.md C1): bytes a client wrote in the
 * meantime (the prober's request) meet a closed socket, the kernel answers them with a reset, and
 * a reset makes the hop in between (the API server, kubectl proxy) drop what it had not read yet
 * — the error and the close frame. The stream then looks cut, though the pod refused: measured
 * through kubectl proxy, 18 of 400 such port-forwards. Opened again (the request is a probe's:
 * it may be sent twice, as the kubelet's own retries do) — and this time sent only once the
 * stream has been open a few of its own round trips without a refusal — the refusal is heard; a
 * stream cut each time stays cut. Nothing is replayed once the pod has answered, or past `maxBytes`.
 */
export interface ReplayOptions {
  /** For the wait before a replay is sent. */
  readonly clock: Clock;
  /** How many times a stream cut before an answer is opened again. Default 2. */
  readonly attempts?: number;
  /** What is kept to send again; a request longer than this is not replayed. Default 64 KiB. */
  readonly maxBytes?: number;
}

/** A replay waits this many round trips of its stream's opening (at least the floor) for a refusal before it is sent. */
const SETTLE_ROUND_TRIPS = 3;
const SETTLE_FLOOR_MS = 20;

export function replayingPortForward(open: (events: PortForwardEvents) => PortForwardStream, options: ReplayOptions): PortForwardStream {
  return new ReplayingPortForward(open, options.clock, options.attempts ?? 2, options.maxBytes ?? 64 * 1024);
}

class ReplayingPortForward implements PortForwardStream {
  private readonly listeners = new Set<PortForwardEvents>();
  private inner: PortForwardStream;
  private sent: Buffer[] | undefined = [];
  private sentBytes = 0;
  private answered = false;
  private opened = false;
  private ended = false;
  private replaysLeft: number;
  /** A replay's stream, until it has been open long enough without a refusal: writes wait in `sent`. */
  private holding: { readonly since: number; timer: Disposable | undefined } | undefined;

  constructor(
    private readonly open: (events: PortForwardEvents) => PortForwardStream,
    private readonly clock: Clock,
    replays: number,
    private readonly maxBytes: number,
  ) {
    this.replaysLeft = replays;
    this.inner = this.connect();
  }

  get state(): PortForwardStream['state'] {
    return this.inner.state;
  }

  get bufferedAmount(): number {
    return this.inner.bufferedAmount;
  }

  write(chunk: Buffer): void {
    if (this.holding) {
      // Held for the replay: kept whatever its size, it goes out on the release.
      this.sent?.push(chunk);
      return;
    }
    if (this.sent && !this.answered) {
      this.sentBytes += chunk.length;
      if (this.sentBytes <= this.maxBytes) this.sent.push(chunk);
      else this.sent = undefined;
    }
    this.inner.write(chunk);
  }

  end(): void {
    this.ended = true;
    this.release();
    this.inner.end();
  }

  listen(events: PortForwardEvents): Disposable {
    this.listeners.add(events);
    return { dispose: () => this.listeners.delete(events) };
  }

  dispose(): void {
    this.listeners.clear();
    this.holding?.timer?.dispose();
    this.inner.dispose();
  }

  private connect(): PortForwardStream {
    return this.open({
      onOpen: () => {
        const holding = this.holding;
        if (holding) holding.timer = this.clock.schedule(Math.max(SETTLE_FLOOR_MS, SETTLE_ROUND_TRIPS * (this.clock.now() - holding.since)), () => this.release());
        if (this.opened) return;
        this.opened = true;
        for (const listener of [...this.listeners]) listener.onOpen?.();
      },
      onData: (chunk) => {
        // An app that speaks first has taken the connection: what waits may go.
        this.release();
        this.answered = true;
        this.sent = undefined;
        for (const listener of [...this.listeners]) listener.onData?.(chunk);
      },
      onClose: (end) => this.closed(end),
    });
  }

  /** The replay's stream has stayed open without a refusal: what was written goes out. */
  private release(): void {
    if (!this.holding) return;
    this.holding.timer?.dispose();
    this.holding = undefined;
    for (const chunk of this.sent ?? []) this.inner.write(chunk);
  }

  /** One decision: a cut before any answer is opened again while it may be; any other end is the stream's. */
  private closed(end: PortForwardEnd): void {
    const replayable = end.cut && end.remoteError === undefined && end.failure === undefined && !this.answered && !this.ended && this.sent !== undefined;
    if (replayable && this.replaysLeft > 0) {
      this.replaysLeft--;
      this.holding?.timer?.dispose();
      this.holding = { since: this.clock.now(), timer: undefined };
      this.inner = this.connect();
      return;
    }
    this.holding?.timer?.dispose();
    this.holding = undefined;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener.onClose?.(end);
  }
}
