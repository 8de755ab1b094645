// `import type` only: @grpc/grpc-js costs ~100 ms to load, so it is imported on the first gRPC
// probe (loadGrpcJs) and by no other module; a check run or an HTTP-only session never pays for it.
import type * as GrpcJs from '@grpc/grpc-js';
import { AsyncLocalStorage } from 'node:async_hooks';
import * as diagnosticsChannel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { goDuration, goQuote, joinHostPort } from './goFormat';
import type { AttemptOptions, Dialer, ProbeOutcome } from './types';

export interface GrpcTarget {
  readonly host: string;
  readonly port: number;
  /** `grpc.service`; the kubelet sends `""` when unset (G1). */
  readonly service?: string;
}

export interface GrpcAttemptOptions extends AttemptOptions {
  /** `kube-probe/<major>.<minor>` (G1); grpc-js appends its own product token, as grpc-go does. */
  readonly userAgent: string;
  /** Where the connection really goes; the `:authority` and every message keep the address asked for. */
  readonly dial?: Dialer;
}

const CHECK_METHOD = '/grpc.health.v1.Health/Check';

/**
 * G1–G2: the kubelet's gRPC health probe. Like `grpc.DialContext(ctx, addr, WithBlock())`
 * followed by `Check(ctx, …)`, one deadline covers the connection *and* the RPC, and the dial
 * waits for a ready connection until that deadline: a refused or garbled connection is retried
 * with back-off and ends as the connect *timeout*, exactly as in the kubelet (its own test expects
 * `timeout: failed to connect service ":32" within 1s: context deadline exceeded`).
 * Every outcome is a `failure` or `success` value, never an error (G2).
 */
export async function probeGrpc(target: GrpcTarget, options: GrpcAttemptOptions): Promise<ProbeOutcome> {
  const addr = joinHostPort(target.host, target.port);
  const { signal } = options;
  if (signal?.aborted) return connectCanceled(addr);
  const grpc = await abortable(loadGrpcJs(), signal);
  // Checked again: an abort between the load and this line has no listener to hear it.
  if (grpc === undefined || signal?.aborted) return connectCanceled(addr);
  return checkHealth(grpc, target, addr, options);
}

function checkHealth(grpc: typeof GrpcJs, target: GrpcTarget, addr: string, options: GrpcAttemptOptions): Promise<ProbeOutcome> {
  const timeout = goDuration(options.timeoutMs);
  // The deadline starts once the library is loaded: loading is our cost, not the target's.
  const deadline = Date.now() + options.timeoutMs;
  // Go dials an empty host as the local system; grpc-js needs a name.
  const asked = { host: target.host === '' ? 'localhost' : target.host, port: target.port };
  const dialed = options.dial?.(asked.host, asked.port) ?? asked;
  const dialTarget = joinHostPort(dialed.host, dialed.port);

  let client: GrpcJs.Client;
  try {
    client = new grpc.Client(dialTarget, grpc.credentials.createInsecure(), channelOptions(options.userAgent, dialed === asked ? undefined : joinHostPort(asked.host, asked.port)));
  } catch (error) {
    // grpc-js rejects some targets up front; grpc-go's passthrough dial would fail to connect instead.
    return Promise.resolve(failure(`error: failed to connect service at ${goQuote(addr)}: ${messageOf(error)}`));
  }

  const sockets = new AttemptSockets();
  return new Promise<ProbeOutcome>((resolve) => {
    let call: GrpcJs.ClientUnaryCall | undefined;
    let settled = false;
    const finish = (outcome: ProbeOutcome): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      call?.cancel();
      // Not in this tick: grpc-js delivers the resolved address with a setImmediate queued when
      // the attempt started, and a channel closed before that delivery still builds and connects
      // a subchannel (reconnecting for ever). An immediate queued now runs after it.
      setImmediate(() => {
        client.close();
        sockets.destroyAll();
      });
      resolve(outcome);
    };
    // A session that stops cancels the context, as the kubelet's `ctx` would be cancelled. What
    // grpc-js does in reaction must run in the attempt's context too (see AttemptSockets).
    const onAbort = (): void =>
      sockets.runInside(() =>
        finish(call === undefined ? connectCanceled(addr) : failure('error: health rpc probe failed: rpc error: code = Canceled desc = context canceled')),
      );
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const check = (): void => {
      const request: HealthCheckRequest = { service: target.service ?? '' };
      call = client.makeUnaryRequest(CHECK_METHOD, encodeHealthCheckRequest, decodeHealthCheckResponse, request, new grpc.Metadata(), { deadline }, (rpcError, response) =>
        finish(rpcError ? rpcErrorOutcome(rpcError, timeout) : responseOutcome(response)),
      );
    };
    // grpc-go's blocking dial: connect when idle, wait for READY state change by state change, until
    // the deadline; reconnecting after a failure is the channel's own business (back-off). Not
    // `Client.waitForReady`: it asks to connect in every state, even once the channel has closed,
    // which restarts a closed channel's name resolution and leaves a subchannel reconnecting for ever.
    const channel = client.getChannel();
    const waitForReady = (deadlinePassed?: Error): void => {
      if (settled) return;
      if (deadlinePassed !== undefined) {
        finish(failure(`timeout: failed to connect service ${goQuote(addr)} within ${timeout}: context deadline exceeded`));
        return;
      }
      const idle = channel.getConnectivityState(false) === grpc.connectivityState.IDLE;
      const state = channel.getConnectivityState(idle);
      if (state === grpc.connectivityState.READY) check();
      else channel.watchConnectivityState(state, deadline, waitForReady);
    };
    // Everything grpc-js starts from here on runs in this attempt's async context (see AttemptSockets).
    sockets.runInside(() => waitForReady());
  });
}

/**
 * The sockets grpc-js opens for one attempt. Closing a grpc-js channel does not abort a connection
 * attempt still under way (its subchannel never shuts the connector down), so a port that accepts
 * and never answers would keep a socket open after the attempt; the kubelet's dialer is bound to
 * the probe's context and goes with it. grpc-js offers no dialer hook, so the sockets are
 * recognised by the async context they are created in (node's `net.client.socket` channel) and
 * destroyed when the attempt ends; one created after that is destroyed at once.
 */
class AttemptSockets {
  private static readonly current = new AsyncLocalStorage<AttemptSockets>();
  private static watching = false;
  private readonly open = new Set<Socket>();
  private ended = false;

  runInside(body: () => void): void {
    if (!AttemptSockets.watching) {
      AttemptSockets.watching = true;
      diagnosticsChannel.subscribe('net.client.socket', (message) => AttemptSockets.current.getStore()?.adopt((message as { socket: Socket }).socket));
    }
    AttemptSockets.current.run(this, body);
  }

  destroyAll(): void {
    this.ended = true;
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  private adopt(socket: Socket): void {
    if (this.ended) {
      // Not now: `net.connect` publishes before it connects, and connecting revives a destroyed socket.
      process.nextTick(() => socket.destroy());
      return;
    }
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }
}

function channelOptions(userAgent: string, authority: string | undefined): GrpcJs.ChannelOptions {
  return {
    ...(authority !== undefined ? { 'grpc.default_authority': authority } : {}),
    'grpc.primary_user_agent': userAgent,
    // A connection of its own per attempt, closed with the channel (the kubelet dials per probe).
    'grpc.use_local_subchannel_pool': 1,
    // The kubelet dials through its own dialer, which bypasses grpc-go's proxy support.
    'grpc.enable_http_proxy': 0,
    // No DNS TXT lookups for a service config, and nothing registered in the global channelz.
    'grpc.service_config_disable_resolution': 1,
    'grpc.enable_channelz': 0,
  };
}

let grpcJs: Promise<typeof GrpcJs> | undefined;
/** Loads grpc-js once; `probe` calls it before timing the attempt (its load is not the probe's time). */
export function loadGrpcJs(): Promise<typeof GrpcJs> {
  grpcJs ??= import('@grpc/grpc-js');
  return grpcJs;
}

/** Resolves to undefined as soon as `signal` aborts, so an abort never waits for the load. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return promise;
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(signal.aborted ? undefined : value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function rpcErrorOutcome(error: GrpcJs.ServiceError, timeout: string): ProbeOutcome {
  switch (error.code) {
    case GRPC_UNIMPLEMENTED:
      return failure(`error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${error.details}`);
    case GRPC_DEADLINE_EXCEEDED:
      return failure(`timeout: health rpc did not complete within ${timeout}`);
    default:
      return failure(`error: health rpc probe failed: ${goStatusError(error.code, error.details)}`);
  }
}

function responseOutcome(response: HealthCheckResponse | undefined): ProbeOutcome {
  if (response === undefined || 'malformed' in response) {
    // grpc-go's wording when a response does not unmarshal (rpc_util.go recv).
    const reason = response?.malformed ?? 'proto: cannot parse invalid wire-format data';
    return failure(`error: health rpc probe failed: ${goStatusError(GRPC_INTERNAL, `grpc: failed to unmarshal the received message: ${reason}`)}`);
  }
  if (response.status === SERVING) return { result: 'success', output: 'service healthy' };
  return failure(`service unhealthy (responded with ${goQuote(servingStatusName(response.status))})`);
}

function connectCanceled(addr: string): ProbeOutcome {
  return failure(`error: failed to connect service at ${goQuote(addr)}: context canceled`);
}

function failure(output: string): ProbeOutcome {
  return { result: 'failure', output };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// --- Go formatting -----------------------------------------------------------------------------

const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNIMPLEMENTED = 12;
const GRPC_INTERNAL = 13;

/** grpc-go's `codes.Code.String()`, indexed by code. */
const GO_CODE_NAMES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable',
  'DataLoss', 'Unauthenticated',
] as const;

/** grpc-go's `status.Error(...).Error()`: `rpc error: code = Unavailable desc = …`. */
function goStatusError(code: number, details: string): string {
  return `rpc error: code = ${GO_CODE_NAMES[code] ?? `Code(${code})`} desc = ${details}`;
}




// --- grpc.health.v1, compiled in ---------------------------------------------------------------
// The two messages are tiny, so their wire format is written out here instead of loading a .proto
// at run time (design §2).

export interface HealthCheckRequest {
  readonly service: string;
}

/** A decoded HealthCheckResponse, or why it did not decode (a value, not an exception). */
export type HealthCheckResponse = { readonly status: number } | { readonly malformed: string };

const SERVING = 1;
const SERVING_STATUS_NAMES: Readonly<Record<number, string>> = { 0: 'UNKNOWN', 1: 'SERVING', 2: 'NOT_SERVING', 3: 'SERVICE_UNKNOWN' };

/** protobuf-go's `Enum.String()`: the name, or the number for a value this version does not know. */
export function servingStatusName(status: number): string {
  return SERVING_STATUS_NAMES[status] ?? String(status);
}

/** `HealthCheckRequest { string service = 1; }`; proto3 leaves out the empty default. */
export function encodeHealthCheckRequest(request: HealthCheckRequest): Buffer {
  const service = Buffer.from(request.service, 'utf8');
  if (service.length === 0) return Buffer.alloc(0);
  return Buffer.concat([Buffer.from([0x0a]), encodeVarint(service.length), service]);
}

/**
 * `HealthCheckResponse { ServingStatus status = 1; }`. Unknown fields (and a field 1 of another
 * wire type) are skipped and the last `status` wins, as protobuf-go does; an absent one is 0.
 */
export function decodeHealthCheckResponse(bytes: Buffer): HealthCheckResponse {
  const reader = { bytes, offset: 0 };
  let status = 0;
  while (reader.offset < bytes.length) {
    const key = readVarint(reader);
    if (key === undefined) return MALFORMED;
    const field = key >> 3n;
    const wireType = Number(key & 7n);
    if (field === 0n) return MALFORMED;
    if (field === 1n && wireType === 0) {
      const value = readVarint(reader);
      if (value === undefined) return MALFORMED;
      // An enum is an int32 on the wire: keep the low 32 bits, signed.
      status = Number(BigInt.asIntN(32, value));
    } else if (!skipField(reader, field, wireType)) {
      return MALFORMED;
    }
  }
  return { status };
}

const MALFORMED: HealthCheckResponse = { malformed: 'proto: cannot parse invalid wire-format data' };

interface Reader {
  readonly bytes: Buffer;
  offset: number;
}

function encodeVarint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** A base-128 varint of at most 10 bytes, or undefined when truncated or too long. */
function readVarint(reader: Reader): bigint | undefined {
  let value = 0n;
  for (let i = 0; i < 10; i += 1) {
    const byte = reader.bytes[reader.offset];
    if (byte === undefined) return undefined;
    reader.offset += 1;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if (byte < 0x80) return BigInt.asUintN(64, value);
  }
  return undefined;
}

/** Skips one field's value; false when the bytes are not valid wire format. */
function skipField(reader: Reader, field: bigint, wireType: number): boolean {
  switch (wireType) {
    case 0:
      return readVarint(reader) !== undefined;
    case 1:
      return advance(reader, 8);
    case 2: {
      const length = readVarint(reader);
      return length !== undefined && length <= BigInt(reader.bytes.length) && advance(reader, Number(length));
    }
    case 3:
      // A group: skip its fields up to the matching end-group key.
      while (reader.offset < reader.bytes.length) {
        const key = readVarint(reader);
        if (key === undefined) return false;
        const innerWire = Number(key & 7n);
        if (innerWire === 4) return key >> 3n === field;
        if (!skipField(reader, key >> 3n, innerWire)) return false;
      }
      return false;
    case 5:
      return advance(reader, 4);
    default:
      return false;
  }
}

function advance(reader: Reader, count: number): boolean {
  if (reader.offset + count > reader.bytes.length) return false;
  reader.offset += count;
  return true;
}
