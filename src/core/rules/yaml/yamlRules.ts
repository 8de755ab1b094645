import type { DocumentRule, Issue } from '../types';

const yaml = { scope: 'document', category: 'yaml' } as const;

export const Y01: DocumentRule = {
  ...yaml,
  id: 'Y01',
  severity: 'error',
  title: 'YAML syntax error (the document is not checked further) or YAML warning.',
  reference: 'design.md §2 Manifest',
  check(document): Issue[] {
    if (document.source.templated) return [];
    return [
      ...document.source.errors.map((e) => ({ path: '', range: e.range, message: `YAML: ${e.message}` })),
      ...document.source.warnings.map((e): Issue => ({ path: '', range: e.range, message: `YAML: ${e.message}`, severity: 'warning' })),
    ];
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
  title: 'A templated document (Helm {{ }}) is skipped: render it first to check it.',
  reference: 'design.md §2 Manifest',
  check(document) {
    if (!document.source.templated) return [];
    const start = document.source.range.start;
    return [{ path: '', range: { start, end: start }, message: 'templated document ({{ … }}) not checked: render it first (helm template …) to check its probes' }];
  },
};
