import { documentDecodeIssues, type Manifest, type ManifestDocument } from '../manifest';
import { compareRanges } from '../text/range';
import { RULE_INFO, RULES } from './registry';
import { type Finding, type Issue, PROBING_CONTAINERS, type Rule, type RuleContext } from './types';

export interface RunOptions {
  /** The file name findings carry. */
  readonly file: string;
  /** Rule ids not to run (canonical ids, see `normaliseRuleIds`). */
  readonly disabledRules?: ReadonlySet<string>;
  readonly context: RuleContext;
}

const ORDER = new Map(Array.from(RULE_INFO.keys(), (id, index) => [id, index]));

/** Every finding of a manifest, sorted by position. */
export function checkManifest(manifest: Manifest, options: RunOptions): Finding[] {
  const findings = manifest.documents.flatMap((document) => checkDocument(document, options));
  const limit = manifest.file.limitHit;
  if (limit && enabled('Y02', options)) {
    findings.push({ rule: 'Y02', severity: 'error', message: limit.message, file: options.file, doc: limit.docIndex, path: '', range: limit.range });
  }
  return findings.sort(compareFindings);
}

/** By position, then in registry order: the order every output lists findings in. */
export function compareFindings(a: Finding, b: Finding): number {
  return compareRanges(a.range, b.range) || (ORDER.get(a.rule) ?? 0) - (ORDER.get(b.rule) ?? 0);
}

/** One document's findings: rules are per document, so a file's are the sum of its documents'. */
function checkDocument(document: ManifestDocument, options: RunOptions): Finding[] {
  const findings: Finding[] = [];
  const run = (rule: Rule, check: () => readonly Issue[]) => {
    for (const issue of isolated(rule, check, document)) findings.push(toFinding(rule, issue, document, options.file));
  };
  const { context } = options;
  for (const rule of RULES) {
    if (!enabled(rule.id, options)) continue;
    switch (rule.scope) {
      case 'document':
        run(rule, () => rule.check(document, context));
        break;
      case 'pod':
        for (const pod of document.podSpecs) run(rule, () => rule.check(pod, context));
        break;
      case 'container':
        for (const pod of document.podSpecs) {
          for (const container of pod.containers) if (rule.kinds.includes(container.kind)) run(rule, () => rule.check(container, context));
        }
        break;
      case 'probe':
        for (const pod of document.podSpecs) {
          for (const container of pod.containers) {
            if (!PROBING_CONTAINERS.includes(container.kind)) continue;
            for (const probe of container.probes) run(rule, () => rule.check(probe, context));
          }
        }
        break;
    }
  }
  return withoutConsequences(findings, document);
}

/**
 * Drops findings that only restate another: validation of a field that failed to decode (the API
 * server never gets that far), and everything but the limit itself in a document a limit cut short.
 */
function withoutConsequences(findings: Finding[], document: ManifestDocument): Finding[] {
  if (document.limitHit) return findings.filter((f) => f.rule.startsWith('Y'));
  const undecodable = new Set(documentDecodeIssues(document).map((issue) => issue.path));
  if (undecodable.size === 0) return findings;
  return findings.filter((f) => !(/^P\d/.test(f.rule) && undecodable.has(f.path)));
}

/**
 * A rule that throws is a bug; it must not take the file's other findings with it. It shows as
 * one error at the document's start, so it gets reported rather than silently lost.
 */
function isolated(rule: Rule, check: () => readonly Issue[], document: ManifestDocument): readonly Issue[] {
  try {
    return check();
  } catch (error) {
    const start = document.source.range.start;
    const reason = error instanceof Error ? error.message : String(error);
    return [{ path: '', range: { start, end: start }, severity: 'error', message: `internal error in rule ${rule.id} (please report it): ${reason}` }];
  }
}

function toFinding(rule: Rule, issue: Issue, document: ManifestDocument, file: string): Finding {
  return {
    rule: rule.id,
    severity: issue.severity ?? rule.severity,
    ...(issue.kind ? { kind: issue.kind } : {}),
    message: issue.message,
    file,
    doc: document.source.index,
    path: issue.path,
    range: issue.range,
    ...(issue.fix ? { fix: issue.fix } : {}),
  };
}

function enabled(id: string, options: RunOptions): boolean {
  return !options.disabledRules?.has(id);
}
