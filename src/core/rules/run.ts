import { documentDecodeIssues, type Manifest, type ManifestDocument, type PodSpecModel, servicesOf } from '../manifest';
import { compareRanges, containsPosition } from '../text/range';
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

/**
 * Every finding of a manifest, sorted by position. `options.context.services` are those of the
 * manifests checked with it; its own are added here.
 */
export function checkManifest(manifest: Manifest, options: RunOptions): Finding[] {
  const services = [...(options.context.services ?? []), ...servicesOf(manifest.documents)];
  const across = checkAcrossDocuments(manifest.documents, { ...options, context: { ...options.context, services } });
  return [...checkEachDocument(manifest, options), ...across].sort(compareFindings);
}

/**
 * The findings each document has on its own (every rule but those looking across documents),
 * and a limit that stopped the file: what the editor keeps per document between edits.
 */
export function checkEachDocument(manifest: Manifest, options: RunOptions): Finding[] {
  const findings = manifest.documents.flatMap((document) => checkDocument(document, options, false));
  const limit = manifest.file.limitHit;
  if (limit && enabled('Y02', options)) {
    findings.push({ rule: 'Y02', severity: 'error', message: limit.message, file: options.file, doc: limit.docIndex, path: '', range: limit.range });
  }
  return findings.sort(compareFindings);
}

/** The findings of the rules that look across documents, with every Service in `options.context.services`. */
export function checkAcrossDocuments(documents: readonly ManifestDocument[], options: RunOptions): Finding[] {
  if (!ACROSS_DOCUMENTS.some((rule) => enabled(rule.id, options))) return [];
  return documents.flatMap((document) => checkDocument(document, options, true));
}

const ACROSS_DOCUMENTS = RULES.filter((rule) => rule.acrossDocuments);

/** By position, then in registry order: the order every output lists findings in. */
export function compareFindings(a: Finding, b: Finding): number {
  return compareRanges(a.range, b.range) || (ORDER.get(a.rule) ?? 0) - (ORDER.get(b.rule) ?? 0);
}

/** One document's findings from the rules that look at it alone, or from those that look across documents. */
function checkDocument(document: ManifestDocument, options: RunOptions, acrossDocuments: boolean): Finding[] {
  const findings: Finding[] = [];
  const run = (rule: Rule, check: () => readonly Issue[], pod?: PodSpecModel) => {
    for (const issue of isolated(rule, check, document)) findings.push(toFinding(rule, withWorkloadNote(rule, issue, pod), document, options.file));
  };
  const { context } = options;
  for (const rule of RULES) {
    if (!enabled(rule.id, options) || (rule.acrossDocuments === true) !== acrossDocuments) continue;
    switch (rule.scope) {
      case 'document':
        run(rule, () => rule.check(document, context));
        break;
      case 'pod':
        for (const pod of document.podSpecs) run(rule, () => rule.check(pod, context), pod);
        break;
      case 'container':
        for (const pod of document.podSpecs) {
          for (const container of pod.containers) if (rule.kinds.includes(container.kind)) run(rule, () => rule.check(container, context), pod);
        }
        break;
      case 'probe':
        for (const pod of document.podSpecs) {
          for (const container of pod.containers) {
            if (!PROBING_CONTAINERS.includes(container.kind)) continue;
            for (const probe of container.probes) run(rule, () => rule.check(probe, context), pod);
          }
        }
        break;
    }
  }
  return withoutConsequences(findings, document).map((finding) => withNames(finding, document));
}

/**
 * The names of the object and the container a finding's path is in: messages for people name the
 * container (`present.ts`); JSON and SARIF name both, so CI can tell two findings of a file apart.
 */
function withNames(finding: Finding, document: ManifestDocument): Finding {
  // A List's items are objects of their own, their paths relative to the item (as kubectl sends
  // them): which one is told by where the finding is written. Any other document is one object.
  const pod = document.podSpecs.length === 1 ? document.podSpecs[0] : document.podSpecs.find((p) => containsPosition(p.range, finding.range.start));
  const object = pod ? { object: { kind: pod.objectKind, ...(pod.objectName ? { name: pod.objectName } : {}), ...(pod.objectNamespace ? { namespace: pod.objectNamespace } : {}) } } : {};
  for (const candidate of pod ? [pod] : []) {
    for (const container of candidate.containers) {
      if (finding.path === container.path || finding.path.startsWith(`${container.path}.`)) return { ...finding, ...object, ...(container.name ? { container: container.name } : {}) };
    }
  }
  return { ...finding, ...object };
}

/**
 * The API server checks a Rollout against its CRD's schema only. Pod validation (the P rules)
 * is run by the Argo Rollouts controller (`ValidatePodTemplateSpecForReplicaSet`, the API
 * server's own code, same paths), which then refuses to roll out and reports the error in the
 * Rollout's InvalidSpec condition. As real, but met there, later: say so.
 */
function withWorkloadNote(rule: Rule, issue: Issue, pod: PodSpecModel | undefined): Issue {
  if (pod?.objectKind !== 'Rollout' || !/^P\d/.test(rule.id)) return issue;
  return { ...issue, message: `${issue.message} (kubectl apply accepts the Rollout; the Argo Rollouts controller refuses this template and reports it in the Rollout's InvalidSpec condition)` };
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
    ...(issue.fixes?.length ? { fixes: issue.fixes } : {}),
  };
}

function enabled(id: string, options: RunOptions): boolean {
  return !options.disabledRules?.has(id);
}
