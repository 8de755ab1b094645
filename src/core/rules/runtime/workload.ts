import { startupBudgetSeconds } from '../timing/formulas';
import { PROBE_FIELDS } from '../../manifest';
import { portReaching, serviceName, servicesSelecting } from '../services';
import { containerRange } from '../locate';
import { type ContainerRule, type Issue, PROBING_CONTAINERS } from '../types';

/** What probes mean for the kind of workload and container (docs/spec/validation-rules.md §D 17, 18, 22, 24). */
const runtime = { scope: 'container', category: 'runtime' } as const;

export const L17: ContainerRule = {
  ...runtime,
  kinds: ['regular'],
  id: 'L17',
  severity: 'warning',
  title: "A readiness probe on a Job's or CronJob's container that no Service selects: it routes nothing and only costs probes.",
  reference: 'validation-rules.md §D.17',
  acrossDocuments: true,
  check(container, context) {
    const readiness = container.probe('readiness');
    const pod = container.pod;
    if (!readiness || (pod.objectKind !== 'Job' && pod.objectKind !== 'CronJob')) return [];
    // Readiness decides whether a Service sends a pod traffic: with a Service selecting the
    // Job's pods, it does its usual work.
    if (servicesSelecting(pod, context.services).length > 0) return [];
    return [
      {
        path: readiness.path,
        range: readiness.keyRange,
        message: `a readinessProbe on a ${pod.objectKind}'s container, and no Service among the manifests checked selects its pods: readiness only decides which pods a Service sends traffic to, so here it decides nothing and only costs probes`,
      },
    ];
  },
};

/**
 * A container a Service sends traffic to, with no readinessProbe: the kubelet reports it Ready
 * as soon as it has started (K2: no probe is Success), so the Service sends it requests before
 * the app listens, and keeps sending them while it cannot answer. What peers (kube-linter's
 * no-readiness-probe) report for every Deployment, reported here only where a Service of the
 * same manifests reaches the container.
 */
export const L30: ContainerRule = {
  ...runtime,
  kinds: ['regular'],
  id: 'L30',
  severity: 'warning',
  title: 'A container a Service sends traffic to has no readinessProbe: it gets requests before it is ready, and while it cannot answer.',
  reference: 'validation-rules.md §D.30; kubelet-probes.md K2',
  acrossDocuments: true,
  check(container, context) {
    if (container.probe('readiness')) return [];
    const reaching = servicesSelecting(container.pod, context.services).flatMap((service) => {
      const port = portReaching(service, container);
      return port ? [{ service, port }] : [];
    });
    const [first] = reaching;
    if (!first) return [];
    const target = first.port.targetPort ?? first.port.port;
    const startup = container.probe('startup');
    const when = startup
      ? 'it is Ready as soon as its startupProbe succeeds, and stays Ready whatever happens after'
      : 'the kubelet reports it Ready the moment it starts, before the app listens, and it stays Ready whatever happens after';
    return [
      {
        path: container.path,
        range: containerRange(container, 'name'),
        message: `${serviceName(first.service)}${reaching.length > 1 ? ` (and ${reaching.length - 1} more)` : ''} sends this container traffic on port ${typeof target === 'string' ? `"${target}"` : target}, but it has no readinessProbe: ${when}, so requests reach it while it cannot answer; add a readinessProbe on the port it serves`,
      },
    ];
  },
};

export const L29: ContainerRule = {
  ...runtime,
  kinds: ['regular'],
  id: 'L29',
  severity: 'warning',
  title: 'A liveness probe in a pod with restartPolicy: Never kills the container for good.',
  reference: 'validation-rules.md §D.17; kubelet-probes.md K2',
  check(container) {
    const liveness = container.probe('liveness');
    if (!liveness || container.pod.restartPolicy !== 'Never') return [];
    const kind = container.pod.objectKind;
    const after = kind === 'Job' || kind === 'CronJob' ? `the pod fails, and the ${kind === 'Job' ? 'Job' : "CronJob's Job"} starts a new pod only while its backoffLimit allows` : 'the pod fails for good';
    return [{ path: liveness.path, range: liveness.keyRange, message: `with restartPolicy: Never a liveness failure kills this container and it is never restarted: ${after}` }];
  },
};

export const L18: ContainerRule = {
  ...runtime,
  kinds: ['sidecar'],
  id: 'L18',
  severity: 'info',
  title: "A sidecar's startupProbe holds back the containers after it; its readinessProbe counts towards Pod readiness.",
  reference: 'validation-rules.md §D.18; kubelet-probes.md S3',
  check(container) {
    const startup = container.probe('startup');
    const readiness = container.probe('readiness');
    const issues: Issue[] = [];
    if (startup) {
      issues.push({
        path: startup.path,
        range: startup.keyRange,
        message: `this sidecar's startupProbe holds back the init containers after it and every regular container until it succeeds: up to ${startupBudgetSeconds(startup.effective)} s before the kubelet gives up and restarts it`,
      });
    }
    if (readiness) {
      issues.push({ path: readiness.path, range: readiness.keyRange, message: "this sidecar's readinessProbe counts towards the Pod's readiness: while it fails, the whole Pod is out of its Services' endpoints" });
    }
    return issues;
  },
};

export const L22: ContainerRule = {
  ...runtime,
  kinds: PROBING_CONTAINERS,
  id: 'L22',
  severity: 'warning',
  title: 'A probe key with no value (`livenessProbe:`) silently means "no probe".',
  reference: 'validation-rules.md §A.5, §D.22',
  check(container) {
    return Object.values(PROBE_FIELDS)
      .filter((field) => container.locate(field)?.isNull)
      .map((field) => ({
        path: `${container.path}.${field}`,
        range: containerRange(container, field, 'key'),
        message: `${field} has no value, which means no ${field.replace('Probe', '')} probe at all: fill it in or remove the key`,
      }));
  },
};

export const L24: ContainerRule = {
  ...runtime,
  kinds: ['init'],
  id: 'L24',
  severity: 'info',
  title: 'Probes on a plain init container: did you mean a sidecar (restartPolicy: Always)?',
  reference: 'validation-rules.md §A.4, §D.24',
  check(container) {
    if (container.probes.length === 0 || container.spec.restartPolicy === 'Always') return [];
    const first = container.probes[0] as NonNullable<(typeof container.probes)[number]>;
    return [
      {
        path: first.path,
        range: first.keyRange,
        message: `init container "${container.name}" runs to completion before the app starts and is never probed; if it should keep running beside the app, make it a sidecar with restartPolicy: Always`,
      },
    ];
  },
};
