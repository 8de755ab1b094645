import type { ContainerSpec, IntOrString, ProbeHandler } from './model';
import { resolveContainerPort } from './ports';

/**
 * `httpGet http://:8080/healthz`, `tcpSocket :5432`, `exec cat /tmp/ready`, `grpc :9090`. With the
 * container, a named port shows the number it resolves to (N1): `httpGet http://:8080/healthz (port http)`.
 */
export function handlerTitle(handler: ProbeHandler | undefined, container?: Pick<ContainerSpec, 'ports'>): string {
  if (!handler) return 'no handler';
  switch (handler.type) {
    case 'httpGet':
      return `httpGet ${handler.scheme.toLowerCase()}://${handler.host ?? ''}:${portText(handler.port, container)}${handler.path.startsWith('/') ? '' : '/'}${handler.path}${namedPortNote(handler.port, container)}`;
    case 'tcpSocket':
      return `tcpSocket ${handler.host ?? ''}:${portText(handler.port, container)}${namedPortNote(handler.port, container)}`;
    case 'grpc':
      return `grpc :${handler.port}${handler.service ? ` service ${handler.service}` : ''}`;
    case 'exec':
      return `exec ${handler.command.join(' ')}`;
  }
}

function portText(port: IntOrString, container: Pick<ContainerSpec, 'ports'> | undefined): string {
  if (typeof port === 'number' || !container) return String(port);
  const resolved = resolveContainerPort(port, container);
  return resolved.ok ? String(resolved.port) : port;
}

function namedPortNote(port: IntOrString, container: Pick<ContainerSpec, 'ports'> | undefined): string {
  if (typeof port === 'number' || !container) return '';
  return resolveContainerPort(port, container).ok ? ` (port ${port})` : ` (port ${port} is not declared)`;
}
