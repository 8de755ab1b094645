import { SIDECARS_SINCE } from '../../manifest/podSpec';
import { containerRange, probeRange } from '../locate';
import type { ContainerRule, Issue, ProbeRule } from '../types';

/** Fields that exist but are off, or alpha, in the targeted Kubernetes version (docs/spec/validation-rules.md §A.7, §D.26). */
const version = { category: 'runtime', severity: 'warning', id: 'L26', reference: 'validation-rules.md §A.7, §D.26' } as const;

export const L26: ProbeRule = {
  ...version,
  scope: 'probe',
  title: 'A probe field is off by default, or alpha and gated, in the targeted Kubernetes version.',
  check(probe, context) {
    const minor = context.minorVersion;
    const issues: Issue[] = [];
    const flag = (relative: string, message: string) => issues.push({ path: `${probe.path}.${relative}`, range: probeRange(probe, relative, 'key'), message });
    if (probe.spec.grpc && minor < 24) flag('grpc', `gRPC probes are alpha and off by default in Kubernetes 1.${minor} (on from 1.24): the API server drops the field`);
    if (probe.spec.terminationGracePeriodSeconds !== undefined && minor < 25) {
      flag('terminationGracePeriodSeconds', `probe-level terminationGracePeriodSeconds is off by default in Kubernetes 1.${minor} (on from 1.25): the field is dropped`);
    }
    if (probe.spec.grpc?.mode !== undefined) flag('grpc.mode', 'grpc.mode is alpha (gate GRPCContainerProbeTLS): dropped unless the cluster enables the gate');
    if (probe.spec.httpGet?.protocol !== undefined) flag('httpGet.protocol', 'httpGet.protocol is alpha (gate HTTPProbeProtocol): dropped unless the cluster enables the gate');
    return issues;
  },
};

/** The same rule id, for the one container-level field: sidecars. */
export const L26Sidecar: ContainerRule = {
  ...version,
  scope: 'container',
  kinds: ['init'],
  title: L26.title,
  check(container, context) {
    if (container.spec.restartPolicy !== 'Always' || context.minorVersion >= SIDECARS_SINCE) return [];
    return [
      {
        path: `${container.path}.restartPolicy`,
        range: containerRange(container, 'restartPolicy'),
        message: `sidecar containers (restartPolicy: Always on an init container) are off by default before Kubernetes 1.29; in 1.${context.minorVersion} this is a plain init container, so its probes are forbidden`,
      },
    ];
  },
};
