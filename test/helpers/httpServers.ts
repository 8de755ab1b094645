import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server a test starts on the loopback interface; it counts and tracks its connections. */
export interface TestServer {
  readonly port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Connections still open on the server's side. */
  open(): number;
  /** Waits until every connection is closed; false if some are still open after `ms`. */
  allClosed(ms?: number): Promise<boolean>;
  /** Destroys the remaining connections and stops listening. */
  close(): Promise<void>;
}

/** An HTTP server (node:http) on 127.0.0.1, or on `host`. */
export function startHttpServer(handler: http.RequestListener, host = '127.0.0.1'): Promise<TestServer> {
  return track(http.createServer(withoutDate(handler)), host);
}

/** An HTTPS server with the committed self-signed certificate (CN=localhost, IP 127.0.0.1). */
export function startHttpsServer(handler: http.RequestListener, host = '127.0.0.1'): Promise<TestServer> {
  const dir = join(process.cwd(), 'test/fixtures/tls');
  return track(https.createServer({ cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) }, withoutDate(handler)), host);
}

/** No Date header: node caches it behind a timer, which a probe's leak check would blame on the probe. */
function withoutDate(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    res.sendDate = false;
    handler(req, res);
  };
}

/** A raw TCP server, for targets that do not speak HTTP properly. */
export function startRawServer(onConnection: (socket: net.Socket) => void, host = '127.0.0.1'): Promise<TestServer> {
  return track(
    net.createServer((socket) => {
      onConnection(socket);
      // Read (and drop) whatever comes, so the client's FIN is seen and the socket can close.
      socket.resume();
    }),
    host,
  );
}

function track(server: net.Server, host: string): Promise<TestServer> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  server.on('connection', (socket: net.Socket) => {
    accepted += 1;
    sockets.add(socket);
    // A probe that closes mid-response makes the server's writes fail: expected, not a crash.
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        port,
        accepted: () => accepted,
        open: () => sockets.size,
        async allClosed(ms = 1000) {
          const end = performance.now() + ms;
          while (sockets.size > 0 && performance.now() < end) await sleep(5);
          return sockets.size === 0;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Runs `body` with a started server and always closes it. */
export async function withServer<T>(started: Promise<TestServer>, body: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await started;
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

/** A port nothing listens on: bound by the kernel, then released. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen({ host, port: 0 }, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
