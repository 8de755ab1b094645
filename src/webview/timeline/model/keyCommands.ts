/**
 * Which key does what to the view. Pure (node tests import it): a key in, a command out; the
 * interaction code carries the commands out. Two sets: keys on the focused canvas (pan, scroll,
 * fit), and shortcuts anywhere in the panel but a form control (zoom, fit, follow, play).
 */

export type ViewCommand =
  /** Pan by a share of the visible width (negative: earlier). */
  | { readonly kind: 'pan'; readonly widths: number }
  /** Scroll the lanes by CSS pixels. */
  | { readonly kind: 'scroll'; readonly px: number }
  /** Zoom about the middle (or `now` while following); > 1 zooms in. */
  | { readonly kind: 'zoom'; readonly factor: number }
  | { readonly kind: 'fitAll' }
  | { readonly kind: 'toggleFollow' }
  | { readonly kind: 'togglePlay' }
  /** Close the tooltip. */
  | { readonly kind: 'dismiss' };

/** What of a `KeyboardEvent` decides the command. */
export interface KeyPress {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
}

/** One zoom step (a key press, a toolbar button) zooms by this factor. */
export const ZOOM_STEP = 1.5;
/** Arrow keys pan by this share of the width; with Shift, by `KEY_PAN_FAR`. */
const KEY_PAN = 0.1;
const KEY_PAN_FAR = 0.5;
/** Up and Down scroll the lanes by about a probe row. */
const KEY_SCROLL_PX = 40;

/** Keys on the focused canvas: arrows pan (Left/Right) and scroll (Up/Down), Home fits all. */
export function canvasKeyCommand(press: KeyPress): ViewCommand | undefined {
  if (press.altKey || press.metaKey || press.ctrlKey) return undefined;
  const pan = press.shiftKey ? KEY_PAN_FAR : KEY_PAN;
  switch (press.key) {
    case 'ArrowLeft':
      return { kind: 'pan', widths: -pan };
    case 'ArrowRight':
      return { kind: 'pan', widths: pan };
    case 'ArrowUp':
      return { kind: 'scroll', px: -KEY_SCROLL_PX };
    case 'ArrowDown':
      return { kind: 'scroll', px: KEY_SCROLL_PX };
    case 'Home':
      return { kind: 'fitAll' };
    default:
      return undefined;
  }
}

/** Shortcuts anywhere in the panel: `+`/`-` zoom, `0` fits, `F` follows, Space plays, Escape closes the tooltip. */
export function shortcutCommand(press: KeyPress): ViewCommand | undefined {
  if (press.altKey || press.metaKey || press.ctrlKey) return undefined;
  switch (press.key) {
    case '+':
    case '=':
      return { kind: 'zoom', factor: ZOOM_STEP };
    case '-':
    case '_':
      return { kind: 'zoom', factor: 1 / ZOOM_STEP };
    case '0':
      return { kind: 'fitAll' };
    case 'f':
    case 'F':
      return { kind: 'toggleFollow' };
    case ' ':
      return { kind: 'togglePlay' };
    case 'Escape':
      return { kind: 'dismiss' };
    default:
      return undefined;
  }
}
