import { comparePositions, compareRanges } from '../../text/range';
import type { DocumentRule, Issue } from '../types';

const yaml = { scope: 'document', category: 'yaml' } as const;

export const Y01: DocumentRule = {
  ...yaml,
  id: 'Y01',
  severity: 'error',
  alsoReports: { severity: 'warning', when: 'for a repeated key, whose earlier values kubectl drops; the document is still checked' },
  title: 'YAML that kubectl refuses (the document is not checked further), or a key set twice.',
  reference: 'design.md §2 Manifest',
  check(document): Issue[] {
    const { templated, errors, warnings } = document.source;
    if (templated) return [];
    // Like kubectl, the first error only: what follows it in a broken document is mostly the
    // reader losing its way, and a repeated key means little in a structure that is not there.
    // Errors starting on the same line are one problem seen twice; the range covers them all.
    const sorted = [...errors].sort((a, b) => compareRanges(a.range, b.range));
    const first = sorted[0];
    if (first) {
      const end = sorted.filter((e) => e.range.start.line === first.range.start.line).reduce((latest, e) => (comparePositions(e.range.end, latest) > 0 ? e.range.end : latest), first.range.end);
      return [{ path: '', range: { start: first.range.start, end }, message: `YAML: ${first.message}` }];
    }
    return warnings.map((e): Issue => ({ path: '', range: e.range, message: `YAML: ${e.message}`, severity: 'warning' }));
  },
};

export const Y02: DocumentRule = {
  ...yaml,
  id: 'Y02',
  severity: 'error',
  title: 'A size, document-count or alias-expansion limit stopped the check; what follows was not checked.',
  reference: 'design.md §2 Manifest; ManifestLimits',
  check: (document) => (document.limitHit ? [{ path: '', range: document.limitHit.range, message: document.limitHit.reason }] : []),
};

export const Y03: DocumentRule = {
  ...yaml,
  id: 'Y03',
  severity: 'info',
  title: 'A templated document (Helm {{ }}, Jinja {% %}, envsubst ${ }) is not checked: render it first.',
  reference: 'design.md §2 Manifest',
  check(document, context) {
    const templated = document.source.templated;
    if (!templated) return [];
    const start = document.source.range.start;
    const expression = templated.expression.length > 60 ? `${templated.expression.slice(0, 57)}…` : templated.expression;
    const how: Record<typeof templated.syntax, string> = {
      '{{ }}': templated.helm
        ? `a Helm template (${expression}), not the manifest itself: ${context.renderingHint ?? 'render it first (helm template …) and check the output'}`
        : `a template (${expression}), not the manifest itself: fill it in first and check the output`,
      '{% %}': `a Jinja template (${expression}), not the manifest itself: render it first and check the output`,
      '${ }': `a template: ${expression} stands where a number belongs; substitute the variables first (envsubst < file) and check the output`,
    };
    return [{ path: '', range: { start, end: start }, message: `document not checked: it is ${how[templated.syntax]}` }];
  },
};

export const Y04: DocumentRule = {
  ...yaml,
  id: 'Y04',
  severity: 'info',
  title: "A workload whose probes another component runs (a Knative Service's, by its queue-proxy) is not checked.",
  reference: 'design.md §2 Manifest',
  check(document) {
    const unchecked = document.unchecked;
    if (!unchecked) return [];
    const start = unchecked.range.start;
    return [
      {
        path: '',
        range: { start, end: start },
        message: `probes not checked: Knative runs this ${unchecked.kind}'s readiness probes from its queue-proxy, polling far more often than periodSeconds says, and validates the template with its own webhook (${unchecked.apiVersion}); the kubelet's and the API server's rules that Probe Lens checks do not describe it`,
      },
    ];
  },
};
