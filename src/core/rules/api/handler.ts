import { apiIssue } from './apiErrors';
import { isHttpHeaderName, isValidPortName, isValidPortNum, SUPPORTED_HTTP_SCHEMES } from '../../k8s/validation';
import { HANDLER_TYPES, type IntOrString, type ProbeModel } from '../../manifest';
import { probeRange } from '../locate';
import type { Issue, ProbeRule } from '../types';

/** validateHandler / validate*Action (docs/spec/validation-rules.md §A.3): only the first handler is validated (P02). */
const api = { scope: 'probe', severity: 'error', category: 'api' } as const;

export const P01: ProbeRule = {
  ...api,
  id: 'P01',
  title: 'A probe must specify a handler: exec, httpGet, tcpSocket or grpc.',
  reference: 'validation-rules.md §A.3 P01',
  check(probe) {
    if (probe.effective.handlerCount > 0 || misspelledHandler(probe)) return [];
    return [apiIssue('Required', probe.path, probe.keyRange, 'must specify a handler type')];
  },
};

export const P02: ProbeRule = {
  ...api,
  id: 'P02',
  title: 'A probe may specify only one handler; the ones after the first are rejected.',
  reference: 'validation-rules.md §A.3 P02',
  check(probe) {
    const present = HANDLER_TYPES.filter((type) => probe.spec[type] !== undefined);
    return present.slice(1).map((type) => apiIssue('Forbidden', `${probe.path}.${type}`, probeRange(probe, type, 'key'), 'may not specify more than 1 handler type'));
  },
};

export const P03: ProbeRule = {
  ...api,
  id: 'P03',
  title: 'An exec probe needs a non-empty command.',
  reference: 'validation-rules.md §A.3 P03',
  check(probe) {
    const handler = probe.effective.handler;
    if (handler?.type !== 'exec' || handler.command.length > 0) return [];
    return [apiIssue('Required', `${probe.path}.exec.command`, probeRange(probe, 'exec.command'), '')];
  },
};

export const P04: ProbeRule = {
  ...api,
  id: 'P04',
  title: 'httpGet.path must not be empty (never seen through the API: defaulting sets "/").',
  reference: 'validation-rules.md §A.3 P04',
  check(probe) {
    const handler = probe.effective.handler;
    if (handler?.type !== 'httpGet' || handler.path !== '') return [];
    return [apiIssue('Required', `${probe.path}.httpGet.path`, probeRange(probe, 'httpGet.path'), '')];
  },
};

export const P05: ProbeRule = {
  ...api,
  id: 'P05',
  title: 'A numeric probe port must be between 1 and 65535.',
  reference: 'validation-rules.md §A.3 P05',
  check(probe) {
    const handler = probe.effective.handler;
    if (handler === undefined || handler.type === 'exec' || typeof handler.port !== 'number') return [];
    const relative = `${handler.type}.port`;
    return isValidPortNum(handler.port).map((detail) => apiIssue('Invalid', `${probe.path}.${relative}`, probeRange(probe, relative), detail, handler.port));
  },
};

export const P06: ProbeRule = {
  ...api,
  id: 'P06',
  title: 'A port given as a string must be a valid port name (IANA_SVC_NAME); one error per broken sub-rule.',
  reference: 'validation-rules.md §A.3 P06',
  check(probe) {
    const handler = probe.effective.handler;
    if ((handler?.type !== 'httpGet' && handler?.type !== 'tcpSocket') || typeof handler.port !== 'string') return [];
    const port: IntOrString = handler.port;
    const relative = `${handler.type}.port`;
    return isValidPortName(port).map((detail) => apiIssue('Invalid', `${probe.path}.${relative}`, probeRange(probe, relative), detail, port));
  },
};

export const P07: ProbeRule = {
  ...api,
  id: 'P07',
  title: 'httpGet.scheme must be exactly HTTP or HTTPS (case-sensitive).',
  reference: 'validation-rules.md §A.3 P07',
  check(probe) {
    const handler = probe.effective.handler;
    if (handler?.type !== 'httpGet' || (SUPPORTED_HTTP_SCHEMES as readonly string[]).includes(handler.scheme)) return [];
    const supported = SUPPORTED_HTTP_SCHEMES.map((s) => `"${s}"`).join(', ');
    const issue = apiIssue('NotSupported', `${probe.path}.httpGet.scheme`, probeRange(probe, 'httpGet.scheme'), supported, handler.scheme);
    const upper = handler.scheme.toUpperCase();
    if (!(SUPPORTED_HTTP_SCHEMES as readonly string[]).includes(upper)) return [issue];
    return [{ ...issue, fixes: [{ title: `Change the scheme to ${upper}`, edits: [{ range: issue.range, newText: upper }] }] }];
  },
};

export const P08: ProbeRule = {
  ...api,
  id: 'P08',
  title: 'HTTP header names may contain only letters, digits and "-".',
  reference: 'validation-rules.md §A.3 P08',
  check(probe) {
    const handler = probe.effective.handler;
    if (handler?.type !== 'httpGet') return [];
    const issues: Issue[] = [];
    handler.httpHeaders.forEach((header, index) => {
      for (const detail of isHttpHeaderName(header.name)) {
        // The API server reports the list, not the element (no index in the path).
        issues.push(apiIssue('Invalid', `${probe.path}.httpGet.httpHeaders`, probeRange(probe, `httpGet.httpHeaders[${index}].name`), detail, header.name));
      }
    });
    return issues;
  },
};

/**
 * A misspelled handler (`httpget:`) is already a D01; the API server, dropping it as an unknown
 * field, would then say P01 too. One typo, one finding.
 */
function misspelledHandler(probe: ProbeModel): boolean {
  return probe.decodeIssues.some((issue) => issue.rule === 'D01' && issue.suggestion !== undefined && (HANDLER_TYPES as readonly string[]).includes(issue.suggestion) && issue.path === `${probe.path}.${issue.key}`);
}
