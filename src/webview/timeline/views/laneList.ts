/**
 * The lane labels, and the timeline's accessible path: a listbox with an option per drawn row, at
 * the row's height beside the canvas. A screen reader hears each lane's summary; the keyboard moves
 * between lanes (Up/Down/PageUp/PageDown) and through a lane's marks (Left/Right/Home/End, handled
 * by the app).
 *
 * Virtualised: only the options near the scrolled view exist (a thousand pods are five thousand
 * lanes, and building them all took hundreds of ms on every filter change). Each option says its
 * place in the whole list (`aria-posinset` of `aria-setsize`), and the active option is kept while
 * scrolled away, so `aria-activedescendant` always names an element.
 */
import type { Lane } from '../../../core/timeline/viewModel';
import { h } from './dom';
import { EMPTY_LAYOUT, type Layout, type Row, visibleRows } from '../model/layout';

export interface LaneListEvents {
  /** A label was clicked. */
  click(row: Row): void;
  /** A key the list does not handle itself (everything but Up/Down/PageUp/PageDown). */
  key(event: KeyboardEvent): void;
  /** The active lane changed (keyboard or click). */
  activate(row: Row | undefined): void;
}

/** What an option says: its accessible summary (and tooltip), and the second line under its label. */
export interface LaneText {
  summary(lane: Lane): string;
  detail(lane: Lane): string;
}

/** Options are kept this far (CSS px) above and below the view, so a scroll shows labels already there. */
const OVERSCAN_PX = 400;
/** PageUp and PageDown move by this many lanes. */
const PAGE_LANES = 10;

export class LaneList {
  readonly element: HTMLDivElement;
  private layout: Layout = EMPTY_LAYOUT;
  /** The options that exist, by row index. */
  private readonly options = new Map<number, HTMLDivElement>();
  /** Options out of use, to be filled again. */
  private readonly spare: HTMLDivElement[] = [];
  /** The row indices `[first, end)` the options cover (the active one aside). */
  private shownFirst = 0;
  private shownEnd = 0;
  private activeIndex = -1;

  /** `scroller`: the element the list scrolls in (with the canvas beside it). */
  constructor(
    private readonly events: LaneListEvents,
    private readonly text: LaneText,
    private readonly scroller: HTMLElement,
  ) {
    this.element = h('div', { className: 'tl-lanes', id: 'timeline-lanes', attrs: { role: 'listbox', tabindex: '0', 'aria-label': 'Lanes: Up and Down move between lanes, Left and Right step through marks, Enter shows the probe in the manifest' } });
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    this.element.addEventListener('focus', () => {
      if (this.activeIndex < 0 && this.rows.length > 0) this.setActive(0, true);
    });
    this.element.addEventListener('click', (event) => {
      const option = (event.target as Element | null)?.closest('[role="option"]');
      const index = Number(option?.getAttribute('data-index') ?? -1);
      const row = this.rows[index];
      if (!row) return;
      this.setActive(index, true);
      this.events.click(row);
    });
  }

  private get rows(): readonly Row[] {
    return this.layout.rows;
  }

  get active(): Row | undefined {
    return this.rows[this.activeIndex];
  }

  /** New rows (lanes appeared, filters or highlights changed): the options are filled anew; the active lane stays active if it is still there. */
  setRows(layout: Layout): void {
    const activeId = this.active?.lane.id;
    this.layout = layout;
    this.element.style.height = `${layout.height}px`;
    for (const option of this.options.values()) this.release(option);
    this.options.clear();
    this.shownFirst = this.shownEnd = 0;
    this.activeIndex = -1;
    this.element.removeAttribute('aria-activedescendant');
    this.showRowsInView();
    const keep = activeId === undefined ? undefined : layout.byId.get(activeId);
    if (keep) this.setActive(keep.index, false);
  }

  /** Makes the options match the scrolled view (after a scroll or a resize). */
  showRowsInView(): void {
    const top = this.scroller.scrollTop;
    const [first, end] = visibleRows(this.layout, top - OVERSCAN_PX, top + this.scroller.clientHeight + OVERSCAN_PX);
    if (first === this.shownFirst && end === this.shownEnd && this.options.size > 0) return;
    this.shownFirst = first;
    this.shownEnd = end;
    let changed = false;
    for (const [index, option] of this.options) {
      if ((index >= first && index < end) || index === this.activeIndex) continue;
      this.options.delete(index);
      this.release(option);
      changed = true;
    }
    for (let index = first; index < end; index++) {
      if (this.options.has(index)) continue;
      this.options.set(index, this.fill(this.spare.pop() ?? newOption(), this.rows[index] as Row));
      changed = true;
    }
    if (changed) this.element.replaceChildren(...[...this.options.keys()].sort((a, b) => a - b).map((index) => this.options.get(index) as HTMLDivElement));
  }

  /** Refreshes what the options say (counts change as events come). */
  refreshLabels(): void {
    for (const [index, option] of this.options) {
      const lane = (this.rows[index] as Row).lane;
      const summary = this.text.summary(lane);
      if (option.getAttribute('aria-label') !== summary) {
        option.setAttribute('aria-label', summary);
        option.title = summary;
      }
      const detail = option.lastElementChild;
      const text = this.text.detail(lane);
      if (detail && detail.textContent !== text) detail.textContent = text;
    }
  }

  setActive(index: number, notify: boolean): void {
    const row = this.rows[index];
    if (!row) return;
    const previous = this.options.get(this.activeIndex);
    if (previous) {
      markActive(previous, false);
      // Kept only for being active: out of view, it goes.
      if (this.activeIndex < this.shownFirst || this.activeIndex >= this.shownEnd) {
        this.options.delete(this.activeIndex);
        this.release(previous);
      }
    }
    this.activeIndex = index;
    let option = this.options.get(index);
    if (!option) {
      option = this.fill(this.spare.pop() ?? newOption(), row);
      this.options.set(index, option);
      this.element.append(option);
    }
    markActive(option, true);
    this.element.setAttribute('aria-activedescendant', option.id);
    this.scrollToRow(row);
    this.showRowsInView();
    if (notify) this.events.activate(row);
  }

  /** Scrolls as little as needed to show all of `row` (as `scrollIntoView({ block: 'nearest' })` would). */
  private scrollToRow(row: Row): void {
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight;
    if (row.y < top) this.scroller.scrollTop = row.y;
    else if (row.y + row.height > top + height) this.scroller.scrollTop = row.y + row.height - height;
  }

  private fill(option: HTMLDivElement, row: Row): HTMLDivElement {
    const lane = row.lane;
    const summary = this.text.summary(lane);
    option.className = `tl-lane tl-lane-${lane.kind}${row.highlighted ? ' tl-lane-highlighted' : ''}${row.index === 0 ? ' tl-lane-first' : ''}`;
    option.id = `timeline-lane-${row.index}`;
    option.setAttribute('aria-selected', 'false');
    option.setAttribute('aria-posinset', String(row.index + 1));
    option.setAttribute('aria-setsize', String(this.rows.length));
    option.setAttribute('aria-label', summary);
    option.setAttribute('data-lane', lane.id);
    option.setAttribute('data-index', String(row.index));
    option.title = summary;
    option.style.top = `${row.y}px`;
    option.style.height = `${row.height}px`;
    const [label, detail] = option.children;
    (label as HTMLElement).textContent = row.label;
    (detail as HTMLElement).textContent = this.text.detail(lane);
    return option;
  }

  private release(option: HTMLDivElement): void {
    option.remove();
    this.spare.push(option);
  }

  private onKey(event: KeyboardEvent): void {
    const step = { ArrowUp: -1, ArrowDown: 1, PageUp: -PAGE_LANES, PageDown: PAGE_LANES }[event.key];
    if (step !== undefined && this.rows.length > 0) {
      event.preventDefault();
      const from = this.activeIndex < 0 ? (step > 0 ? -1 : this.rows.length) : this.activeIndex;
      this.setActive(Math.max(0, Math.min(this.rows.length - 1, from + step)), true);
      return;
    }
    this.events.key(event);
  }
}

function newOption(): HTMLDivElement {
  return h('div', { attrs: { role: 'option' } }, [h('span', { className: 'tl-lane-label' }), h('span', { className: 'tl-lane-meta' })]);
}

function markActive(option: HTMLDivElement, active: boolean): void {
  option.setAttribute('aria-selected', String(active));
  option.classList.toggle('tl-lane-active', active);
}
