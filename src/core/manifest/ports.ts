import type { ContainerPort, ContainerSpec, IntOrString } from './model';

export type PortResolution =
  | { readonly ok: true; readonly port: number; readonly declared?: ContainerPort }
  | { readonly ok: false; readonly error: string };

/**
 * The kubelet's `ResolveContainerPort` (N1–N3): a number must be 1–65535; a string is first looked
 * up among the *same container's* port names (first match, any protocol, `containerPort` not
 * `hostPort`), then parsed as a decimal number. A failure is a prober *error* (P5).
 */
export function resolveContainerPort(port: IntOrString, container: Pick<ContainerSpec, 'ports'>): PortResolution {
  if (typeof port === 'number') return checkPortNumber(port);
  const declared = findPortByName(container, port);
  if (declared) return withDeclared(checkPortNumber(declared.containerPort ?? 0), declared);
  const parsed = parseGoInt(port);
  return parsed === undefined ? { ok: false, error: `strconv.Atoi: parsing ${JSON.stringify(port)}: invalid syntax` } : checkPortNumber(parsed);
}

export function findPortByName(container: Pick<ContainerSpec, 'ports'>, name: string): ContainerPort | undefined {
  return container.ports?.find((p) => p.name === name);
}

function checkPortNumber(port: number): PortResolution {
  return port > 0 && port < 65536 ? { ok: true, port } : { ok: false, error: `invalid port number: ${port}` };
}

function withDeclared(resolution: PortResolution, declared: ContainerPort): PortResolution {
  return resolution.ok ? { ok: true, port: resolution.port, declared } : resolution;
}

/** Go's `strconv.Atoi`: optional sign, decimal digits only. */
function parseGoInt(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}
