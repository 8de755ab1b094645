import { accessSync, constants } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { TimelineTestHooks } from '../../src/webview/timeline/testHooks';

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
