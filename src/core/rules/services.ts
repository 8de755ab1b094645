import type { ContainerModel, PodSpecModel, ServiceModel, ServicePort } from '../manifest';

/**
 * Which Services send a pod traffic, and to which of its containers: what readiness decides.
 * A Service selects a pod when its selector is non-empty and every pair is among the pod's
 * labels, in the same namespace (a namespace written on one side only is decided at apply time:
 * it gets the benefit of the doubt).
 */
export function servicesSelecting(pod: PodSpecModel, services: readonly ServiceModel[] | undefined): ServiceModel[] {
  return (services ?? []).filter((service) => selects(service, pod));
}

function selects(service: ServiceModel, pod: PodSpecModel): boolean {
  const pairs = Object.entries(service.selector);
  if (pairs.length === 0 || !pod.podLabels) return false;
  if (service.namespace && pod.objectNamespace && service.namespace !== pod.objectNamespace) return false;
  return pairs.every(([key, value]) => pod.podLabels?.[key] === value);
}

/**
 * The Service's port that reaches `container`: a `targetPort` naming one of its ports, or the
 * number of one it declares (`targetPort` absent means `port`). A number no container declares
 * still reaches the pod; it is the container's when it is the pod's only regular container.
 */
export function portReaching(service: ServiceModel, container: ContainerModel): ServicePort | undefined {
  const declared = container.spec.ports ?? [];
  const regular = container.pod.containers.filter((c) => c.kind === 'regular');
  return service.ports.find((port) => {
    const target = port.targetPort ?? port.port;
    if (typeof target === 'string') return declared.some((p) => p.name === target);
    if (target === undefined) return false;
    if (declared.some((p) => p.containerPort === target)) return true;
    const declaredAnywhere = regular.some((c) => (c.spec.ports ?? []).some((p) => p.containerPort === target));
    return !declaredAnywhere && regular.length === 1 && regular[0] === container;
  });
}

/** `Service "web"`, or `a Service` when it has no name. */
export function serviceName(service: ServiceModel): string {
  return service.name ? `Service "${service.name}"` : 'a Service';
}
