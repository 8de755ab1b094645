/**
 * The keyboard's path through a lane (the lane list's Left/Right/Home/End): from attempt to attempt
 * on a probe lane, from band to restart to event on a pod or container lane, in time order. Pure:
 * node tests import it.
 */
import { MARK_OUTCOMES, type MarkOutcome } from '../../../core/timeline/columns';
import type { Span } from '../../../core/timeline/spans';
import type { Hit } from './hitTest';
import type { Row } from './layout';

export type StepKey = 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';

/** Where the view is, for a first step: Right starts at its left edge, Left at its right edge. */
export interface VisibleRange {
  readonly start: number;
  readonly end: number;
}

export function isStepKey(key: string): key is StepKey {
  return key === 'ArrowLeft' || key === 'ArrowRight' || key === 'Home' || key === 'End';
}

/** Whether two hits are the same item (rows are rebuilt on relayout; lanes and items are not). */
export function sameHit(a: Hit | undefined, b: Hit | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.kind !== b.kind || a.lane !== b.lane) return false;
  if (a.kind === 'mark') return a.index === (b as typeof a).index;
  return itemOf(a) === itemOf(b);
}

/** When an item is (for stepping, and for scrolling the view to it). */
export function itemTime(hit: Hit): number {
  if (hit.kind === 'mark') return hit.lane.attempts.t[hit.index] as number;
  if (hit.kind === 'dropped') return hit.lane.dropped?.throughT ?? 0;
  const item = itemOf(hit);
  return item === undefined ? 0 : 'start' in item ? item.start : item.t;
}

/**
 * What a hit is on — the band's span, or the event, restart, predicted kill or cluster pod probed
 * at one instant: the same object however often rows are rebuilt. None for an attempt (an index
 * into its lane's columns), a lane, or its dropped stretch.
 */
function itemOf(hit: Hit): Span<unknown> | { readonly t: number } | undefined {
  switch (hit.kind) {
    case 'marker':
      return hit.marker;
    case 'restart':
      return hit.restart;
    case 'clusterEvent':
      return hit.event;
    case 'prediction':
      return hit.prediction;
    case 'target':
      return hit.target;
    case 'mark':
    case 'lane':
    case 'dropped':
      return undefined;
    default:
      return hit.span;
  }
}

/** A pod's or container's items in time order: its bands, restarts and events, a debugger's pauses, and the cluster's (its kubelet's Ready, its events, disagreements, predicted kills, the cluster pod probed). */
export function laneItems(row: Row): Hit[] {
  const items: Hit[] = [];
  const lane = row.lane;
  if (lane.kind === 'container') {
    for (const span of lane.states) items.push({ kind: 'state', row, lane, span });
    for (const restart of lane.restarts) items.push({ kind: 'restart', row, lane, restart });
    for (const marker of lane.markers) items.push({ kind: 'marker', row, lane, marker });
    for (const prediction of lane.predictions) items.push({ kind: 'prediction', row, lane, prediction });
    for (const span of lane.kubelet) items.push({ kind: 'kubelet', row, lane, span });
    for (const span of lane.disagreements) items.push({ kind: 'disagreement', row, lane, span });
    for (const event of lane.clusterEvents) items.push({ kind: 'clusterEvent', row, lane, event });
  } else if (lane.kind === 'pod') {
    for (const span of lane.ready) items.push({ kind: 'ready', row, lane, span });
    for (const target of lane.targets) items.push({ kind: 'target', row, lane, target });
    for (const span of lane.tunnelsDown) items.push({ kind: 'tunnel', row, lane, span });
    for (const span of lane.pauses) items.push({ kind: 'pause', row, lane, span });
    for (const marker of lane.markers) items.push({ kind: 'marker', row, lane, marker });
    for (const span of lane.kubelet) items.push({ kind: 'kubelet', row, lane, span });
    for (const event of lane.clusterEvents) items.push({ kind: 'clusterEvent', row, lane, event });
  }
  // Stable: at equal times a band comes before the restart or event that starts it.
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => itemTime(a.item) - itemTime(b.item) || a.i - b.i)
    .map((e) => e.item);
}

/**
 * The item `key` moves to on `row` from `focus` (if it is on this row): on a probe lane the next
 * shown attempt (hidden outcomes are skipped), else the next band, restart or event. `undefined`
 * when there is nothing that way.
 */
export function stepItem(row: Row, key: StepKey, focus: Hit | undefined, view: VisibleRange, hiddenOutcomes: ReadonlySet<MarkOutcome>): Hit | undefined {
  const lane = row.lane;
  const current = focus && focus.lane === lane ? focus : undefined;
  if (lane.kind === 'probe') {
    const a = lane.attempts;
    if (a.length === 0) return undefined;
    const shown = (i: number) => !hiddenOutcomes.has(MARK_OUTCOMES[a.outcome[i] as number] as MarkOutcome);
    let i: number;
    if (key === 'Home') i = 0;
    else if (key === 'End') i = a.length - 1;
    else if (current?.kind === 'mark') i = current.index + (key === 'ArrowRight' ? 1 : -1);
    else i = key === 'ArrowRight' ? a.lowerBound(view.start) : a.lowerBound(view.end) - 1;
    const direction = key === 'End' || key === 'ArrowLeft' ? -1 : 1;
    while (i >= 0 && i < a.length && !shown(i)) i += direction;
    if (i < 0 || i >= a.length) return undefined;
    return { kind: 'mark', row, lane, index: i };
  }
  const items = laneItems(row);
  if (items.length === 0) return undefined;
  let i: number;
  const at = current ? items.findIndex((item) => sameHit(item, current)) : -1;
  if (key === 'Home') i = 0;
  else if (key === 'End') i = items.length - 1;
  else if (at >= 0) i = at + (key === 'ArrowRight' ? 1 : -1);
  else i = key === 'ArrowRight' ? Math.max(0, items.findIndex((item) => itemTime(item) >= view.start)) : items.length - 1;
  return items[Math.max(0, Math.min(items.length - 1, i))];
}
