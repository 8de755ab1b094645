/**
 * Which rows are drawn now: the model's lanes through the filters, highlighted as the host says.
 * Laid out again only when lanes came (the feed's `structure`) or filters or highlights changed —
 * not on every event. Pure: node tests import it.
 */
import type { EventFeed } from './feed';
import { EMPTY_LAYOUT, type Filters, type Layout, layoutRows, type Row } from './layout';

export class LaneRows {
  layout: Layout = EMPTY_LAYOUT;
  /** The feed `structure` the layout is for (-1: lay out again). */
  private structure = -1;
  private highlighted: ReadonlySet<string> = new Set();

  /** `rebuilt` hears of each new layout (the lane list, the plot's height and the chips follow it). */
  constructor(
    private readonly filters: Filters,
    private readonly rebuilt: (layout: Layout) => void,
  ) {}

  /** Filters changed, or the feed was replaced: the next `update` lays out again. */
  invalidate(): void {
    this.structure = -1;
  }

  /** The lanes selected in the editor or the tree (store lane keys). */
  highlight(laneIds: readonly string[]): void {
    this.highlighted = new Set(laneIds);
    this.invalidate();
  }

  /** The layout for `feed` as it is now, laid out again if it needs to be. */
  update(feed: EventFeed): Layout {
    if (this.structure === feed.structure) return this.layout;
    this.structure = feed.structure;
    this.layout = layoutRows(feed.model.lanes(), this.filters, this.highlighted, feed.model.sections);
    this.rebuilt(this.layout);
    return this.layout;
  }

  firstHighlighted(): Row | undefined {
    return this.layout.rows.find((row) => row.highlighted);
  }
}
