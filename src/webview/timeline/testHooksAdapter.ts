/**
 * The test hooks (`testHooks.ts`, the contract the VS Code harness and the page's Chromium test
 * read) over the running timeline: read-only views of what is on screen, and a redraw timer.
 */
import { MARK_OUTCOMES } from '../../core/timeline/columns';
import type { AttemptColumns } from '../../core/timeline/columns';
import { containerFacts } from './words/describe';
import { type ClusterFacts, clusterFacts } from './words/describeCluster';
import { pauseFacts } from './words/describePause';
import type { Hit } from './model/hitTest';
import { itemTime, laneItems } from './model/markCursor';
import type { LaneRows } from './model/laneRows';
import { CLUSTER_CONTAINER_ROW, CLUSTER_POD_ROW } from './model/layout';
import type { NotesView } from './views/notesView';
import type { Renderer } from './render/renderer';
import type { ReplayController } from './model/replay';
import type { SectionHeadings } from './views/sectionHeadings';
import type { TimelineSession } from './model/session';
import type { ItemKind, TimelineHookState, TimelineHookWhy, TimelineTestHooks } from './testHooks';
import type { Palette } from './render/theme';
import type { TooltipView } from './views/tooltip';
import type { Viewport } from './model/viewport';

/** What the hooks read: the timeline's parts. */
export interface HookedTimeline {
  readonly session: TimelineSession;
  readonly viewport: Viewport;
  readonly replay: ReplayController;
  readonly rows: LaneRows;
  readonly renderer: Renderer;
  readonly canvas: HTMLCanvasElement;
  readonly scroller: HTMLElement;
  readonly tooltip: TooltipView;
  readonly notes: NotesView;
  readonly headings: SectionHeadings;
  why(): TimelineHookWhy;
  palette(): Palette;
  /** Frames painted so far. */
  painted(): number;
  /** Shows `[start, end]`, as a user's zoom would, and draws at once. */
  showRange(start: number, end: number): void;
  /** Draws at once (lays out first if needed). */
  paint(): void;
}

/** The hooks, plus `zoomTo(start, end)` for dev pages and benchmarks: shows that time range. */
export function timelineTestHooks(timeline: HookedTimeline): TimelineTestHooks & { zoomTo(start: number, end: number): void } {
  return {
    zoomTo: (start, end) => timeline.showRange(start, end),
    state: () => hookState(timeline),
    markAt: (laneId, t) => {
      const row = timeline.rows.layout.byId.get(laneId);
      if (!row || row.lane.kind !== 'probe') return undefined;
      const index = nearestAttempt(row.lane.attempts, t);
      return index < 0 ? undefined : pointOnPage(timeline, { kind: 'mark', row, lane: row.lane, index });
    },
    itemAt: (laneId, kind, t) => {
      const hit = clusterItemAt(timeline, laneId, kind, t);
      // A band's stretch is pointed at in the kubelet's band (the events' line over it is theirs).
      const fromBottom = hit?.kind === 'kubelet' || hit?.kind === 'disagreement' ? 1 + (hit.lane.kind === 'pod' ? CLUSTER_POD_ROW : CLUSTER_CONTAINER_ROW).kubeletHeight / 2 : undefined;
      return hit ? pointOnPage(timeline, hit, fromBottom) : undefined;
    },
    pointAt: (laneId, t) => {
      const row = timeline.rows.layout.byId.get(laneId);
      if (!row) return undefined;
      const x = timeline.viewport.toX(t);
      const y = row.y - timeline.scroller.scrollTop + row.height / 2;
      if (x < 0 || x > timeline.renderer.width || y < 0 || y > timeline.renderer.height) return undefined;
      const rect = timeline.canvas.getBoundingClientRect();
      return { x: rect.left + x, y: rect.top + y };
    },
    why: () => timeline.why(),
    tooltip: () => timeline.tooltip.text,
    measureRedraw: (frames) => {
      const times: number[] = [];
      for (let i = 0; i < frames; i++) {
        const start = performance.now();
        timeline.paint();
        times.push(performance.now() - start);
      }
      return times;
    },
  };
}

function hookState(timeline: HookedTimeline): TimelineHookState {
  const { session, viewport } = timeline;
  const feed = session.feed;
  const model = feed.model;
  const attempts: Record<string, Record<string, number>> = {};
  const markers: Record<string, string[]> = {};
  const containers: Record<string, ReturnType<typeof containerFacts>> = {};
  const cluster: Record<string, ClusterFacts> = {};
  const pauses: Record<string, ReturnType<typeof pauseFacts>> = {};
  const pausedFailures: Record<string, number> = {};
  for (const lane of model.lanes()) {
    if (lane.kind === 'probe') {
      attempts[lane.id] = { ...lane.counts };
      markers[lane.id] = lane.markers.map((m) => m.reason);
      if (lane.pausedFailures > 0) pausedFailures[lane.id] = lane.pausedFailures;
      continue;
    }
    if (lane.kind === 'container') containers[lane.id] = containerFacts(lane);
    if (lane.kind === 'pod' && lane.pauses.length > 0) pauses[lane.id] = pauseFacts(lane);
    const facts = clusterFacts(lane);
    if (facts) cluster[lane.id] = facts;
  }
  const scrollTop = timeline.scroller.scrollTop;
  const palette = timeline.palette();
  return {
    painted: timeline.painted(),
    events: model.events.length,
    lanes: timeline.rows.layout.rows.map((row) => ({ id: row.lane.id, kind: row.lane.kind, label: row.label, top: row.y - scrollTop, height: row.height, highlighted: row.highlighted, ...(row.lane.section !== undefined ? { section: row.lane.section } : {}) })),
    attempts,
    markers,
    containers,
    cluster,
    pauses,
    pausedFailures,
    sections: timeline.headings.titles,
    viewport: { start: viewport.start, end: viewport.end },
    follow: viewport.follow,
    theme: palette.theme,
    failureColor: palette.outcomes[MARK_OUTCOMES.indexOf('failure')] as string,
    live: session.isLive,
    ended: session.ended !== undefined,
    dropped: feed.droppedEvents.reduce((sum, d) => sum + d.count, 0),
    note: timeline.notes.text,
    ...(session.replayable ? { replay: { playing: timeline.replay.playing, speed: timeline.replay.speed, at: feed.playhead ?? feed.end } } : {}),
  };
}

/** The `kind` item of a drawn lane at `t`: a span holding it, else the item nearest to it. */
function clusterItemAt(timeline: HookedTimeline, laneId: string, kind: ItemKind, t: number): Hit | undefined {
  const row = timeline.rows.layout.byId.get(laneId);
  if (!row) return undefined;
  let best: Hit | undefined;
  let distance = Infinity;
  for (const item of laneItems(row)) {
    if (item.kind !== kind) continue;
    const start = itemTime(item);
    const end = 'span' in item ? (item.span.end ?? Infinity) : start;
    const d = t < start ? start - t : t > end ? t - end : 0;
    if (d < distance) {
      distance = d;
      best = item;
    }
  }
  return best;
}

/** Where `hit` is drawn, as a point in page CSS px (its middle, or `fromBottom` px above its bottom), if it is on the canvas. */
function pointOnPage(timeline: HookedTimeline, hit: Hit, fromBottom?: number): { x: number; y: number } | undefined {
  const { renderer } = timeline;
  const box = renderer.boxOf(hit);
  if (!box) return undefined;
  const x = box.x + box.w / 2;
  const y = fromBottom === undefined ? box.y + box.h / 2 : box.y + box.h - fromBottom;
  if (x < 0 || x > renderer.width || y < 0 || y > renderer.height) return undefined;
  const rect = timeline.canvas.getBoundingClientRect();
  return { x: rect.left + x, y: rect.top + y };
}

/** The attempt nearest to `t` (the later on a tie), -1 if there are none. */
function nearestAttempt(attempts: AttemptColumns, t: number): number {
  if (attempts.length === 0) return -1;
  let i = attempts.lowerBound(t);
  if (i >= attempts.length || (i > 0 && t - (attempts.t[i - 1] as number) < (attempts.t[i] as number) - t)) i--;
  return i;
}
