/**
 * The tooltip: a title and lines of plain text (probe output and kubelet messages are untrusted:
 * `textContent` only), placed beside the pointer or the focused mark and kept inside the window.
 */
import type { Tooltip } from '../words/tooltipText';
import { h } from './dom';

export class TooltipView {
  readonly element: HTMLDivElement;
  private shownText = '';

  constructor() {
    this.element = h('div', { className: 'tl-tooltip', id: 'timeline-tooltip', attrs: { role: 'tooltip' } });
    this.element.hidden = true;
  }

  /** Shows `tip` with its top-left near (`x`, `y`) (viewport CSS pixels), flipped to stay on screen. */
  show(tip: Tooltip, x: number, y: number): void {
    const text = [tip.title, ...tip.lines].join('\n');
    if (text !== this.shownText) {
      this.shownText = text;
      const title = h('div', { className: 'tl-tooltip-title', text: tip.title });
      this.element.replaceChildren(title, ...tip.lines.map((line) => h('div', { className: 'tl-tooltip-line', text: line })));
    }
    this.element.hidden = false;
    const box = this.element.getBoundingClientRect();
    const margin = 8;
    let left = x + 14;
    let top = y + 16;
    if (left + box.width > window.innerWidth - margin) left = Math.max(margin, x - box.width - 10);
    if (top + box.height > window.innerHeight - margin) top = Math.max(margin, y - box.height - 10);
    this.element.style.left = `${Math.round(left)}px`;
    this.element.style.top = `${Math.round(top)}px`;
  }

  hide(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.shownText = '';
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  /** What it says while shown (title and lines, one a line), else ''. */
  get text(): string {
    return this.element.hidden ? '' : this.shownText;
  }
}
