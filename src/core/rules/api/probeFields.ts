import { apiIssue } from './apiErrors';
import { isNonNegative } from '../../k8s/validation';
import type { ProbeModel, ProbeType } from '../../manifest';
import { probeRange } from '../locate';
import type { Issue, ProbeRule } from '../types';

/** validateProbe / validateLivenessProbe / validateReadinessProbe / validateStartupProbe (§A.3). */
const api = { scope: 'probe', severity: 'error', category: 'api' } as const;

const NON_NEGATIVE_FIELDS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;

export const P09: ProbeRule = {
  ...api,
  id: 'P09',
  title: 'Probe delays, timeouts, periods and thresholds must not be negative (0 means the default).',
  reference: 'validation-rules.md §A.3 P09',
  check(probe) {
    const issues: Issue[] = [];
    for (const field of NON_NEGATIVE_FIELDS) {
      const value = probe.effective[field];
      for (const detail of isNonNegative(value)) issues.push(apiIssue('Invalid', `${probe.path}.${field}`, probeRange(probe, field), detail, value));
    }
    return issues;
  },
};

export const P10: ProbeRule = {
  ...api,
  id: 'P10',
  title: 'A probe-level terminationGracePeriodSeconds must be greater than 0 (0 is not defaulted).',
  reference: 'validation-rules.md §A.3 P10',
  check(probe) {
    const value = probe.effective.terminationGracePeriodSeconds;
    if (value === undefined || value > 0) return [];
    return [apiIssue('Invalid', `${probe.path}.terminationGracePeriodSeconds`, probeRange(probe, 'terminationGracePeriodSeconds'), 'must be greater than 0', value)];
  },
};

export const P11: ProbeRule = {
  ...api,
  id: 'P11',
  title: 'A readiness probe must not set terminationGracePeriodSeconds.',
  reference: 'validation-rules.md §A.3 P11',
  check(probe) {
    const value = probe.effective.terminationGracePeriodSeconds;
    if (probe.type !== 'readiness' || value === undefined) return [];
    return [apiIssue('Invalid', `${probe.path}.terminationGracePeriodSeconds`, probeRange(probe, 'terminationGracePeriodSeconds'), 'must not be set for readinessProbes', value)];
  },
};

export const P12: ProbeRule = successThresholdMustBeOne('liveness', 'P12');
export const P13: ProbeRule = successThresholdMustBeOne('startup', 'P13');

function successThresholdMustBeOne(type: ProbeType, id: string): ProbeRule {
  return {
    ...api,
    id,
    title: `A ${type} probe's successThreshold must be 1 (0 is defaulted to 1).`,
    reference: `validation-rules.md §A.3 ${id}`,
    check(probe: ProbeModel) {
      const value = probe.effective.successThreshold;
      if (probe.type !== type || value === 1) return [];
      const range = probeRange(probe, 'successThreshold');
      const issue = apiIssue('Invalid', `${probe.path}.successThreshold`, range, 'must be 1', value);
      return [{ ...issue, fixes: [{ title: 'Set successThreshold to 1', edits: [{ range, newText: '1' }] }] }];
    },
  };
}
