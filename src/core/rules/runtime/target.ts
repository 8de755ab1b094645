import { isIP } from 'node:net';
import { isLoopback } from '../../k8s/hosts';
import { probeRange } from '../locate';
import type { Issue, ProbeRule } from '../types';

/** Who the kubelet connects to, and how (docs/spec/validation-rules.md §A.6, §D 7 and 9; docs/spec/kubelet-probes.md H2, H4). */
const runtime = { scope: 'probe', category: 'runtime' } as const;

export const L07: ProbeRule = {
  ...runtime,
  id: 'L07',
  severity: 'warning',
  title: 'httpGet.host / tcpSocket.host is set: the kubelet connects from the node, not from inside the pod.',
  reference: 'validation-rules.md §A.6, §D.7',
  check(probe) {
    const handler = probe.effective.handler;
    if ((handler?.type !== 'httpGet' && handler?.type !== 'tcpSocket') || !handler.host) return [];
    // With hostNetwork the pod is in the node's network namespace: the node's loopback is the container's.
    if (probe.container.pod.hostNetwork && isLoopback(handler.host)) return [];
    const relative = `${handler.type}.host`;
    const header = handler.type === 'httpGet' ? ' Leave host empty (the pod IP) and, if the app routes by name, set a Host header in httpHeaders.' : ' Leave host empty to probe the pod IP.';
    return [{ path: `${probe.path}.${relative}`, range: probeRange(probe, relative), message: hostProblem(handler.host) + header }];
  },
};

function hostProblem(host: string): string {
  if (isLoopback(host)) {
    return `host "${host}" is the node itself: the kubelet runs on the node, so this probes the node's loopback, not the container.`;
  }
  if (isIP(host)) return `host "${host}" is a fixed address: the probe checks that machine, not this container.`;
  if (looksLikeServiceName(host)) {
    return `host "${host}" looks like a Service name: the kubelet resolves it on the node, which usually cannot resolve cluster DNS, and even then it would probe the Service, not this container.`;
  }
  return `host "${host}" is resolved and connected to from the node: the probe checks that host, not this container.`;
}

/**
 * A bare label (`my-svc`) or a cluster name (`my-svc.ns.svc`, `….svc.cluster.local`). `svc.ns`
 * is left out: it cannot be told from `example.com`.
 */
function looksLikeServiceName(host: string): boolean {
  const labels = host.split('.');
  const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
  if (!labels.every((l) => dnsLabel.test(l))) return false;
  return labels.length === 1 || labels[2] === 'svc' || host.endsWith('.cluster.local');
}

export const L09: ProbeRule = {
  ...runtime,
  id: 'L09',
  severity: 'warning',
  title: 'Two Host headers, or header names that differ only by case (they are one header once canonicalised).',
  reference: 'validation-rules.md §D.9; kubelet-probes.md H2, H4',
  check(probe) {
    const handler = probe.effective.handler;
    if (handler?.type !== 'httpGet') return [];
    const seen = new Map<string, { name: string; index: number }>();
    const issues: Issue[] = [];
    handler.httpHeaders.forEach((header, index) => {
      const canonical = header.name.toLowerCase();
      const first = seen.get(canonical);
      if (!first) {
        seen.set(canonical, { name: header.name, index });
        return;
      }
      const relative = `httpGet.httpHeaders[${index}].name`;
      const path = `${probe.path}.httpGet.httpHeaders[${index}].name`;
      if (canonical === 'host') {
        issues.push({ path, range: probeRange(probe, relative), message: `a second Host header: only the first one (httpHeaders[${first.index}]) is used as the request's Host` });
      } else if (first.name !== header.name) {
        issues.push({ path, range: probeRange(probe, relative), message: `"${header.name}" and "${first.name}" are the same header once canonicalised: both values are sent under one name` });
      }
    });
    return issues;
  },
};
