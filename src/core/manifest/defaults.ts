import { HANDLER_TYPES, type EffectiveProbe, type ProbeHandler, type ProbeSpec } from './model';

/** Pod-level `terminationGracePeriodSeconds` when unset (D5). */
export const DEFAULT_POD_GRACE_SECONDS = 30;
/** Pod `restartPolicy` when unset (D5). */
export const DEFAULT_RESTART_POLICY = 'Always';

/**
 * The API server's defaults, on a copy (D1, D2): 0 or unset becomes timeout 1, period 10,
 * success 1, failure 3; an empty `httpGet.path` becomes `/` and an empty scheme `HTTP`.
 * Negative values are kept: they are for validation (P09) to reject.
 */
export function withProbeDefaults(spec: ProbeSpec): EffectiveProbe {
  const orDefault = (value: number | undefined, fallback: number) => (value === undefined || value === 0 ? fallback : value);
  const handlers = HANDLER_TYPES.filter((type) => spec[type] !== undefined);
  const effective: EffectiveProbe = {
    handler: handlerWithDefaults(spec),
    handlerCount: handlers.length,
    initialDelaySeconds: spec.initialDelaySeconds ?? 0,
    timeoutSeconds: orDefault(spec.timeoutSeconds, 1),
    periodSeconds: orDefault(spec.periodSeconds, 10),
    successThreshold: orDefault(spec.successThreshold, 1),
    failureThreshold: orDefault(spec.failureThreshold, 3),
  };
  return spec.terminationGracePeriodSeconds === undefined
    ? effective
    : { ...effective, terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds };
}

function handlerWithDefaults(spec: ProbeSpec): ProbeHandler | undefined {
  if (spec.exec) return { type: 'exec', command: spec.exec.command ?? [] };
  if (spec.httpGet) {
    const http = spec.httpGet;
    return {
      type: 'httpGet',
      path: http.path || '/',
      port: http.port ?? 0,
      ...(http.host ? { host: http.host } : {}),
      scheme: http.scheme || 'HTTP',
      httpHeaders: (http.httpHeaders ?? []).map((h) => ({ name: h.name ?? '', value: h.value ?? '' })),
    };
  }
  if (spec.tcpSocket) return { type: 'tcpSocket', port: spec.tcpSocket.port ?? 0, ...(spec.tcpSocket.host ? { host: spec.tcpSocket.host } : {}) };
  if (spec.grpc) return { type: 'grpc', port: spec.grpc.port ?? 0, ...(spec.grpc.service !== undefined ? { service: spec.grpc.service } : {}) };
  return undefined;
}
