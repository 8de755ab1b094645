import { isIP } from 'node:net';

/** The machine's own loopback: `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
