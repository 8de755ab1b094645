import type { Socket } from 'node:net';
import type * as Undici from 'undici';
import { type Clock, RealClock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import { clip } from '../text/sentence';
import type { ApiFailure } from './apiStatus';
import { channelFrame, PORT_FORWARD_CHANNEL, PortPrefix, readChannelFrame } from './channels';
import type { KubeApi } from './kubeApi';

/**
 * One TCP connection to a pod's port, as the API server's port-forward over WebSocket gives it:
 * one WebSocket per connection (unlike `kubectl port-forward`, a refused connection ends only
 * itself). The server opens the data channel and the error channel each with the port (2 bytes
 * LE); then data flows on channel 0 both ways, and when the pod's port refuses or the
 * connection fails the kubelet writes why on channel 1 — before it closes the WebSocket, on
 * the same ordered stream, so `onClose` always knows.
 */

export const PORT_FORWARD_PROTOCOLS: readonly string[] = ['v4.channel.k8s.io', 'channel.k8s.io', 'portforward.k8s.io'];

export interface PortForwardTarget {
  readonly namespace: string;
  readonly pod: string;
  readonly port: number;
}

/** How the connection ended. */
export interface PortForwardEnd {
  /** What the kubelet wrote on the error channel: `… dial tcp4 127.0.0.1:8080: connect: connection refused`. */
  readonly remoteError?: string;
  /** The WebSocket was never opened (the upgrade was refused: a Status 403/404/400, the proxy down), or the server broke the protocol. */
  readonly failure?: ApiFailure;
  /** It ended without a close frame (the connection dropped): the pod may not have seen all that was sent. */
  readonly cut: boolean;
}

export interface PortForwardEvents {
  onOpen?(): void;
  onData?(chunk: Buffer): void;
  onClose?(end: PortForwardEnd): void;
}

export interface PortForwardStream extends Disposable {
  readonly state: 'connecting' | 'open' | 'closed';
  /** Bytes written and not yet handed to the connection: back-pressure for the writer. */
  readonly bufferedAmount: number;
  /** Sends `chunk` to the pod's port; before the open it is queued, after the end dropped. */
  write(chunk: Buffer): void;
  /** Closes the connection (after what was written); `onClose` follows. */
  end(): void;
  /** More listeners (a bridge, a logger); disposing the result removes them. */
  listen(events: PortForwardEvents): Disposable;
}

/** What of the error channel is kept: the kubelet's message is one line. */
const MAX_REMOTE_ERROR = 4096;

/** `openPortForward(api, { namespace, pod, port }, { onOpen, onData, onClose })`. */
export function openPortForward(api: KubeApi, target: PortForwardTarget, events?: PortForwardEvents): PortForwardStream {
  return new WebSocketPortForward(api, target, events);
}

class WebSocketPortForward implements PortForwardStream {
  private readonly listeners = new Set<PortForwardEvents>();
  private readonly socket: Undici.WebSocket;
  private readonly dataPrefix = new PortPrefix();
  private readonly errorPrefix = new PortPrefix();
  private queued: Buffer[] = [];
  private queuedBytes = 0;
  private remoteError = '';
  private refusal: ApiFailure | undefined;
  private broken: ApiFailure | undefined;
  private endedByUs = false;
  private current: 'connecting' | 'open' | 'closed' = 'connecting';

  constructor(
    api: KubeApi,
    private readonly target: PortForwardTarget,
    events: PortForwardEvents | undefined,
  ) {
    if (events) this.listeners.add(events);
    const path = `/api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/portforward?ports=${target.port}`;
    this.socket = api.openWebSocket(path, PORT_FORWARD_PROTOCOLS, (failure) => {
      this.refusal = failure;
    });
    this.socket.addEventListener('open', () => this.opened());
    this.socket.addEventListener('message', (event) => this.received(event.data as ArrayBuffer | string));
    this.socket.addEventListener('close', (event) => this.closed(event.wasClean));
  }

  get state(): 'connecting' | 'open' | 'closed' {
    return this.current;
  }

  get bufferedAmount(): number {
    return this.queuedBytes + (this.current === 'open' ? this.socket.bufferedAmount : 0);
  }

  write(chunk: Buffer): void {
    if (this.endedByUs || this.current === 'closed' || chunk.length === 0) return;
    if (this.current === 'connecting') {
      this.queued.push(chunk);
      this.queuedBytes += chunk.length;
      return;
    }
    this.socket.send(channelFrame(PORT_FORWARD_CHANNEL.data, chunk));
  }

  end(): void {
    if (this.endedByUs || this.current === 'closed') return;
    this.endedByUs = true;
    // While connecting, the queue goes out first, on the open.
    if (this.current === 'open') this.socket.close(1000);
  }

  listen(events: PortForwardEvents): Disposable {
    this.listeners.add(events);
    return { dispose: () => this.listeners.delete(events) };
  }

  dispose(): void {
    this.listeners.clear();
    this.endedByUs = true;
    this.queued = [];
    this.queuedBytes = 0;
    if (this.current !== 'closed') this.socket.close(1000);
  }

  private opened(): void {
    this.current = 'open';
    for (const chunk of this.queued) this.socket.send(channelFrame(PORT_FORWARD_CHANNEL.data, chunk));
    this.queued = [];
    this.queuedBytes = 0;
    if (this.endedByUs) {
      this.socket.close(1000);
      return;
    }
    for (const listener of [...this.listeners]) listener.onOpen?.();
  }

  /** One decision per message: its channel says what it is; each channel opens with the port. */
  private received(data: ArrayBuffer | string): void {
    const message = readChannelFrame(data);
    if (!message || this.broken) return;
    const prefix = message.channel === PORT_FORWARD_CHANNEL.data ? this.dataPrefix : message.channel === PORT_FORWARD_CHANNEL.error ? this.errorPrefix : undefined;
    if (!prefix) return this.brokeProtocol(`a message on channel ${message.channel}, which port-forward does not use`);
    const payload = prefix.take(message.payload);
    if (prefix.complete && prefix.port !== this.target.port) return this.brokeProtocol(`port ${prefix.port} where port ${this.target.port} was asked for`);
    if (payload.length === 0 || !prefix.complete) return;
    if (message.channel === PORT_FORWARD_CHANNEL.error) {
      if (this.remoteError.length < MAX_REMOTE_ERROR) this.remoteError = (this.remoteError + payload.toString('utf8')).slice(0, MAX_REMOTE_ERROR);
      return;
    }
    for (const listener of [...this.listeners]) listener.onData?.(payload);
  }

  private brokeProtocol(what: string): void {
    const detail = `port-forward to ${this.target.pod}:${this.target.port}: the server sent ${what}`;
    this.broken = { error: { kind: 'unknown', sentence: `the cluster's port-forward to pod ${this.target.pod} sent ${what}: Probe Lens closed the connection; if it keeps happening, see the Probe Lens log.`, detail }, detail };
    this.socket.close(1000);
  }

  private closed(wasClean: boolean): void {
    const wasOpen = this.current === 'open';
    this.current = 'closed';
    this.queued = [];
    this.queuedBytes = 0;
    const remoteError = this.remoteError.trim();
    const failure = this.broken ?? (wasOpen ? undefined : (this.refusal ?? (this.endedByUs ? undefined : notOpened(this.target))));
    const end: PortForwardEnd = {
      ...(remoteError ? { remoteError } : {}),
      ...(failure ? { failure } : {}),
      cut: wasOpen && !wasClean && !this.endedByUs,
    };
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener.onClose?.(end);
  }
}

/** The WebSocket closed before it opened, and the handshake said nothing: undici's own refusal (no protocol agreed, say). */
function notOpened(target: PortForwardTarget): ApiFailure {
  const detail = `the WebSocket for port-forward to ${target.pod}:${target.port} closed before it opened`;
  return { error: { kind: 'unknown', sentence: `the cluster did not open a port-forward to pod ${target.pod} (${clip(detail, 120)}): see the Probe Lens log.`, detail }, detail };
}

export interface BridgeOptions {
  /** For the back-pressure poll. Default: the wall clock. */
  readonly clock?: Clock;
  /** The local side stops being read while this much waits to go out on the WebSocket. Default 1 MiB. */
  readonly highWaterMark?: number;
  /**
   * The WebSocket cannot be paused: when the local side has not taken this much, the connection
   * is dropped rather than held in memory. Default 16 MiB (a probe reads a few KiB).
   */
  readonly maxUnread?: number;
}

/** How often a paused local side looks whether the WebSocket has sent enough to read on. */
const DRAIN_POLL_MS = 5;

/**
 * Pipes a local connection and a port-forward both ways: the local side is read only while the
 * WebSocket keeps up, and each side ends when the other does — cleanly after a clean close,
 * with a reset after a refusal, a failure or a cut (as a refused or broken connection looks to
 * a client). Disposing drops both.
 */
export function bridge(socket: Socket, stream: PortForwardStream, options: BridgeOptions = {}): Disposable {
  const clock = options.clock ?? new RealClock();
  const high = options.highWaterMark ?? 1024 * 1024;
  const maxUnread = options.maxUnread ?? 16 * 1024 * 1024;
  let poll: Disposable | undefined;
  let done = false;
  const drain = (): void => {
    poll = undefined;
    if (done) return;
    if (stream.bufferedAmount > high / 2) poll = clock.schedule(DRAIN_POLL_MS, drain);
    else socket.resume();
  };
  const onData = (chunk: Buffer): void => {
    stream.write(chunk);
    if (stream.bufferedAmount >= high && !poll) {
      socket.pause();
      poll = clock.schedule(DRAIN_POLL_MS, drain);
    }
  };
  const onLocalEnd = (): void => stream.end();
  const finish = (): void => {
    if (done) return;
    done = true;
    poll?.dispose();
    poll = undefined;
    listening.dispose();
    socket.off('data', onData);
    socket.off('end', onLocalEnd);
    socket.off('close', onLocalEnd);
  };
  const listening = stream.listen({
    onOpen: () => {
      if (!poll) socket.resume();
    },
    onData: (chunk) => {
      if (socket.destroyed) return;
      socket.write(chunk);
      if (socket.writableLength > maxUnread) {
        finish();
        stream.end();
        reset(socket);
      }
    },
    onClose: (end) => {
      finish();
      if (end.cut || end.failure || end.remoteError) reset(socket);
      else socket.end();
    },
  });
  socket.on('data', onData);
  socket.on('end', onLocalEnd);
  socket.on('close', onLocalEnd);
  // A local error is followed by 'close'; without a listener it would be thrown.
  socket.on('error', () => undefined);
  if (stream.state === 'connecting') socket.pause();
  if (stream.state === 'closed') {
    finish();
    reset(socket);
  }
  return {
    dispose: () => {
      finish();
      stream.dispose();
      socket.destroy();
    },
  };
}

/** Ends a local connection the way a refused or broken one ends: a reset where the platform has it. */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function' && socket.readyState !== 'opening') socket.resetAndDestroy();
  else socket.destroy();
}
