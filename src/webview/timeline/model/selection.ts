/**
 * The moment selected on a container's lane — what the *why* explains (issue 12 §1) — and the
 * items an explanation's evidence points back at. Pure (node tests import it): rows and items in,
 * a moment or a `Hit` out.
 */
import type { ContainerLane } from '../../../core/timeline/viewModel';
import { TIMELINE_PROTOCOL_VERSION, type TimelineEvidence, type WebviewMessage } from '../../../shared/protocol';
import { type Hit, markerFor, spanAt } from './hitTest';
import type { Layout, Row } from './layout';
import { itemTime, laneItems } from './markCursor';

export interface Selection {
  readonly lane: ContainerLane;
  /** Seconds since the run began. */
  readonly t: number;
}

/** How far before a state's end its last moment is: the line that ends it (at the end's `t`) is not yet read there. */
export const BEFORE_END = 1e-3;

/**
 * The moment an item on a container's lane stands for: a stretch's last moment (the state as it
 * became, with all that led to it; an open one: now), an instant's own time. `undefined` for any
 * other lane's item.
 */
export function momentOf(hit: Hit, now: number): number | undefined {
  if (hit.lane.kind !== 'container') return undefined;
  if ('span' in hit) {
    const end = hit.span.end ?? Math.max(now, hit.span.start);
    return hit.span.end === undefined ? end : Math.max(hit.span.start, end - BEFORE_END);
  }
  return itemTime(hit);
}

/** The host's question for a selection: why is this container in its state then? */
export function explainMessage(selection: Selection, request: number): WebviewMessage {
  const { lane, t } = selection;
  return { type: 'explain', protocol: TIMELINE_PROTOCOL_VERSION, request, pod: lane.pod, container: lane.name, t, ...(lane.section !== undefined ? { section: lane.section } : {}) };
}

/** Which items each kind of line is drawn as, best first. */
const ITEM_KINDS: Readonly<Record<string, readonly Hit['kind'][]>> = {
  event: ['marker'],
  container: ['restart', 'state'],
  status: ['ready'],
  pod: ['ready'],
  pause: ['pause'],
  prediction: ['prediction'],
  disagreement: ['disagreement'],
  kubelet: ['kubelet'],
  clusterEvent: ['clusterEvent'],
  tunnel: ['tunnel'],
  target: ['target'],
};

/** Times this close are the same line's (a recording's `t` went through JSON and back). */
const SAME_T = 1e-6;

/**
 * What a cited line is drawn as, on the lanes shown: the attempt mark (or the kubelet's event, or
 * the result that changed) on a probe's lane; on a container's or pod's lane the item that starts
 * or stands at its time, else the stretch holding it. `undefined` when its lane is not shown
 * (filtered out).
 */
export function evidenceHit(layout: Layout, evidence: TimelineEvidence, now: number): Hit | undefined {
  const row = layout.byId.get(evidence.lane);
  if (!row) return undefined;
  const lane = row.lane;
  if (lane.kind === 'probe') {
    if (evidence.type === 'attempt') {
      const a = lane.attempts;
      const index = a.lowerBound(evidence.t - SAME_T);
      if (index < a.length && Math.abs((a.t[index] as number) - evidence.t) <= SAME_T) return { kind: 'mark', row, lane, index };
    }
    const marker = evidence.type === 'event' ? markerFor(lane.markers, evidence.t, SAME_T) : undefined;
    if (marker) return { kind: 'marker', row, lane, marker };
    const span = spanAt(lane.results, evidence.t, now);
    return span ? { kind: 'result', row, lane, span } : { kind: 'lane', row, lane };
  }
  return itemAtTime(row, evidence, now);
}

function itemAtTime(row: Row, evidence: TimelineEvidence, now: number): Hit {
  const items = laneItems(row);
  const kinds = ITEM_KINDS[evidence.type] ?? [];
  const at = (item: Hit) => Math.abs(itemTime(item) - evidence.t) <= SAME_T;
  for (const kind of kinds) {
    const found = items.find((item) => item.kind === kind && at(item));
    if (found) return found;
  }
  const holding = items.find((item) => 'span' in item && kinds.includes(item.kind) && item.span.start <= evidence.t && evidence.t <= (item.span.end ?? now));
  return holding ?? items.find(at) ?? { kind: 'lane', row, lane: row.lane };
}
