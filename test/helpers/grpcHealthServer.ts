import * as grpc from '@grpc/grpc-js';
import * as net from 'node:net';

/**
 * A real grpc-js server on 127.0.0.1 for the gRPC prober's tests, fronted by a TCP relay so a
 * test can see the prober's connections open and close (grpc-js does not expose its sockets).
 * The health messages are encoded here independently of the prober's codec, so a mistake in one
 * is not mirrored by the other.
 */

/** What Check answers: a serving status number, or an RPC error. */
export type CheckAnswer = number | { readonly code: grpc.status; readonly details: string };

export interface CheckRequestSeen {
  readonly service: string;
  readonly userAgent: string;
  /** The raw request bytes, to check the encoding itself. */
  readonly bytes: Buffer;
}

export interface HealthServerOptions {
  /** Register `grpc.health.v1.Health`; without it every call is Unimplemented. Default true. */
  readonly withHealth?: boolean;
  /** Answer for a service name; default SERVING. */
  readonly answer?: (service: string) => CheckAnswer;
  /** Delay before answering (a slow handler), ms. */
  readonly delayMs?: number;
  /** Raw response bytes instead of an encoded status (a malformed response). */
  readonly rawResponse?: Buffer;
  /** Where the relay listens (the prober's target): `127.0.0.1` or `::1`. */
  readonly host?: string;
}

export interface HealthServer {
  readonly port: number;
  readonly requests: readonly CheckRequestSeen[];
  /** Connections the relay accepted so far, and those still open. */
  accepted(): number;
  open(): number;
  close(): Promise<void>;
}

export const SERVING_STATUS = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;

export async function startHealthServer(options: HealthServerOptions = {}): Promise<HealthServer> {
  const requests: CheckRequestSeen[] = [];
  const server = new grpc.Server();
  if (options.withHealth !== false) {
    server.addService(healthService(), {
      Check: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const service = decodeRequest(call.request);
        requests.push({ service, userAgent: String(call.metadata.get('user-agent')[0] ?? ''), bytes: call.request });
        const respond = (): void => {
          if (options.rawResponse) return callback(null, options.rawResponse);
          const answer = (options.answer ?? (() => SERVING_STATUS.SERVING))(service);
          if (typeof answer === 'number') callback(null, encodeResponse(answer));
          else callback({ code: answer.code, details: answer.details });
        };
        if (options.delayMs === undefined) return respond();
        const timer = setTimeout(respond, options.delayMs);
        call.on('cancelled', () => clearTimeout(timer));
      },
    });
  }
  const grpcPort = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
  const relay = await startRelay(grpcPort, options.host ?? '127.0.0.1');
  return {
    port: relay.port,
    requests,
    accepted: relay.accepted,
    open: relay.open,
    async close() {
      await relay.close();
      server.forceShutdown();
    },
  };
}

/** A listener that accepts TCP and answers with bytes that are not HTTP/2 (or nothing at all). */
export function startHostileServer(reply: Buffer | null): Promise<Relay> {
  return listen('127.0.0.1', (socket) => {
    socket.on('error', () => undefined);
    // Read (and drop) what the client sends, so its FIN is seen and the socket closes.
    socket.resume();
    if (reply) socket.write(reply);
  });
}

export interface Relay {
  readonly port: number;
  accepted(): number;
  open(): number;
  close(): Promise<void>;
}

function startRelay(upstreamPort: number, host: string): Promise<Relay> {
  return listen(host, (client) => {
    const upstream = net.connect({ host: '127.0.0.1', port: upstreamPort });
    client.pipe(upstream).pipe(client);
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', closeBoth);
      socket.on('close', closeBoth);
    }
  });
}

async function listen(host: string, onConnection: (socket: net.Socket) => void): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen({ host, port: 0 }, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    accepted: () => accepted,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function healthService(): grpc.ServiceDefinition {
  const identity = (value: Buffer): Buffer => value;
  return {
    Check: {
      path: '/grpc.health.v1.Health/Check',
      requestStream: false,
      responseStream: false,
      requestSerialize: identity,
      requestDeserialize: identity,
      responseSerialize: identity,
      responseDeserialize: identity,
    },
  };
}

/** HealthCheckRequest: only field 1 (string, tag 0x0a) with a one-byte length is expected here. */
function decodeRequest(bytes: Buffer): string {
  if (bytes.length === 0) return '';
  if (bytes[0] !== 0x0a || bytes[1] === undefined || bytes[1] > 0x7f || bytes.length !== 2 + bytes[1]) {
    throw new Error(`unexpected HealthCheckRequest bytes ${bytes.toString('hex')}`);
  }
  return bytes.subarray(2).toString('utf8');
}

/** HealthCheckResponse: field 1 (varint, tag 0x08); status 0 is the proto3 default, left out. */
function encodeResponse(status: number): Buffer {
  return status === 0 ? Buffer.alloc(0) : Buffer.from([0x08, status]);
}
