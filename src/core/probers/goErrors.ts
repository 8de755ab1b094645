import { joinHostPort } from './goFormat';

/**
 * Go's words for a failed connection, shared by the TCP and HTTP probers: the kubelet puts the
 * text of Go's `*net.OpError` in its events (`dial tcp 10.1.2.3:80: connect: connection refused`),
 * so ours are rewritten from node's errors into the same shape.
 */

/** The fields of a node system error that Go's texts are built from. */
export interface SystemError extends Error {
  readonly code?: string;
  readonly syscall?: string;
  readonly address?: string;
  readonly hostname?: string;
}

/** Linux `syscall.Errno` strings, as Go prints them after `connect: `, `read: ` or `write: `. */
export const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by peer',
  ECONNABORTED: 'software caused connection abort',
  EPIPE: 'broken pipe',
  EHOSTUNREACH: 'no route to host',
  EHOSTDOWN: 'host is down',
  ENETUNREACH: 'network is unreachable',
  ENETDOWN: 'network is down',
  ETIMEDOUT: 'connection timed out',
  EADDRNOTAVAIL: 'cannot assign requested address',
  EADDRINUSE: 'address already in use',
  EAFNOSUPPORT: 'address family not supported by protocol',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EINVAL: 'invalid argument',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in system',
  ENOBUFS: 'no buffer space available',
};

/**
 * Rewrites a node dial error in the shape of Go's `*net.OpError` text. `host` is what was asked
 * for, `dialed` the address the lookup gave (Go names it when the connect fails).
 */
export function goDialError(raw: Error, host: string, dialed: string, port: number): string {
  // With happy eyeballs node reports every family's failure; Go reports the first.
  const error = (raw instanceof AggregateError && raw.errors[0] instanceof Error ? raw.errors[0] : raw) as SystemError;
  const code = error.code ?? '';
  if (error.syscall === 'getaddrinfo' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const reason = code === 'ENOTFOUND' ? 'no such host' : 'server misbehaving';
    return `dial tcp: lookup ${error.hostname ?? host}: ${reason}`;
  }
  const address = joinHostPort(error.address ?? dialed, port);
  const text = ERRNO_TEXT[code];
  if (text !== undefined) return `dial tcp ${address}: ${error.syscall ?? 'connect'}: ${text}`;
  // Unknown to the table: keep node's words rather than invent Go's.
  return `dial tcp ${address}: ${error.message}`;
}
