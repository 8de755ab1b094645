import { resolveContainerPort } from '../manifest/ports';
import type { ContainerModel, ProbeHandler } from '../manifest';

/** A handler with its port resolved the kubelet's way (N1–N3) and its host chosen: what a prober needs. */
export type ResolvedHandler =
  | { readonly type: 'httpGet'; readonly scheme: string; readonly host: string; readonly port: number; readonly path: string; readonly headers: readonly { readonly name: string; readonly value: string }[] }
  | { readonly type: 'tcpSocket'; readonly host: string; readonly port: number }
  | { readonly type: 'grpc'; readonly host: string; readonly port: number; readonly service: string }
  | { readonly type: 'exec'; readonly command: readonly string[] };

export type Resolution = { readonly ok: true; readonly handler: ResolvedHandler } | { readonly ok: false; readonly error: string };

/**
 * `podIp` stands for the pod's address (the loopback in local mode); `httpGet.host` and
 * `tcpSocket.host` override it (H1, T1), gRPC always uses it (G1). A port that does not resolve is
 * a prober error, as in the kubelet (N3, P5). `missing probe handler` likewise (P1).
 */
export function resolveHandler(handler: ProbeHandler | undefined, container: ContainerModel, podIp: string): Resolution {
  if (!handler) return { ok: false, error: `missing probe handler for ${container.pod.objectName ?? 'pod'}:${container.name}` };
  switch (handler.type) {
    case 'exec':
      return { ok: true, handler: { type: 'exec', command: handler.command } };
    case 'grpc': {
      const port = handler.port;
      if (port < 1 || port > 65535) return { ok: false, error: `invalid port number: ${port}` };
      return { ok: true, handler: { type: 'grpc', host: podIp, port, service: handler.service ?? '' } };
    }
    case 'httpGet':
    case 'tcpSocket': {
      const port = resolveContainerPort(handler.port, container.spec);
      if (!port.ok) return { ok: false, error: port.error };
      const host = handler.host || podIp;
      return handler.type === 'tcpSocket'
        ? { ok: true, handler: { type: 'tcpSocket', host, port: port.port } }
        : { ok: true, handler: { type: 'httpGet', scheme: handler.scheme, host, port: port.port, path: handler.path, headers: handler.httpHeaders } };
    }
  }
}
