/**
 * Pointer and keyboard input on the timeline, turned into what it means: drag and wheel pan, wheel
 * and pinch zoom about the pointer, hover shows what is under it, a click reveals it; keys become
 * `ViewCommand`s (`keyCommands.ts`). The app decides what each does to the view.
 */
import { canvasKeyCommand, shortcutCommand, type ViewCommand } from './model/keyCommands';

export interface InteractionTarget {
  /** The plot's width in CSS px (a wheel's page-sized delta). */
  readonly width: number;
  /** Pans by `dx` CSS px (positive: later in time). */
  panBy(dx: number): void;
  /** Zooms about `x` (CSS px from the plot's left) by `factor` (> 1 zooms in). */
  zoomAt(x: number, factor: number): void;
  /** The pointer is at (`clientX`, `clientY`): show what is there. */
  pointAt(clientX: number, clientY: number): void;
  /** A drag is moving the view: nothing stays pointed at. */
  dragging(): void;
  /** The pointer left the canvas (perhaps while dragging: then what it showed stays until the drag ends). */
  pointerLeft(dragging: boolean): void;
  /** A click (not a drag) at (`clientX`, `clientY`). */
  clickAt(clientX: number, clientY: number): void;
  /** The canvas lost the keyboard focus. */
  blurred(): void;
  /** Carries out a key's command; `false` if it does not apply (the key then goes on to VS Code). */
  run(command: ViewCommand): boolean;
}

/** A pointer moving less than this (CSS px) while pressed is a click, not a drag. */
const DRAG_THRESHOLD = 3;
/** Wheel zoom per pixel of delta; a pinch arrives as ctrl+wheel with small deltas, so more per unit. */
const WHEEL_ZOOM = 0.002;
const PINCH_ZOOM = 0.01;
/** A wheel delta in lines (`deltaMode` 1) is this many pixels. */
const LINE_PX = 16;

/** Drag to pan, wheel to zoom (Shift or a sideways wheel pans), hover, click, and the canvas's own keys. */
export function bindCanvasInput(canvas: HTMLCanvasElement, target: InteractionTarget): void {
  let drag: { id: number; x: number; moved: boolean } | undefined;
  canvas.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    canvas.setPointerCapture(event.pointerId);
    drag = { id: event.pointerId, x: event.clientX, moved: false };
  });
  canvas.addEventListener('pointermove', (event) => {
    if (drag && drag.id === event.pointerId) {
      const dx = event.clientX - drag.x;
      if (drag.moved || Math.abs(dx) > DRAG_THRESHOLD) {
        drag.moved = true;
        drag.x = event.clientX;
        target.panBy(-dx);
        target.dragging();
        return;
      }
    }
    target.pointAt(event.clientX, event.clientY);
  });
  canvas.addEventListener('pointerup', (event) => {
    const released = drag;
    drag = undefined;
    if (released && !released.moved) target.clickAt(event.clientX, event.clientY);
  });
  canvas.addEventListener('pointercancel', () => {
    drag = undefined;
  });
  canvas.addEventListener('pointerleave', () => target.pointerLeft(drag !== undefined));
  canvas.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const unit = event.deltaMode === 1 ? LINE_PX : event.deltaMode === 2 ? target.width : 1;
      const dx = event.deltaX * unit;
      const dy = event.deltaY * unit;
      if (event.shiftKey || Math.abs(dx) > Math.abs(dy)) {
        target.panBy(event.shiftKey && dx === 0 ? dy : dx);
      } else {
        const rect = canvas.getBoundingClientRect();
        target.zoomAt(event.clientX - rect.left, Math.exp(-dy * (event.ctrlKey ? PINCH_ZOOM : WHEEL_ZOOM)));
      }
      target.pointAt(event.clientX, event.clientY);
    },
    { passive: false },
  );
  canvas.addEventListener('keydown', (event) => {
    const command = canvasKeyCommand(event);
    if (command && target.run(command)) event.preventDefault();
  });
  canvas.addEventListener('blur', () => target.blurred());
}

/** Shortcuts anywhere in the panel, but not while typing in a form control or pressing a button. */
export function bindShortcuts(target: InteractionTarget): void {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented) return;
    const element = event.target instanceof Element ? event.target : null;
    if (element && (element.closest('input, select, textarea') || (element.closest('button') && (event.key === ' ' || event.key === 'Enter')))) return;
    const command = shortcutCommand(event);
    if (command && target.run(command)) event.preventDefault();
  });
}
