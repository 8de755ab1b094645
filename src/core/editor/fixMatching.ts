import { clientTimeoutFix } from '../fixes/clientTimeout';
import type { ProbeModel } from '../manifest';
import { type Problem, presentFindings } from '../rules/present';
import type { Finding, Fix } from '../rules/types';
import { compareRanges, type Range } from '../text/range';
import type { ManifestSnapshot, PlacedPodSpec } from './incrementalChecker';

/**
 * From a diagnostic an editor shows back to the problem it was published for, and to that
 * problem's fixes: what a code-action provider needs, in VS Code or a language server alike.
 */

/** A diagnostic as the editor gives it back: its rule id (its code), its words and its range. */
export interface PublishedDiagnostic {
  readonly rule: string | undefined;
  readonly message: string;
  readonly range: Range;
}

/** L21: curl or wget without a timeout of its own (its fix is made from the text). */
const CLIENT_WITHOUT_TIMEOUT = 'L21';

/**
 * The problem behind a diagnostic (one is published per `presentFindings` problem), by rule,
 * range and words: indices shift as soon as the text changes, and a diagnostic published for an
 * older version must match nothing rather than the wrong finding (its edits would land in the
 * wrong place).
 */
export function problemOf(snapshot: ManifestSnapshot, diagnostic: PublishedDiagnostic): Problem | undefined {
  return presentFindings(snapshot.findings).find((p) => p.primary.rule === diagnostic.rule && p.headline === diagnostic.message && compareRanges(p.primary.range, diagnostic.range) === 0);
}

/**
 * The fixes of a problem: those of its finding, then of the findings folded into it (L04's
 * unquote on P06), in their order — the first is the likeliest correction, the one "Auto Fix" may
 * apply.
 */
export function fixesOf(problem: Problem, snapshot: ManifestSnapshot, text: string): Fix[] {
  return [problem.primary, ...problem.folded].flatMap((finding) => [...(finding.fixes ?? []), ...textFixesOf(snapshot, finding, text)]);
}

/**
 * Fixes whose edits depend on how the text is written (a block or flow command, the words of a
 * `sh -c` script), which the rules do not see: made from the document's text when asked.
 */
function textFixesOf(snapshot: ManifestSnapshot, finding: Finding, text: string): Fix[] {
  if (finding.rule !== CLIENT_WITHOUT_TIMEOUT) return [];
  const found = probeOfFinding(snapshot, finding);
  // A stale model (the text does not parse now) has no lines to compute edits on.
  const fix = found && !found.placed.stale && clientTimeoutFix(found.probe, text, found.placed.lineOffset);
  return fix ? [fix] : [];
}

/** The probe a finding is about (its path is the probe's or inside it), with the pod spec that places it in the file. */
export function probeOfFinding(snapshot: ManifestSnapshot, finding: Finding): { placed: PlacedPodSpec; probe: ProbeModel } | undefined {
  for (const placed of snapshot.podSpecs) {
    if (placed.document !== finding.doc) continue;
    for (const container of placed.spec.containers) {
      const probe = container.probes.find((p) => finding.path === p.path || finding.path.startsWith(`${p.path}.`));
      if (probe) return { placed, probe };
    }
  }
  return undefined;
}
