/**
 * The panel's DOM skeleton, top to bottom: toolbar, filter chips, notes, the axis over the
 * scrolling lanes (the lane list beside the canvas, the runs' headings across both), the details
 * area (the selection's *why*), the legend; the tooltip and the live region float. Built inside `document.body`: the host's HTML only links the stylesheets and the script.
 */
import { h } from './dom';

export interface PanelParts {
  readonly toolbar: HTMLElement;
  readonly filters: HTMLElement;
  readonly notes: HTMLElement;
  readonly axis: HTMLElement;
  readonly legend: HTMLElement;
  readonly tooltip: HTMLElement;
  /** The details area: why the selected container is in its state. */
  readonly why: HTMLElement;
  /** The runs' headings, in a timeline of several. */
  readonly headings: HTMLElement;
}

export interface PanelDom {
  /** Says what the axis reads: elapsed time or local time. */
  readonly axisCorner: HTMLDivElement;
  /** Scrolls the lane list and the canvas's plot together. */
  readonly scroller: HTMLDivElement;
  /** As tall as all rows; the canvas sticks to the top of the scrolled view inside it. */
  readonly plot: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  /** A polite live region: what the keyboard moved to. */
  readonly announcer: HTMLDivElement;
  /** Adds the lane list (built with the scroller) and puts the panel in the page. */
  mount(laneList: HTMLElement): void;
}

export function buildPanelDom(parts: PanelParts): PanelDom {
  const axisCorner = h('div', { className: 'tl-axis-corner', attrs: { 'aria-hidden': 'true' } });
  // `application`: a screen reader passes the arrow keys through to the canvas (they pan it).
  const canvas = h('canvas', { id: 'timeline-canvas', className: 'tl-canvas', attrs: { tabindex: '0', role: 'application', 'aria-roledescription': 'timeline' } });
  const plot = h('div', { className: 'tl-plot' }, [canvas]);
  const scroller = h('div', { className: 'tl-scroll', id: 'timeline-scroll' });
  const announcer = h('div', { className: 'tl-sr-only', id: 'timeline-live', attrs: { 'aria-live': 'polite', role: 'status' } });
  return {
    axisCorner,
    scroller,
    plot,
    canvas,
    announcer,
    mount(laneList) {
      scroller.append(laneList, plot, parts.headings);
      const main = h('div', { className: 'tl-main' }, [axisCorner, parts.axis, scroller]);
      document.body.append(h('div', { className: 'tl-root', id: 'timeline-root' }, [parts.toolbar, parts.filters, parts.notes, main, parts.why, parts.legend, parts.tooltip, announcer]));
    },
  };
}
