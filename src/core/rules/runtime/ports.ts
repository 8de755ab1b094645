import { findPortByName, resolveContainerPort } from '../../manifest/ports';
import { isValidPortName, isValidPortNum } from '../../k8s/validation';
import { writtenInProbe } from '../../manifest/written';
import { yamlScalar } from '../../manifest/yamlText';
import type { ContainerPort, ProbeModel, ProbeType } from '../../manifest';
import { closestName } from '../../text/closestName';
import { probeRange } from '../locate';
import type { Fix, Issue, ProbeRule } from '../types';

/** Port checks the API server does not make but the kubelet depends on (docs/spec/validation-rules.md §D 1–8, N1–N3). */
const runtime = { scope: 'probe', category: 'runtime' } as const;

/** What the kubelet does when every attempt is a prober error (P5), by probe type. */
const UNRESOLVED_CONSEQUENCE: Readonly<Record<ProbeType, string>> = {
  readiness: 'the container never becomes Ready',
  startup: 'the startup probe never succeeds, so the container is never started, never Ready, and never restarted by it',
  liveness: 'the liveness probe silently never restarts the container',
};

export const L01: ProbeRule = {
  ...runtime,
  id: 'L01',
  severity: 'error',
  title: "A named probe port must be declared in the same container's ports (the kubelet looks nowhere else).",
  reference: 'validation-rules.md §D.1; kubelet-probes.md N2, N3, P5',
  check(probe) {
    const named = namedPort(probe);
    if (!named || findPortByName(probe.container.spec, named.name)) return [];
    const elsewhere = probe.container.pod.containers.find((c) => c !== probe.container && findPortByName(c.spec, named.name));
    const hint = elsewhere ? ` (container "${elsewhere.name}" declares it, but a probe only looks at its own container)` : '';
    const fixes = useDeclaredPortFixes(probe, named);
    return [
      {
        path: `${probe.path}.${named.relative}`,
        range: probeRange(probe, named.relative),
        message: `the ${probe.type} probe's port "${named.name}" is not a port this container declares${hint}: every attempt is a prober error the kubelet never counts, so ${UNRESOLVED_CONSEQUENCE[probe.type]}`,
        ...(fixes.length > 0 ? { fixes } : {}),
      },
    ];
  },
};

export const L02: ProbeRule = {
  ...runtime,
  id: 'L02',
  severity: 'warning',
  title: 'A named probe port resolves to a UDP or SCTP port (the lookup ignores the protocol; the probe then fails).',
  reference: 'validation-rules.md §A.6, §D.2',
  check(probe) {
    const named = namedPort(probe);
    const declared = named && findPortByName(probe.container.spec, named.name);
    const protocol = declared?.protocol ?? 'TCP';
    if (!named || !declared || protocol === 'TCP') return [];
    return [
      {
        path: `${probe.path}.${named.relative}`,
        range: probeRange(probe, named.relative),
        message: `port "${named.name}" is a ${protocol} port (${declared.containerPort ?? '?'}/${protocol}); the kubelet resolves it all the same and then probes it over TCP, which fails`,
      },
    ];
  },
};

export const L03: ProbeRule = {
  ...runtime,
  id: 'L03',
  severity: 'info',
  title: "A numeric probe port is not among the container's declared ports (it works; is it the right port?).",
  reference: 'validation-rules.md §D.3',
  check(probe) {
    const target = numericTarget(probe);
    const ports = probe.container.spec.ports ?? [];
    if (!target || ports.length === 0 || ports.some((p) => p.containerPort === target.port)) return [];
    if (ports.some((p) => p.hostPort === target.port)) return []; // L06 says more
    const declared = ports.map((p) => p.containerPort).filter((n) => n !== undefined).join(', ');
    return [
      {
        path: `${probe.path}.${target.relative}`,
        range: probeRange(probe, target.relative),
        message: `the ${probe.type} probe's port ${target.port} is not among the container's declared ports (${declared}); the probe still goes there, but check it is the port the app listens on`,
      },
    ];
  },
};

export const L04: ProbeRule = {
  ...runtime,
  id: 'L04',
  severity: 'info',
  title: 'A quoted number as a port ("8080") is read as a port name and rejected (P06).',
  reference: 'validation-rules.md §A.5, §D.4',
  check(probe) {
    const handler = probe.effective.handler;
    if ((handler?.type !== 'httpGet' && handler?.type !== 'tcpSocket') || typeof handler.port !== 'string' || !/^\d+$/.test(handler.port)) return [];
    const relative = `${handler.type}.port`;
    const range = probeRange(probe, relative);
    const number = Number(handler.port);
    const message = `"${handler.port}" is a string, so Kubernetes reads it as a port name, and a name needs a letter; write ${number} without quotes`;
    // Unquoting an out-of-range number would only trade this error for P05.
    const fix = isValidPortNum(number).length === 0 ? { fixes: [{ title: `Unquote the port: ${number}`, edits: [{ range, newText: String(number) }] }] } : {};
    return [{ path: `${probe.path}.${relative}`, range, message, ...fix }];
  },
};

export const L05: ProbeRule = {
  ...runtime,
  id: 'L05',
  severity: 'info',
  title: 'gRPC probes take a port number only; a name cannot be decoded (D02). Suggests the number.',
  reference: 'validation-rules.md §A.5, §D.5; kubelet-probes.md D3',
  check(probe) {
    const failed = probe.decodeIssues.find((issue) => issue.rule === 'D02' && issue.path === `${probe.path}.grpc.port`);
    if (!failed || typeof failed.value !== 'string') return [];
    const written = failed.value;
    const declared = findPortByName(probe.container.spec, written)?.containerPort;
    const number = declared ?? (/^\d+$/.test(written) ? Number(written) : undefined);
    const path = `${probe.path}.grpc.port`;
    if (number === undefined) {
      return [{ path, range: failed.range, message: `gRPC probes need a port number, not a name, and container "${probe.container.name}" has no port named "${written}" to take it from` }];
    }
    const why = declared !== undefined ? `the containerPort named "${written}"` : 'the same number, unquoted';
    const fix = isValidPortNum(number).length === 0 ? { fixes: [{ title: `Use port ${number}`, edits: [{ range: failed.range, newText: String(number) }] }] } : {};
    return [{ path, range: failed.range, message: `gRPC probes need a port number, not a name: use ${number} (${why})`, ...fix }];
  },
};

export const L06: ProbeRule = {
  ...runtime,
  id: 'L06',
  severity: 'warning',
  title: 'The probe port is a hostPort but no containerPort: probes go to the pod IP and the container port.',
  reference: 'validation-rules.md §D.6',
  check(probe) {
    const target = numericTarget(probe);
    const ports = probe.container.spec.ports ?? [];
    if (!target || ports.some((p) => p.containerPort === target.port)) return [];
    const viaHost = ports.find((p) => p.hostPort === target.port);
    if (!viaHost) return [];
    return [
      {
        path: `${probe.path}.${target.relative}`,
        range: probeRange(probe, target.relative),
        message: `${target.port} is only a hostPort here (mapped to containerPort ${viaHost.containerPort ?? '?'}); probes connect to the pod IP on the container port, so use ${viaHost.containerPort ?? 'the containerPort'}`,
      },
    ];
  },
};

export const L08: ProbeRule = {
  ...runtime,
  id: 'L08',
  severity: 'info',
  title: 'scheme HTTPS on a port named like "http", or HTTP on a port named "https" or numbered 443.',
  reference: 'validation-rules.md §D.8',
  check(probe) {
    const handler = probe.effective.handler;
    if (handler?.type !== 'httpGet') return [];
    const resolved = resolveContainerPort(handler.port, probe.container.spec);
    const name = typeof handler.port === 'string' ? handler.port : (probe.container.spec.ports ?? []).find((p) => p.containerPort === handler.port)?.name;
    const looksTls = (name !== undefined && /^https(\b|-|$)|tls|ssl/.test(name)) || (resolved.ok && resolved.port === 443);
    const looksPlain = name !== undefined && /^http(-|$)/.test(name);
    const issue = (message: string): Issue[] => [{ path: `${probe.path}.httpGet.scheme`, range: probeRange(probe, probe.locate('httpGet.scheme') ? 'httpGet.scheme' : 'httpGet.port'), message }];
    if (handler.scheme === 'HTTPS' && looksPlain) return issue(`scheme HTTPS on port "${name}", which is named like a plain HTTP port`);
    if (handler.scheme === 'HTTP' && looksTls) return issue(`scheme HTTP (the default) on ${name ? `port "${name}"` : 'port 443'}, which looks like a TLS port: set scheme: HTTPS`);
    return [];
  },
};

/**
 * L01's fixes: "Use port `http` (8080)" for each TCP port the container does declare by name
 * (a UDP one would only trade L01 for L02), the one closest to the name written first (a typo is
 * the likeliest cause), then in declaration order. "Declare port" needs a number from the user,
 * so it is the editor's command, not a fix here.
 */
function useDeclaredPortFixes(probe: ProbeModel, named: { name: string; relative: string }): Fix[] {
  const written = writtenInProbe(probe, named.relative);
  if (!written) return [];
  const usable = (probe.container.spec.ports ?? []).filter(
    (p): p is ContainerPort & { name: string } => p.name !== undefined && isValidPortName(p.name).length === 0 && (p.protocol ?? 'TCP') === 'TCP' && isValidPortNum(p.containerPort ?? 0).length === 0,
  );
  const names = [...new Set(usable.map((p) => p.name))];
  const closest = closestName(named.name, names);
  const ordered = closest === undefined ? names : [closest, ...names.filter((n) => n !== closest)];
  return ordered.map((name) => ({
    title: `Use port "${name}" (${findPortByName(probe.container.spec, name)?.containerPort})`,
    edits: [{ range: written.value, newText: yamlScalar(name) }],
  }));
}

/** A string port that is a valid port name: what the kubelet looks up among the container's ports. */
function namedPort(probe: ProbeModel): { name: string; relative: string } | undefined {
  const handler = probe.effective.handler;
  if ((handler?.type !== 'httpGet' && handler?.type !== 'tcpSocket') || typeof handler.port !== 'string') return undefined;
  // Invalid names are P06's to report (and the API server rejects them before any kubelet sees them).
  if (isValidPortName(handler.port).length > 0) return undefined;
  return { name: handler.port, relative: `${handler.type}.port` };
}

function numericTarget(probe: ProbeModel): { port: number; relative: string } | undefined {
  const handler = probe.effective.handler;
  if (handler === undefined || handler.type === 'exec' || typeof handler.port !== 'number' || handler.port < 1 || handler.port > 65535) return undefined;
  return { port: handler.port, relative: `${handler.type}.port` };
}
