import * as net from 'node:net';
import type { Disposable } from '../base/disposable';
import type { ApiFailure, KubeApi } from '../kubeclient/kubeApi';
import { bridge, openPortForward, type PortForwardEnd, type PortForwardTarget } from '../kubeclient/portForwardStream';
import { replayingPortForward } from '../kubeclient/replayingPortForward';

/** How the port-forward streams of one attempt went, worst first. */
export type ForwardVerdict =
  /** The pod end refused or failed a dial: the kubelet's error-channel text. */
  | { readonly kind: 'remote-error'; readonly text: string }
  /** The API server or the proxy refused the port-forward itself (403, 404, proxy down). */
  | { readonly kind: 'rejected'; readonly failure: ApiFailure }
  /** A stream dropped without closing (the network, the proxy, the API server went away). */
  | { readonly kind: 'cut' }
  | { readonly kind: 'clean' };

/**
 * One attempt's own local end of a port-forward: a listener on an ephemeral loopback port whose
 * every connection is carried by a port-forward stream of its own, through the API server, to
 * `target.port` in the pod. The real HTTP and gRPC probers dial it. A listener per attempt ties
 * every stream, and what its error channel says, to that attempt alone: probes of one pod never
 * share a connection, so a refused port cannot blind another probe.
 */
export class ForwardedAttempt implements Disposable {
  private readonly server = net.createServer((socket) => this.carry(socket));
  /** The streams in flight and their bridges: all dropped with the attempt. */
  private readonly streams = new Set<Disposable>();
  private readonly sockets = new Set<net.Socket>();
  private verdict: ForwardVerdict = { kind: 'clean' };
  private closed = false;
  private port = 0;

  private constructor(
    private readonly api: KubeApi,
    private readonly target: PortForwardTarget,
  ) {}

  /** Listening on 127.0.0.1 at `localPort` once resolved (or `undefined` if it could not listen). */
  static async listen(api: KubeApi, target: PortForwardTarget): Promise<ForwardedAttempt | undefined> {
    const attempt = new ForwardedAttempt(api, target);
    const listening = await new Promise<boolean>((resolve) => {
      attempt.server.once('error', () => resolve(false));
      attempt.server.listen(0, '127.0.0.1', () => resolve(true));
    });
    if (listening) {
      attempt.port = (attempt.server.address() as net.AddressInfo).port;
      return attempt;
    }
    attempt.dispose();
    return undefined;
  }

  /** Kept from when it listened: an attempt stopped mid-way (its session ended) has no address any more, but is still named. */
  get localPort(): number {
    return this.port;
  }

  /** What the streams said so far: a refusal outranks a rejection, which outranks a cut. */
  get outcome(): ForwardVerdict {
    return this.verdict;
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    for (const stream of this.streams) stream.dispose();
    this.sockets.clear();
    this.streams.clear();
  }

  /** One prober connection: its bytes both ways through a stream of its own. */
  private carry(socket: net.Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.once('close', () => this.sockets.delete(socket));
    // A stream cut before the pod answered is opened again (replayingPortForward says why).
    const stream = replayingPortForward((events) => openPortForward(this.api, this.target, events), { clock: this.api.clock });
    // Recorded first, so the error channel's word is known before the bridge ends the prober's connection.
    stream.listen({
      onClose: (end) => {
        this.record(end);
        this.streams.delete(stream);
      },
    });
    this.streams.add(stream);
    this.streams.add(bridge(socket, stream));
  }

  private record(end: PortForwardEnd): void {
    const next = forwardVerdict(end);
    if (RANK[next.kind] > RANK[this.verdict.kind]) this.verdict = next;
  }
}

const RANK: Readonly<Record<ForwardVerdict['kind'], number>> = { 'remote-error': 3, rejected: 2, cut: 1, clean: 0 };

/** How one stream ended, as a verdict. */
export function forwardVerdict(end: PortForwardEnd): ForwardVerdict {
  if (end.remoteError !== undefined) return { kind: 'remote-error', text: end.remoteError };
  if (end.failure) return { kind: 'rejected', failure: end.failure };
  return end.cut ? { kind: 'cut' } : { kind: 'clean' };
}
