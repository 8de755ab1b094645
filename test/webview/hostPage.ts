import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { EngineEvent } from '../../src/core/engine/events';
import type { RunHeader } from '../../src/core/timeline/jsonl';
import { type HostMessage, TIMELINE_PROTOCOL_VERSION, type TimelineSection, type TimelineSource, type WebviewMessage } from '../../src/shared/protocol';
import { scratchDir } from '../helpers/scratch';
import type { PageGlobals } from './browserPage';

// The timeline as it runs in a VS Code webview, in headless Chromium without VS Code: the panel's
// bundle and stylesheets (and the codicons) on a page where `acquireVsCodeApi` exists, so the
// bundle takes the VS Code host's path — it says `ready`, its messages are recorded, and the test
// answers as the extension host would, with the protocol's messages.

const DIST = resolve('dist');

/** The page: the panel's stylesheets and bundle, as `panelHtml.ts` links them (the page's palette standing in for VS Code's theme). */
export function hostPageFile(): string {
  const href = (...path: string[]) => pathToFileURL(resolve(...path)).href;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<link rel="stylesheet" href="${href(DIST, 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${href('media', 'timeline.css')}">
<link rel="stylesheet" href="${href('media', 'timeline-page.css')}">
<title>timeline</title>
</head>
<body>
<script src="${href(DIST, 'webview', 'timeline.js')}"></script>
</body>
</html>
`;
  const file = join(scratchDir('probe-lens-host-page-'), 'panel.html');
  writeFileSync(file, html);
  return file;
}

export interface HostGlobals extends PageGlobals {
  /** What the webview posted, oldest first. */
  __posted: WebviewMessage[];
  acquireVsCodeApi(): unknown;
  postMessage(message: unknown, origin: string): void;
  addEventListener(type: 'message', listener: () => void, options: { once: boolean }): void;
}

/** A source as the extension's recordings say it (no live clock, nothing to reveal or export). */
export function recordingSource(title: string, over: Partial<TimelineSource> = {}): TimelineSource {
  return { kind: 'file', title, clock: { kind: 'virtual' }, live: false, rate: 1, replayable: false, capacity: 600_000, canReveal: false, canExport: false, canExplain: true, ...over };
}

/** A `load` of `events`, as `TimelinePanel` sends one. */
export function loadMessage(source: TimelineSource, events: readonly EngineEvent[], now: number, extra: { header?: RunHeader; sections?: readonly TimelineSection[] } = {}): HostMessage {
  return { type: 'load', protocol: TIMELINE_PROTOCOL_VERSION, source, events, dropped: [], now, ...extra };
}

/**
 * Opens the page in `browser` as a webview of VS Code would run it: returns the tab once the
 * bundle said `ready`, `send` (a host message in) and `posted` (what the webview said).
 */
export async function openHostPage(browser: Browser, viewport = { width: 1100, height: 640 }): Promise<{ tab: Page; errors: string[]; send(message: HostMessage): Promise<void>; posted(): Promise<WebviewMessage[]> }> {
  const tab = await browser.newPage({ viewport });
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.addInitScript(() => {
    const w = globalThis as unknown as HostGlobals;
    w.__posted = [];
    let state: unknown;
    w.acquireVsCodeApi = () => ({ postMessage: (message: WebviewMessage) => w.__posted.push(message), getState: () => state, setState: (s: unknown) => (state = s) });
  });
  await tab.goto(pathToFileURL(hostPageFile()).href);
  await tab.waitForFunction(() => (globalThis as unknown as HostGlobals).__posted.some((m) => m.type === 'ready'), undefined, { timeout: 10_000 });
  return {
    tab,
    errors,
    // Resolved once the message was handled: the app's listener was added first, so it has run when this one does.
    send: async (message) => {
      await tab.evaluate(
        (m) =>
          new Promise<void>((delivered) => {
            const w = globalThis as unknown as HostGlobals;
            w.addEventListener('message', () => delivered(), { once: true });
            w.postMessage(m, '*');
          }),
        message,
      );
    },
    posted: () => tab.evaluate(() => (globalThis as unknown as HostGlobals).__posted),
  };
}
