import { type CheckSettings, IncrementalChecker, type ManifestSnapshot } from '../editor/incrementalChecker';
import { applyTextEdits } from '../text/edits';
import type { Finding } from '../rules/types';
import type { TextEdit } from '../text/edits';
import { compareRanges, comparePositions } from '../text/range';

/** What edits did to a manifest, as the rules and the models see it. */
export interface Verdict {
  /** Findings the text itself does not have. */
  readonly added: readonly Finding[];
  /** Probes (`doc:path`) whose effective values changed, or that were added. */
  readonly changed: readonly string[];
}

/**
 * Runs the real rules (the ones `check` and the editor run) on a manifest with edits applied, and
 * says which findings the edits added and which probes they changed. Successive versions differ
 * in a document or two, so an incremental checker re-reads only those: a hundred candidate
 * values on a hundred-pod file cost a hundred document reads, not a hundred file reads.
 */
export class Verifier {
  private readonly checker: IncrementalChecker;
  private readonly settings: CheckSettings;
  private readonly baseline: ReadonlySet<string>;
  private readonly probes: ReadonlyMap<string, string>;

  constructor(
    private readonly text: string,
    file: string,
    minorVersion: number,
  ) {
    this.checker = new IncrementalChecker(file);
    this.settings = { disabledRules: new Set(), context: { minorVersion } };
    const snapshot = this.checker.check(text, this.settings);
    this.baseline = new Set(snapshot.findings.map(findingKey));
    this.probes = effectiveProbes(snapshot);
  }

  verify(edits: readonly TextEdit[]): Verdict {
    const snapshot = this.checker.check(applyTextEdits(this.text, edits), this.settings);
    const after = effectiveProbes(snapshot);
    return {
      added: snapshot.findings.filter((f) => !this.baseline.has(findingKey(f))),
      changed: [...after].filter(([key, value]) => this.probes.get(key) !== value).map(([key]) => key),
    };
  }
}

/** Each probe of the text by `doc:path`, with its effective values (API defaults applied) as text. */
function effectiveProbes(snapshot: ManifestSnapshot): Map<string, string> {
  const probes = new Map<string, string>();
  for (const placed of snapshot.podSpecs) {
    for (const container of placed.spec.containers) for (const probe of container.probes) probes.set(probeKeyOf(placed.document, probe.path), JSON.stringify(probe.effective));
  }
  return probes;
}

export function probeKeyOf(document: number, path: string): string {
  return `${document}:${path}`;
}

/**
 * A finding is the same one after an edit when the same rule says it of the same field; its
 * message may change with the numbers (L13's seconds) and its range with the lines.
 */
function findingKey(finding: Finding): string {
  return `${finding.rule}\u0000${finding.doc}\u0000${finding.path}${finding.path === '' ? `\u0000${finding.message}` : ''}`;
}

/**
 * The edits in file order, insertions at one place joined into one edit in the order they were
 * made (a liveness field appended, then a startupProbe after it): an editor applies overlapping
 * or same-place edits in an order of its own.
 */
export function joinInsertions(edits: readonly TextEdit[]): TextEdit[] {
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => compareRanges(a.edit.range, b.edit.range) || a.index - b.index);
  const out: TextEdit[] = [];
  const isInsertion = (e: TextEdit) => comparePositions(e.range.start, e.range.end) === 0;
  for (const { edit } of ordered) {
    const last = out.at(-1);
    if (last && isInsertion(last) && isInsertion(edit) && comparePositions(last.range.start, edit.range.start) === 0) {
      out[out.length - 1] = { range: last.range, newText: last.newText + edit.newText };
    } else out.push(edit);
  }
  return out;
}
