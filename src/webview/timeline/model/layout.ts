/**
 * Rows: which lanes are drawn, in what order, at what height. Pure (node tests import it): the
 * model's lanes, the filters and the highlighted lane ids in; rows with their y offsets out. The
 * renderer, the hit test and the accessible lane list all read the same rows, so what a screen
 * reader walks is what is drawn.
 */
import type { ProbeType } from '../../../core/manifest/model';
import { hasClusterBand } from '../../../core/timeline/clusterLanes';
import type { MarkOutcome } from '../../../core/timeline/columns';
import type { ModelSection } from '../../../core/timeline/sections';
import type { Lane } from '../../../core/timeline/viewModel';

export interface Filters {
  /** Container names (in every pod). */
  readonly hiddenContainers: ReadonlySet<string>;
  readonly hiddenProbes: ReadonlySet<ProbeType>;
  /** Marks only: lanes stay. */
  readonly hiddenOutcomes: ReadonlySet<MarkOutcome>;
}

/** No rows: before the first load. */
export const EMPTY_LAYOUT: Layout = { rows: [], height: 0, byId: new Map(), headings: [] };

export const NO_FILTERS: Filters = { hiddenContainers: new Set(), hiddenProbes: new Set(), hiddenOutcomes: new Set() };

export const ROW_HEIGHT: Readonly<Record<Lane['kind'], number>> = { pod: 26, container: 30, probe: 38 };
/** Space above each pod but the first. */
export const POD_GAP = 8;
/** In a timeline of several runs: the heading above each run's first pod (`sections.ts`). */
export const SECTION_HEADING_HEIGHT = 26;

/**
 * Where things sit inside a probe row (offsets from its top): kubelet event markers on top, the
 * attempt marks (bars rising from a common baseline, failures tallest), the cached result band.
 */
export const PROBE_ROW = { markerTop: 2, markerHeight: 6, markTop: 10, markHeight: 16, bandTop: 29, bandHeight: 6 } as const;
/** Inside a container row: the state band, the ready strip under it. */
export const CONTAINER_ROW = { bandTop: 7, bandHeight: 14, readyTop: 23, readyHeight: 3 } as const;
/** Inside a pod row: the Ready condition band. */
export const POD_ROW = { bandTop: 6, bandHeight: 14 } as const;

/**
 * A cluster session's pod and container rows are taller: under our bands, the cluster's — its
 * events (hollow markers on a line of their own) over the kubelet's Ready band, so the two
 * verdicts read one above the other. Offsets from the row's top; `height` the whole row.
 */
export const CLUSTER_CONTAINER_ROW = { eventTop: 29, eventHeight: 6, kubeletTop: 35, kubeletHeight: 12, height: 50 } as const;
export const CLUSTER_POD_ROW = { eventTop: 23, eventHeight: 6, kubeletTop: 29, kubeletHeight: 12, height: 44 } as const;

/** Bar heights by outcome, from the mark baseline: the worse, the taller, so shape says it as well as colour. */
export const MARK_HEIGHT: Readonly<Record<MarkOutcome, number>> = { success: 7, warning: 11, unknown: 11, failure: 16, error: 16 };

/**
 * Which outcome wins a pixel column when marks are denser than pixels (the worst; an attempt the
 * kubelet discarded counts above unknown, so prober errors never hide behind successes).
 * Indexed like `MARK_OUTCOMES` (success, warning, failure, unknown, error).
 */
export const OUTCOME_SEVERITY: readonly number[] = [0, 1, 4, 2, 3];

/**
 * A failure a debugger's pause caused (`pauseLanes.ts`) wins a pixel column over successes and
 * warnings — the pause shows however far out one zooms — but never over the app's own failures,
 * unknowns or prober errors.
 */
export const PAUSED_SEVERITY = 1.5;

/** Which attempt wins a column: by outcome (`OUTCOME_SEVERITY`), a failure of the pause's below the app's own. */
export function markSeverity(code: number, blamedOnPause: boolean): number {
  return blamedOnPause ? PAUSED_SEVERITY : (OUTCOME_SEVERITY[code] ?? 0);
}
export interface Row {
  readonly lane: Lane;
  /** Position in `Layout.rows`. */
  readonly index: number;
  /** CSS pixels from the top of all rows. */
  readonly y: number;
  readonly height: number;
  /** 0 pod, 1 container, 2 probe. */
  readonly depth: 0 | 1 | 2;
  readonly label: string;
  readonly highlighted: boolean;
}

/** A run's heading, above its first pod, in a timeline of several. */
export interface SectionHeading {
  /** CSS pixels from the top of all rows. */
  readonly y: number;
  readonly height: number;
  readonly name: string;
  readonly title: string;
}

export interface Layout {
  readonly rows: readonly Row[];
  readonly height: number;
  readonly byId: ReadonlyMap<string, Row>;
  /** The runs' headings, top to bottom (none for a timeline of one run). */
  readonly headings?: readonly SectionHeading[];
}

/** What a lane's label says: the pod, the container, or the probe type. */
export function laneLabel(lane: Lane): string {
  switch (lane.kind) {
    case 'pod':
      return lane.name;
    case 'container':
      return lane.name;
    case 'probe':
      return lane.probe;
  }
}

/** A lane's row height: taller for a pod or container the cluster said something of. */
function rowHeight(lane: Lane): number {
  if (!showsCluster(lane)) return ROW_HEIGHT[lane.kind];
  return lane.kind === 'pod' ? CLUSTER_POD_ROW.height : CLUSTER_CONTAINER_ROW.height;
}

/** Whether a lane's row has the cluster's band (`rowHeight`). */
export function showsCluster(lane: Lane): boolean {
  return lane.kind !== 'probe' && hasClusterBand(lane);
}

/**
 * Lanes in draw order (`TimelineModel.lanes()`), filtered: a hidden container hides its probes too;
 * pods always show. With `sections` (several runs), each run's first pod has its heading above it.
 */
export function layoutRows(lanes: Iterable<Lane>, filters: Filters, highlighted: ReadonlySet<string>, sections: readonly ModelSection[] = []): Layout {
  const rows: Row[] = [];
  const byId = new Map<string, Row>();
  const headings: SectionHeading[] = [];
  let section: string | undefined;
  let y = 0;
  for (const lane of lanes) {
    if (lane.kind === 'container' && filters.hiddenContainers.has(lane.name)) continue;
    if (lane.kind === 'probe' && (filters.hiddenContainers.has(lane.container) || filters.hiddenProbes.has(lane.probe))) continue;
    if (lane.kind === 'pod' && rows.length > 0) y += POD_GAP;
    if (lane.kind === 'pod' && lane.section !== undefined && lane.section !== section) {
      section = lane.section;
      const title = sections.find((s) => s.name === section)?.title ?? section;
      headings.push({ y, height: SECTION_HEADING_HEIGHT, name: section, title });
      y += SECTION_HEADING_HEIGHT;
    }
    const height = rowHeight(lane);
    const row: Row = { lane, index: rows.length, y, height, depth: lane.kind === 'pod' ? 0 : lane.kind === 'container' ? 1 : 2, label: laneLabel(lane), highlighted: highlighted.has(lane.id) };
    rows.push(row);
    byId.set(lane.id, row);
    y += height;
  }
  return { rows, height: y, byId, headings };
}

/** The rows that overlap `[top, bottom)` (CSS pixels from the top of all rows): `[first, end)` indices. */
export function visibleRows(layout: Layout, top: number, bottom: number): [number, number] {
  const rows = layout.rows;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const row = rows[mid] as Row;
    if (row.y + row.height <= top) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < rows.length && (rows[end] as Row).y < bottom) end++;
  return [lo, end];
}

/** The row at `y` (CSS pixels from the top of all rows), if any (not the gap between pods). */
export function rowAt(layout: Layout, y: number): Row | undefined {
  const [first] = visibleRows(layout, y, y + 1);
  const row = layout.rows[first];
  return row && y >= row.y && y < row.y + row.height ? row : undefined;
}

/** Container names in the order first met (the container filter's choices). */
export function containerNames(lanes: Iterable<Lane>): string[] {
  const names = new Set<string>();
  for (const lane of lanes) if (lane.kind === 'container') names.add(lane.name);
  return [...names];
}

/** Probe types that occur, in kubelet order. */
export function probeTypes(lanes: Iterable<Lane>): ProbeType[] {
  const seen = new Set<ProbeType>();
  for (const lane of lanes) if (lane.kind === 'probe') seen.add(lane.probe);
  return (['startup', 'readiness', 'liveness'] as const).filter((p) => seen.has(p));
}
