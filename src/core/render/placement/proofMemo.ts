import type { Candidate } from './candidates';
import type { PlacementTarget } from './target';
import { keyPathText } from './yamlTree';

/** Past this many remembered targets the memo starts again: a chart edited for hours keeps no history it cannot use. */
const MAX_REMEMBERED = 4_000;

/**
 * Proofs remembered between renders of one chart or overlay, which the editor renders on every
 * edit. A proof shows which place wrote a field; it still holds when the same places are the
 * candidates again and nothing else that decides it changed. So a target is recalled only when
 *  - the context is the same: the templates' texts (a `default`, an `if`, a helper moved) and
 *    the render's options (release, values files, `--set`), which the caller folds into one string;
 *  - its candidates are the very same places (`leaf:probe.periodSeconds`, `value:FILE:12`).
 * Candidates are chosen by the current values and text (a values key holding the rendered value,
 * a template line writing it), so an edit that moves where a field comes from (a value set in a
 * second place, a literal changed in one of two) changes the candidates and is proven again. An
 * edit to the value itself (`periodSeconds: 10` → `5`) keeps them: recalled, no proof render.
 * Limit: a values edit that changes what a template computes from other keys while every
 * candidate stays the same (an `if` on a key no candidate names) is recalled, not re-proven.
 */
export class ProofMemo {
  private context: string | undefined;
  /** Target and its candidates → the winning place, or `null` when a successful proof render showed none. */
  private readonly winners = new Map<string, string | null>();
  /** How many targets were recalled and proven in all: what the editor's benchmark reports. */
  recalled = 0;
  proven = 0;

  /** Begins a render's placement: a different context forgets everything. */
  use(context: string): void {
    if (context === this.context) return;
    this.context = context;
    this.winners.clear();
  }

  /** The remembered winner (`null`: remembered as unprovable), or `undefined` when this target must be proven. */
  recall(target: PlacementTarget, candidates: readonly Candidate[]): Candidate | null | undefined {
    const place = this.winners.get(signature(target, candidates));
    if (place === undefined) return undefined;
    this.recalled += 1;
    return place === null ? null : (candidates.find((c) => c.place === place) ?? undefined);
  }

  /** What a successful proof render showed for the target: its winner, or none. */
  remember(target: PlacementTarget, candidates: readonly Candidate[], winner: Candidate | undefined): void {
    if (this.winners.size >= MAX_REMEMBERED) this.winners.clear();
    this.proven += 1;
    this.winners.set(signature(target, candidates), winner?.place ?? null);
  }
}

function signature(target: PlacementTarget, candidates: readonly Candidate[]): string {
  const { doc } = target;
  const path = target.kind === 'workload' ? '' : keyPathText(target.path);
  const places = candidates.map((c) => c.place).sort();
  return JSON.stringify([target.kind, doc.kind ?? '', doc.name ?? '', doc.source ?? '', doc.ordinal, path, places]);
}
