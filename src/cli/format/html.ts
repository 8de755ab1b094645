import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEvent } from '../../core/engine/events';
import { escapeHtml } from '../../core/text/html';
import { runHeader } from '../../core/timeline/jsonl';
import { DEFAULT_TIMELINE_CAPACITY, TimelineStore } from '../../core/timeline/store';
import { type HostMessage, TIMELINE_PROTOCOL_VERSION, type TimelineClock } from '../../shared/protocol';
import type { OutputSink, SessionOutput } from './session';

/** The element the timeline bundle reads its `load` message from in page mode. */
export const PAGE_DATA_ELEMENT_ID = 'probe-lens-timeline-data';

type LoadMessage = Extract<HostMessage, { type: 'load' }>;

/** What a page inlines: the panel's own bundle and stylesheet, and the page's `--vscode-*` palette. */
export interface PageAssets {
  readonly script: string;
  readonly css: string;
}

export type PageAssetsRead = { readonly ok: true; readonly assets: PageAssets } | { readonly ok: false; readonly message: string };

/**
 * The files a page is made of, found from the CLI bundle's directory (`dist/`): the webview bundle
 * beside it, the stylesheets in `media/` next to `dist/`.
 */
export function pageAssetPaths(distDir: string): { readonly script: string; readonly css: readonly string[] } {
  return { script: join(distDir, 'webview', 'timeline.js'), css: [join(distDir, '..', 'media', 'timeline.css'), join(distDir, '..', 'media', 'timeline-page.css')] };
}

/**
 * Reads and checks what the page inlines. A missing or unsafe file is a value with a message (the
 * CLI's exit 2), never a page that opens blank.
 */
export function readPageAssets(distDir: string = __dirname): PageAssetsRead {
  const paths = pageAssetPaths(distDir);
  const read = (path: string): string | { missing: string } => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { missing: `${path} (${code === 'ENOENT' ? 'no such file' : (error as Error).message})` };
    }
  };
  const parts = [paths.script, ...paths.css].map(read);
  const missing = parts.flatMap((part) => (typeof part === 'string' ? [] : [part.missing]));
  if (missing.length > 0) {
    return { ok: false, message: `--format html needs the timeline's files beside the CLI, and cannot read ${missing.join(', ')}; in a checkout, \`node esbuild.config.mjs\` builds dist/` };
  }
  const [script, ...css] = parts as string[];
  return pageAssetsOf(script as string, css.join('\n'));
}

/**
 * The bundle and stylesheet as the page will hold them. The browser hashes an element's text after
 * its parser normalized line ends, so the text is normalized first; text that would end its element
 * early (`</script`, `</style`) or change how it is parsed (`<!--`, NUL) is refused, not patched.
 */
export function pageAssetsOf(script: string, css: string): PageAssetsRead {
  // The source map is a sibling file: a page on its own has nothing to point it at.
  const cleanScript = normalizeNewlines(script).replace(/\n\/\/# sourceMappingURL=[^\n]*\n?$/, '\n');
  const cleanCss = normalizeNewlines(css).replace(/\n\/\*# sourceMappingURL=[^\n]*\*\/\n?$/, '\n');
  const unsafe = (text: string, element: string) => new RegExp(`</${element}|<!--|\\u0000`, 'i').exec(text)?.[0];
  const inScript = unsafe(cleanScript, 'script');
  if (inScript !== undefined) return { ok: false, message: `the timeline bundle holds ${JSON.stringify(inScript)} and cannot be inlined in a page` };
  const inCss = unsafe(cleanCss, 'style');
  if (inCss !== undefined) return { ok: false, message: `the timeline stylesheet holds ${JSON.stringify(inCss)} and cannot be inlined in a page` };
  return { ok: true, assets: { script: cleanScript, css: cleanCss } };
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A CSP source for an inline element's exact text: `'sha256-…'`. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The page's policy: the one script and the one stylesheet it holds, by hash; images only as data
 * URLs; nothing from the network, no eval, no other inline code. `base-uri` and `form-action`
 * do not fall back to `default-src`, so they are closed by name.
 */
export function pageCsp(assets: PageAssets): string {
  return `default-src 'none'; script-src ${cspHash(assets.script)}; style-src ${cspHash(assets.css)}; img-src data:; base-uri 'none'; form-action 'none'`;
}

/**
 * JSON that can sit inside a `<script type="application/json">`: no `<`, `>` or `&` (nothing can
 * close the element or open a comment), and no U+2028/U+2029. These only ever occur inside JSON
 * strings, where a `\uXXXX` escape reads back as the same character.
 */
export function jsonForHtml(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}


export interface HtmlPageOptions {
  readonly assets: PageAssets;
  /** How the axis reads `t`: virtual seconds (simulate) or wall-clock time from t = 0 (run). */
  readonly clock: TimelineClock;
  /** The run's time when the page is written (`t`, seconds): open spans reach to here. */
  readonly now: () => number;
  /** What the page is of: `web.yaml · simulated 30m`. */
  readonly title: string;
  readonly capacity?: number;
  /** Told once, on stderr, when the store had to drop events. */
  readonly note?: (text: string) => void;
}

/**
 * `--format html`: one self-contained page with the panel's renderer. The events must all be known
 * before the page can be written, so they are kept in a `TimelineStore` (memory bounded by its cap;
 * what it drops, the page says) and the page is written by `finish()`.
 */
export function htmlOutput(sink: Pick<OutputSink, 'write'>, header: Record<string, unknown>, options: HtmlPageOptions): SessionOutput {
  const capacity = options.capacity ?? DEFAULT_TIMELINE_CAPACITY;
  const store = new TimelineStore(capacity);
  let lastT = 0;
  let finished = false;
  return {
    emit(event) {
      store.push(event);
      if (event.t > lastT) lastT = event.t;
    },
    finish() {
      if (finished) return;
      finished = true;
      const events = store.events();
      const dropped = store.dropped();
      if (dropped.length > 0) options.note?.(`the page holds the last ${store.size} of ${store.total} events: the busiest lanes dropped their oldest ones (the page names them)`);
      const load: LoadMessage = {
        type: 'load',
        protocol: TIMELINE_PROTOCOL_VERSION,
        source: { kind: 'page', title: options.title, clock: options.clock, live: false, rate: 1, replayable: true, capacity, canReveal: false, canExport: false },
        header: runHeader(header),
        events,
        dropped,
        now: Math.max(options.now(), lastT),
      };
      writePage(sink.write, load, options.assets, options.title);
    },
  };
}

const CHUNK_CHARS = 64 * 1024;

/**
 * Writes the page in pieces: the events go out in chunks as they are serialized, so a full store
 * never becomes one string of hundreds of MB. The data block holds `JSON.stringify(load)` with
 * `events` last (key order aside, the same object).
 */
export function writePage(write: (text: string) => void, load: LoadMessage, assets: PageAssets, title: string): void {
  const { events, ...rest } = load;
  const opening = jsonForHtml(JSON.stringify(rest));
  write(
    [
      '<!doctype html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="${pageCsp(assets)}">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<meta name="color-scheme" content="light dark">',
      `<title>${escapeHtml(`Probe Lens — ${title}`)}</title>`,
      `<style>${assets.css}</style>`,
      '</head>',
      '<body>',
      '<noscript>This timeline is drawn by JavaScript: open the page with scripts allowed.</noscript>',
      `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${opening.slice(0, -1)},"events":[`,
    ].join('\n'),
  );
  let chunk = '';
  events.forEach((event: EngineEvent, i) => {
    chunk += `${i === 0 ? '' : ','}${jsonForHtml(JSON.stringify(event))}`;
    if (chunk.length >= CHUNK_CHARS) {
      write(chunk);
      chunk = '';
    }
  });
  write(`${chunk}]}</script>\n<script>${assets.script}</script>\n</body>\n</html>\n`);
}
