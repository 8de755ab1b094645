import { isMap, isScalar, isSeq } from 'yaml';
import type { ServiceModel, ServicePort, UncheckedWorkload } from './model';
import { apiGroupOf, objectsOf, scalarString, stringMap } from './workloads';
import type { ValueNode, YamlNavigator } from './yamlNavigator';

/** The document's core Services (`v1`), each item of a List included. */
export function findServices(nav: YamlNavigator, root: ValueNode | null): ServiceModel[] {
  return objectsOf(nav, root).flatMap(({ node, depth }) => {
    if (scalarString(nav.get(node, 'kind', depth)?.value ?? null) !== 'Service' || apiGroupOf(nav, node, depth) !== '') return [];
    const metadata = nav.get(node, 'metadata', depth)?.value ?? null;
    const name = scalarString(nav.get(metadata, 'name', depth + 1)?.value ?? null);
    const namespace = scalarString(nav.get(metadata, 'namespace', depth + 1)?.value ?? null);
    const spec = nav.get(node, 'spec', depth)?.value ?? null;
    const selector = stringMap(nav, nav.get(spec, 'selector', depth + 1)?.value ?? null, depth + 2) ?? {};
    const ports = nav.get(spec, 'ports', depth + 1)?.value ?? null;
    const servicePorts = isSeq(ports) ? nav.items(ports, depth + 2).flatMap((item) => (isMap(item) ? [servicePort(nav, item, depth + 3)] : [])) : [];
    return [{ ...(name !== undefined ? { name } : {}), ...(namespace ? { namespace } : {}), selector, ports: servicePorts }];
  });
}

function servicePort(nav: YamlNavigator, item: ValueNode, depth: number): ServicePort {
  const number = (key: string) => {
    const node = nav.get(item, key, depth)?.value ?? null;
    return isScalar(node) && typeof node.value === 'number' ? node.value : undefined;
  };
  const target = nav.get(item, 'targetPort', depth)?.value ?? null;
  const targetPort = isScalar(target) && (typeof target.value === 'number' || typeof target.value === 'string') ? target.value : undefined;
  const port = number('port');
  const protocol = scalarString(nav.get(item, 'protocol', depth)?.value ?? null);
  return { ...(port !== undefined ? { port } : {}), ...(targetPort !== undefined ? { targetPort } : {}), ...(protocol ? { protocol } : {}) };
}

/**
 * Pod templates whose probes another component runs: a Knative Service's (or Configuration's)
 * containers are probed by the queue-proxy beside them, which re-implements probing with its own
 * rules (an aggressive readiness poll, the user port only). Only those that set a probe matter.
 */
const QUEUE_PROXY_KINDS = new Set(['Service', 'Configuration']);

export function findUncheckedWorkload(nav: YamlNavigator, root: ValueNode | null): UncheckedWorkload | undefined {
  for (const { node, depth } of objectsOf(nav, root)) {
    const kind = scalarString(nav.get(node, 'kind', depth)?.value ?? null);
    if (kind === undefined || !QUEUE_PROXY_KINDS.has(kind) || apiGroupOf(nav, node, depth) !== 'serving.knative.dev') continue;
    const template = nav.get(nav.get(node, 'spec', depth)?.value ?? null, 'template', depth + 1)?.value ?? null;
    const containers = nav.get(nav.get(template, 'spec', depth + 2)?.value ?? null, 'containers', depth + 3)?.value ?? null;
    if (!isSeq(containers)) continue;
    const probed = nav.items(containers, depth + 4).some((c) => isMap(c) && ['livenessProbe', 'readinessProbe', 'startupProbe'].some((p) => nav.get(c, p, depth + 5) !== undefined));
    if (!probed || node === null) continue;
    const apiVersion = scalarString(nav.get(node, 'apiVersion', depth)?.value ?? null) ?? '';
    return { kind, apiVersion, range: nav.rangeOf(node) };
  }
  return undefined;
}
