/**
 * The runs' headings in a timeline of several (a recording and its replay, one above the other):
 * DOM text across the label column and the plot, in the gap the layout leaves above each run's
 * first pod, so they scroll with the lanes. Headings for a screen reader's browse mode; the lane
 * list's options say their run as well (`laneSummary`).
 */
import { h } from './dom';
import type { Layout, SectionHeading } from '../model/layout';

export class SectionHeadings {
  readonly element: HTMLDivElement;
  private shown = '';

  constructor() {
    this.element = h('div', { className: 'tl-headings', id: 'timeline-headings' });
  }

  /** The headings of `layout` (none: nothing shown). */
  update(layout: Layout): void {
    const headings = layout.headings ?? [];
    const key = headings.map((s) => `${s.y}:${s.title}`).join('\n');
    if (key === this.shown) return;
    this.shown = key;
    this.element.replaceChildren(...headings.map((heading, i) => this.heading(heading, i)));
  }

  /** What the headings say, top to bottom (the test hooks' view). */
  get titles(): string[] {
    return [...this.element.children].map((child) => child.textContent ?? '');
  }

  private heading(heading: SectionHeading, index: number): HTMLElement {
    const element = h('div', { className: `tl-heading${index === 0 ? ' tl-heading-first' : ''}`, attrs: { role: 'heading', 'aria-level': '2', 'data-section': heading.name } }, [
      h('span', { className: 'tl-heading-title', text: heading.title }),
    ]);
    element.style.top = `${heading.y}px`;
    element.style.height = `${heading.height}px`;
    return element;
  }
}
