/**
 * What the user is looking at: the item under the pointer (hover) and the item the keyboard is on
 * (focus), each outlined on the canvas, with a tooltip saying what it is — beside the pointer, or
 * under the focused item — and the focused item announced to screen readers.
 */
import { announceHit, type DescribeContext, describeHit } from '../words/describe';
import type { Hit } from '../model/hitTest';
import type { Layout, Row } from '../model/layout';
import { sameHit } from '../model/markCursor';
import type { Box } from '../render/renderer';
import type { TooltipView } from './tooltip';

export interface InspectorParts {
  readonly tooltip: TooltipView;
  /** A polite live region: what the keyboard moved to. */
  readonly announcer: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  /** The context the words are made in (the time now, the clock, the model). */
  describeContext(): DescribeContext;
  /** Where an item is drawn on the canvas (CSS px), if it is. */
  boxOf(hit: Hit): Box | undefined;
}

export class Inspector {
  hover: Hit | undefined;
  focus: Hit | undefined;
  /** Where the pointer last pointed (client px); none once it left, or the keyboard took over. */
  private pointer: { x: number; y: number } | undefined;

  constructor(private readonly parts: InspectorParts) {}

  /** A new source: nothing is pointed at or focused. */
  reset(): void {
    this.hover = undefined;
    this.focus = undefined;
  }

  /** The pointer is at (`x`, `y`) over `hit` (or nothing). Returns whether the outline must be redrawn. */
  pointAt(hit: Hit | undefined, x: number, y: number): boolean {
    this.pointer = { x, y };
    const changed = this.setHover(hit);
    if (hit) this.parts.tooltip.show(describeHit(hit, this.parts.describeContext()), x, y);
    return changed;
  }

  /** Hover on `hit` (or nothing, which hides the tooltip). Returns whether it changed. */
  setHover(hit: Hit | undefined): boolean {
    if (!hit) this.parts.tooltip.hide();
    if (sameHit(hit, this.hover)) return false;
    this.hover = hit;
    return true;
  }

  /** The pointer left the canvas; a drag's hover stays until the drag ends. Returns whether the outline must be redrawn. */
  pointerLeft(dragging: boolean): boolean {
    this.pointer = undefined;
    return dragging ? false : this.setHover(undefined);
  }

  /** The canvas lost the keyboard: a tooltip it showed goes, one the pointer shows stays. */
  blurred(): void {
    if (!this.pointer) this.parts.tooltip.hide();
  }

  /** The lanes scrolled: what was under the pointer is not any more. */
  scrolled(): void {
    this.hover = undefined;
    this.parts.tooltip.hide();
  }

  /** Rows were laid out again (new objects): the focused item is found again by its lane, or dropped; hover is dropped. */
  rowsRebuilt(layout: Layout): void {
    this.hover = undefined;
    if (!this.focus) return;
    const row = layout.byId.get(this.focus.lane.id);
    this.focus = row && row.lane === this.focus.lane ? ({ ...this.focus, row } as Hit) : undefined;
  }

  /** Another lane became active: the focused item stays only if it is on it. */
  laneActivated(row: Row): void {
    if (this.focus && this.focus.lane !== row.lane) this.clearFocus();
  }

  /** The keyboard moved to `hit`: the pointer's tooltip gives way to the focus's (`showFocus` once drawn). */
  focusOn(hit: Hit): void {
    this.focus = hit;
    this.pointer = undefined;
    this.parts.announcer.textContent = announceHit(hit, this.parts.describeContext());
  }

  clearFocus(): void {
    this.focus = undefined;
    this.parts.tooltip.hide();
  }

  /** Shows the tooltip under the focused item, where the last frame drew it. */
  showFocus(): void {
    const focus = this.focus;
    if (!focus) return;
    const box = this.parts.boxOf(focus);
    if (!box) return;
    const rect = this.parts.canvas.getBoundingClientRect();
    this.parts.tooltip.show(describeHit(focus, this.parts.describeContext()), rect.left + box.x + box.w / 2, rect.top + box.y + box.h);
  }

  /** After a redraw: a focus tooltip (the pointer is elsewhere) moves with its item. */
  followFocus(): void {
    if (this.focus && this.parts.tooltip.visible && !this.pointer) this.showFocus();
  }

  hideTooltip(): void {
    this.parts.tooltip.hide();
  }
}
