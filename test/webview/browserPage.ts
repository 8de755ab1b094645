import { accessSync, constants, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { htmlOutput, readPageAssets } from '../../src/cli/format/html';
import type { EngineEvent } from '../../src/core/engine/events';
import type { TimelineTestHooks } from '../../src/webview/timeline/testHooks';
import { scratchDir } from '../helpers/scratch';

// What the timeline page's tests in headless Chromium share: the browser (a test is skipped
// without it), the page's globals as they reach them, and every text the canvas writes — to find
// one written over another.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the page cannot be opened (no Chromium, or a `[path, what]` the test needs is missing), for `test`'s `skip`; false if it can. */
export function whyNotOpened(needs: readonly (readonly [string, string])[]): string | false {
  for (const [path, what] of [[CHROMIUM, `Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`] as const, ...needs]) {
    try {
      accessSync(path, constants.R_OK);
    } catch {
      return `no ${what}: the page was not opened`;
    }
  }
  return false;
}

const DIST = resolve('dist');

/** The page's bundle, without which a page test is skipped (`whyNotOpened`'s need). */
export const PAGE_BUNDLE: readonly [string, string] = [join(DIST, 'webview', 'timeline.js'), `${DIST}/webview/timeline.js (run \`node esbuild.config.mjs\`)`];

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** A text the canvas wrote: where, and its measured width. */
export interface CanvasText {
  text: string;
  x: number;
  y: number;
  w: number;
}

/**
 * What the page's globals look like here: the tests are type-checked without the DOM library, so
 * the page's DOM is untyped. (Code run in the page is serialized: it reaches them through
 * `globalThis`, not through anything of this module.)
 */
export interface PageGlobals {
  __probeLensTimeline: TimelineTestHooks & { zoomTo(start: number, end: number): void };
  /** Every text the canvas wrote since it was last emptied (`recordCanvasTexts`). */
  __texts: CanvasText[];
  /** Of `texts`, those written over another on about the same line: `"a" over "b"`. */
  __overlapping(texts: readonly CanvasText[]): string[];
  document: any;
  getComputedStyle(element: unknown): any;
  CanvasRenderingContext2D: any;
}

/** Before `tab` loads its page: every text the canvas writes goes into `__texts`, and `__overlapping` finds those written over another. */
export async function recordCanvasTexts(tab: Page): Promise<void> {
  await tab.addInitScript(() => {
    const w = globalThis as unknown as PageGlobals;
    w.__texts = [];
    const fillText = w.CanvasRenderingContext2D.prototype.fillText;
    w.CanvasRenderingContext2D.prototype.fillText = function (this: { measureText(text: string): { width: number } }, text: string, x: number, y: number) {
      w.__texts.push({ text, x, y, w: this.measureText(text).width });
      return fillText.call(this, text, x, y);
    };
    w.__overlapping = (texts) => {
      const found: string[] = [];
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          const a = texts[i] as CanvasText;
          const b = texts[j] as CanvasText;
          if (Math.abs(a.y - b.y) < 6 && a.x < b.x + b.w && b.x < a.x + a.w) found.push(`${JSON.stringify(a.text)} over ${JSON.stringify(b.text)}`);
        }
      }
      return found;
    };
  });
}

/**
 * The CLI's page of `events`, written by `htmlOutput` (what `probe-lens run|simulate --format html`
 * writes from the same lines) with dist's assets into a scratch folder: its path.
 */
export function cliPageFile(events: readonly EngineEvent[], header: Record<string, unknown>, page: { readonly now: number; readonly title: string }): string {
  const assets = readPageAssets(DIST);
  if (!assets.ok) throw new Error(assets.message);
  let html = '';
  const output = htmlOutput({ write: (text) => (html += text) }, header, { assets: assets.assets, clock: { kind: 'virtual' }, now: () => page.now, title: page.title });
  for (const event of events) output.emit(event);
  output.finish();
  const file = join(scratchDir('probe-lens-cli-page-'), 'timeline.html');
  writeFileSync(file, html);
  return file;
}

/**
 * `file` opened in a new tab of `browser`, every text its canvas writes recorded: the tab once
 * the timeline has painted, and the page errors it has had (and will have).
 */
export async function openPainted(browser: Browser, file: string, viewport: { width: number; height: number }): Promise<{ tab: Page; errors: string[] }> {
  const tab = await browser.newPage({ viewport });
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  await recordCanvasTexts(tab);
  await tab.goto(pathToFileURL(file).href);
  await tab.waitForFunction(() => ((globalThis as unknown as PageGlobals).__probeLensTimeline?.state().painted ?? 0) > 0, undefined, { timeout: 10_000 });
  return { tab, errors };
}

/**
 * The texts the canvas writes over another as the view is zoomed: spans from `spans.from` seconds,
 * ×1.37 each time while under `spans.below`, each moved by a third of itself from `starts.from`
 * (half a span before 0 if not given) while under `starts.below`. Each as `"a" over "b" at [start, end]`.
 */
export function overlapsAtZooms(tab: Page, spans: { readonly from: number; readonly below: number }, starts: { readonly from?: number; readonly below: number }): Promise<string[]> {
  return tab.evaluate(
    ([spans, starts]) => {
      const w = globalThis as unknown as PageGlobals;
      const found: string[] = [];
      for (let span = spans.from; span < spans.below; span *= 1.37) {
        for (let start = starts.from ?? -span / 2; start < starts.below; start += span / 3) {
          w.__texts = [];
          w.__probeLensTimeline.zoomTo(start, start + span);
          for (const overlap of w.__overlapping(w.__texts)) found.push(`${overlap} at [${start}, ${start + span}]`);
        }
      }
      return found;
    },
    [spans, starts] as const,
  );
}
