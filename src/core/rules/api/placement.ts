import { apiIssue } from './apiErrors';
import { type ContainerModel, PROBE_FIELDS } from '../../manifest';
import { containerRange } from '../locate';
import type { ContainerRule, PodRule } from '../types';

/** Where probes may appear (docs/spec/validation-rules.md §A.4): one Forbidden per probe, contents not looked at. */
const api = { severity: 'error', category: 'api' } as const;

export const P14: ContainerRule = {
  ...api,
  scope: 'container',
  kinds: ['init'],
  id: 'P14',
  title: 'Probes are forbidden on init containers that are not sidecars (restartPolicy: Always).',
  reference: 'validation-rules.md §A.3 P14',
  check: (container) => forbidEachProbe(container, 'may not be set for init containers without restartPolicy=Always'),
};

export const P16: ContainerRule = {
  ...api,
  scope: 'container',
  kinds: ['ephemeral'],
  id: 'P16',
  title: 'Probes are forbidden on ephemeral containers.',
  reference: 'validation-rules.md §A.3 P16',
  check: (container) => forbidEachProbe(container, 'cannot be set for an Ephemeral Container'),
};

export const P17: PodRule = {
  ...api,
  scope: 'pod',
  id: 'P17',
  title: 'Ephemeral containers cannot be created with a Pod nor set in a pod template.',
  reference: 'validation-rules.md §A.3 P17',
  check(pod) {
    if (!pod.ephemeralContainers?.key) return [];
    const path = `${pod.path}.ephemeralContainers`;
    const detail = pod.isTemplate ? 'ephemeral containers not allowed in pod template' : 'cannot be set on create';
    return [apiIssue('Forbidden', path, pod.ephemeralContainers.key, detail)];
  },
};

function forbidEachProbe(container: ContainerModel, detail: string) {
  return container.probes.map((probe) => apiIssue('Forbidden', `${container.path}.${PROBE_FIELDS[probe.type]}`, containerRange(container, PROBE_FIELDS[probe.type], 'key'), detail));
}
