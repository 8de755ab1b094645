import * as net from 'node:net';
import { goDialError } from './goErrors';
import { joinHostPort } from './goFormat';
import type { AttemptOptions, ProbeOutcome } from './types';

export interface TcpTarget {
  readonly host: string;
  readonly port: number;
}

/**
 * T1–T2: the kubelet's TCP probe. A connection that opens is closed at once (nothing is sent or
 * read); every dial error is a `failure` whose output is the string Go's `net.Dial` would give, so
 * events read like the kubelet's (`dial tcp 127.0.0.1:9: connect: connection refused`).
 *
 * The kubelet's dialer sets SO_LINGER to 1 s; node cannot set a non-zero linger, but with nothing
 * written a linger of 1 s closes with an ordinary FIN on Linux, which is what `destroy()` sends.
 */
export function probeTcp(target: TcpTarget, options: AttemptOptions): Promise<ProbeOutcome> {
  const { host, port } = target;
  // Go's resolver rejects the port before any socket exists; node would throw instead.
  if (!Number.isInteger(port) || port < 0 || port > 0xffff) {
    return Promise.resolve(failure(`dial tcp: address ${port}: invalid port`));
  }
  if (options.signal?.aborted) return Promise.resolve(failure(interrupted(host, host, port, GO_CANCELED)));

  return new Promise<ProbeOutcome>((resolve) => {
    // Go names the resolved address in its errors; `lookup` tells us which one node dials.
    let dialed = host;
    let settled = false;
    const socket = new net.Socket();
    // A paused socket never starts reading when it connects (T1: nothing is read).
    socket.pause();

    const finish = (outcome: ProbeOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = (): void => finish(failure(interrupted(host, dialed, port, GO_CANCELED)));
    const timer = setTimeout(() => finish(failure(interrupted(host, dialed, port, 'i/o timeout'))), options.timeoutMs);

    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('lookup', (error: Error | null, address: string) => {
      if (!error) dialed = address;
    });
    socket.on('error', (error) => finish(failure(goDialError(error, host, dialed, port))));
    socket.on('connect', () => finish({ result: 'success', output: '' }));
    socket.connect({ host, port });
  });
}


/** A dial cut short names its step, as Go does: the name lookup, or the connect to what it found. */
function interrupted(host: string, dialed: string, port: number, reason: string): string {
  const stillLookingUp = dialed === host && host !== '' && net.isIP(host) === 0;
  return stillLookingUp ? `dial tcp: lookup ${host}: ${reason}` : `dial tcp ${joinHostPort(dialed, port)}: ${reason}`;
}

/** Go's `errCanceled` text, for an attempt its session aborted. */
const GO_CANCELED = 'operation was canceled';

function failure(output: string): ProbeOutcome {
  return { result: 'failure', output };
}
