/**
 * The canvas's colours, read from the CSS custom properties of media/timeline.css, which take them
 * from VS Code's theme variables (`--vscode-*`; on the CLI's page, media/timeline-page.css sets
 * those). Read again whenever the theme may have changed (`watchTheme`), so the canvas never
 * keeps a stale palette, and the DOM (legend, chips) and the canvas always agree.
 */
import { MARK_OUTCOMES } from '../../../core/timeline/columns';

export interface Palette {
  readonly theme: 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';
  readonly highContrast: boolean;
  /** By `MARK_OUTCOMES` index. */
  readonly outcomes: readonly string[];
  readonly resultSuccess: string;
  readonly resultFailure: string;
  readonly resultUnknown: string;
  readonly ready: string;
  readonly notReady: string;
  readonly running: string;
  readonly waiting: string;
  readonly backOff: string;
  readonly terminated: string;
  readonly kill: string;
  readonly tunnel: string;
  readonly eventMarker: string;
  /** Cluster sessions: the kubelet's own Ready band, the cluster's events, disagreements, predicted kills, the cluster pod probed. */
  readonly kubeletReady: string;
  readonly kubeletNotReady: string;
  readonly clusterEvent: string;
  readonly disagreement: string;
  readonly prediction: string;
  readonly target: string;
  /** A debugger's pause on a pod, and the attempts that failed because of it. */
  readonly pause: string;
  readonly foreground: string;
  readonly muted: string;
  readonly background: string;
  readonly grid: string;
  readonly focus: string;
  /** High-contrast outline colour; '' when the theme has none. */
  readonly contrast: string;
  readonly highlight: string;
  readonly now: string;
  readonly font: string;
  readonly fontSize: number;
  readonly hatchBackOff: CanvasPattern | string;
  readonly hatchTunnel: CanvasPattern | string;
  readonly hatchDropped: CanvasPattern | string;
  readonly hatchDisagreement: CanvasPattern | string;
  readonly hatchPause: CanvasPattern | string;
  /** Upright bars (`‖`): a debugger's pause on a pod reads apart from the hatched stretches. */
  readonly stripesPause: CanvasPattern | string;
}

/**
 * The theme VS Code says the body is in. The page (no VS Code) follows the browser: forced colours
 * (Windows high contrast) are a high-contrast theme, dark or light by the preferred scheme.
 */
export function themeOf(body: HTMLElement): Palette['theme'] {
  const list = body.classList;
  if (list.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (list.contains('vscode-high-contrast')) return 'high-contrast';
  if (list.contains('vscode-dark')) return 'dark';
  if (list.contains('vscode-light')) return 'light';
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches === true;
  if (window.matchMedia?.('(forced-colors: active)').matches) return dark ? 'high-contrast' : 'high-contrast-light';
  return dark ? 'dark' : 'light';
}

/**
 * Calls `changed` whenever the theme may have: VS Code switches it by the body's class and sets its
 * colours on the root element's style; the page follows the system's scheme and forced colours.
 */
export function watchTheme(changed: () => void): void {
  new MutationObserver(changed).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  new MutationObserver(changed).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  for (const query of ['(prefers-color-scheme: dark)', '(forced-colors: active)']) window.matchMedia?.(query).addEventListener?.('change', changed);
  // Stylesheets may still be loading when the script starts.
  window.addEventListener('load', changed);
}

function isTransparent(colour: string): boolean {
  return colour === '' || colour === 'transparent' || /^rgba\([^)]*,\s*0\)$/.test(colour) || /^#[0-9a-f]{6}00$/i.test(colour);
}

/** Reads the palette; `fallback` for a property the stylesheet does not set (it always should). */
export function readPalette(body: HTMLElement): Palette {
  const style = getComputedStyle(body);
  const get = (name: string, fallback: string): string => {
    const value = style.getPropertyValue(name).trim();
    return value === '' ? fallback : value;
  };
  const resolver = new ColourResolver(body);
  const colour = (name: string, fallback: string): string => resolver.resolve(style.getPropertyValue(name).trim()) ?? fallback;
  try {
    const theme = themeOf(body);
    const highContrast = theme === 'high-contrast' || theme === 'high-contrast-light';
    const foreground = colour('--pl-foreground', theme === 'dark' || theme === 'high-contrast' ? '#cccccc' : '#333333');
    const outcomeVar: Record<string, string> = { success: '--pl-success', warning: '--pl-warning', failure: '--pl-failure', unknown: '--pl-unknown', error: '--pl-error' };
    const outcomes = MARK_OUTCOMES.map((o) => colour(outcomeVar[o] as string, foreground));
    const contrast = colour('--pl-contrast', '');
    const backOff = colour('--pl-backoff', '#d18616');
    const tunnel = colour('--pl-tunnel', '#b180d7');
    const muted = colour('--pl-muted', '#8b8b8b');
    const fontSize = Number.parseFloat(get('--pl-font-size', '13')) || 13;
    const ready = colour('--pl-ready', outcomes[0] as string);
    const notReady = colour('--pl-not-ready', muted);
    const kill = colour('--pl-kill', outcomes[2] as string);
    const disagreement = colour('--pl-disagreement', outcomes[1] as string);
    const pause = colour('--pl-pause', '#1a85ff');
    return {
      theme,
      highContrast,
      outcomes,
      resultSuccess: colour('--pl-result-success', outcomes[0] as string),
      resultFailure: colour('--pl-result-failure', outcomes[2] as string),
      resultUnknown: colour('--pl-result-unknown', muted),
      ready,
      notReady,
      running: colour('--pl-running', '#3794ff'),
      waiting: colour('--pl-waiting', '#cca700'),
      backOff,
      terminated: colour('--pl-terminated', outcomes[2] as string),
      kill,
      tunnel,
      eventMarker: colour('--pl-event', muted),
      // Unset in the stylesheet, each takes the theme colour it extends: the kubelet's Ready reads
      // like ours (told apart by its shape and name), a disagreement like a warning.
      kubeletReady: colour('--pl-kubelet-ready', ready),
      kubeletNotReady: colour('--pl-kubelet-not-ready', notReady),
      clusterEvent: colour('--pl-cluster-event', foreground),
      disagreement,
      prediction: colour('--pl-prediction', kill),
      target: colour('--pl-target', foreground),
      pause,
      foreground,
      muted,
      background: colour('--pl-background', theme === 'dark' || theme === 'high-contrast' ? '#1e1e1e' : '#ffffff'),
      grid: colour('--pl-grid', muted),
      focus: colour('--pl-focus', '#007fd4'),
      contrast: isTransparent(contrast) ? '' : contrast,
      highlight: colour('--pl-highlight', '#007fd4'),
      now: colour('--pl-now', '#007fd4'),
      font: get('--pl-font-family', 'system-ui, sans-serif'),
      fontSize,
      hatchBackOff: hatch(backOff, 6),
      hatchTunnel: hatch(tunnel, 4, true),
      hatchDropped: hatch(muted, 8),
      hatchDisagreement: hatch(disagreement, 6),
      hatchPause: hatch(pause, 4),
      stripesPause: stripes(pause, 5),
    };
  } finally {
    resolver.dispose();
  }
}

/**
 * Colours as a canvas takes them. A custom property keeps its value as written — `var()`
 * substituted, but `light-dark()`, `color-mix()` and system colours (`CanvasText`) left as they
 * are, and a canvas refuses some of them, silently keeping its last colour. So each value goes
 * through an element's `color` and comes back computed, as `rgb()`. The element opts out of
 * forced colours: its colour is read, not shown, and must stay the one the stylesheet chose.
 */
class ColourResolver {
  private readonly probe: HTMLSpanElement;

  constructor(parent: HTMLElement) {
    this.probe = document.createElement('span');
    this.probe.hidden = true;
    this.probe.style.forcedColorAdjust = 'none';
    parent.append(this.probe);
  }

  /** `value` computed, or `undefined` if it is not a colour. */
  resolve(value: string): string | undefined {
    if (value === '') return undefined;
    this.probe.style.color = '';
    this.probe.style.color = value;
    if (this.probe.style.color === '') return undefined;
    return getComputedStyle(this.probe).color;
  }

  dispose(): void {
    this.probe.remove();
  }
}

/** A diagonal hatch (`/`, or `\` crossed when `cross`), tiled: back-off waits, tunnels down and incomplete stretches read apart without colour. */
function hatch(colour: string, size: number, cross = false): CanvasPattern | string {
  const tile = document.createElement('canvas');
  tile.width = size;
  tile.height = size;
  const ctx = tile.getContext('2d');
  if (!ctx) return colour;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.25;
  ctx.beginPath();
  // The diagonal and its neighbours' ends at the corners, so tiles join into unbroken lines.
  ctx.moveTo(-1, size + 1);
  ctx.lineTo(size + 1, -1);
  ctx.moveTo(-1, 1);
  ctx.lineTo(1, -1);
  ctx.moveTo(size - 1, size + 1);
  ctx.lineTo(size + 1, size - 1);
  if (cross) {
    ctx.moveTo(-1, -1);
    ctx.lineTo(size + 1, size + 1);
    ctx.moveTo(size - 1, -1);
    ctx.lineTo(size + 1, 1);
    ctx.moveTo(-1, size - 1);
    ctx.lineTo(1, size + 1);
  }
  ctx.stroke();
  return ctx.createPattern(tile, 'repeat') ?? colour;
}

/** Upright bars `width` apart, two pixels wide, tiled: a pause's stretch, like the pause symbol. */
function stripes(colour: string, width: number): CanvasPattern | string {
  const tile = document.createElement('canvas');
  tile.width = width;
  tile.height = 4;
  const ctx = tile.getContext('2d');
  if (!ctx) return colour;
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 2, 4);
  return ctx.createPattern(tile, 'repeat') ?? colour;
}
