/**
 * A loopback TCP or HTTP server on a worker thread, so the benchmarked event loop does only the
 * probing. Traffic stays on 127.0.0.1; the server stops when the benchmark disposes it.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export interface LoopbackServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startLoopbackServer(kind: 'tcp' | 'http'): Promise<LoopbackServer> {
  const worker = new Worker(__filename, { workerData: { kind } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port: number }) => resolve(message.port));
    worker.once('error', reject);
  });
  return { port, close: async () => void (await worker.terminate()) };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const server =
    (workerData as { kind: string }).kind === 'http'
      ? createHttpServer({ keepAlive: false }, (_request, response) => response.end('ok'))
      : createTcpServer((socket) => {
          socket.on('error', () => undefined);
          socket.end();
        });
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => port.postMessage({ port: (server.address() as AddressInfo).port }));
}
