import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { EngineEvent } from '../../src/core/engine/events';
import { cspHash, htmlOutput, jsonForHtml, PAGE_DATA_ELEMENT_ID, type PageAssets, pageAssetsOf, readPageAssets, writePage } from '../../src/cli/format/html';
import type { HostMessage } from '../../src/shared/protocol';
import type { TimelineHookState, TimelineTestHooks } from '../../src/webview/timeline/testHooks';
import { CLI, runCli } from '../helpers/cli';
import { scratchDir } from '../helpers/scratch';

// `probe-lens simulate|run … --format html`: one self-contained page, the panel's renderer, the
// events inlined as data under a strict CSP (issue 9).

type LoadMessage = Extract<HostMessage, { type: 'load' }>;

function tempDir(): string {
  return scratchDir('probe-lens-html-');
}

/** Text that would end the data block, start a script, or run a handler if it were ever read as markup. */
const HOSTILE = '</script><script>window.__pwned=1</script><img src=x onerror=window.__pwned=2><!--';

const POD = `apiVersion: v1
kind: Pod
metadata: {name: shop}
spec:
  containers:
    - name: web
      image: web
      ports: [{name: http, containerPort: 8080}]
      startupProbe: {httpGet: {path: /started, port: http}, periodSeconds: 5, failureThreshold: 6}
      readinessProbe: {httpGet: {path: ${JSON.stringify(`/ready?${HOSTILE}`)}, port: http}, periodSeconds: 5}
      livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}
    - name: worker
      image: worker
      livenessProbe: {exec: {command: [sh, -c, ${JSON.stringify(`echo '${HOSTILE}'`)}]}, periodSeconds: 15}
`;

/** Ready at 20 s, hung from 120 s: readiness fails, liveness kills, the container restarts under back-off. */
const SCENARIO = `containers:
  web:
    readyAfter: 20
    failAfter: 120
`;

function simulation(): { manifest: string; scenario: string } {
  const dir = tempDir();
  // A file name that is markup too: it is in the page's title and its header.
  const manifest = join(dir, 'shop<img src=x onerror=window.__pwned=3>.yaml');
  const scenario = join(dir, 'hang.yaml');
  writeFileSync(manifest, POD);
  writeFileSync(scenario, SCENARIO);
  return { manifest, scenario };
}

/** The `load` message a page holds, read back as the webview reads it. */
function pageData(page: string): LoadMessage {
  const match = new RegExp(`<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">([^]*?)</script>`).exec(page);
  assert.ok(match, 'the page has its data block');
  return JSON.parse(match[1] as string) as LoadMessage;
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

// ---- node only: escaping, hashing, the page's structure ----

test('jsonForHtml: nothing that can close the element or be read as markup, and the same value read back', () => {
  const value = { text: `${HOSTILE} & &amp; <!-- --> ]]> \u2028\u2029 "quoted" \\ \u0000 \ud800 é 🙂`, nested: [HOSTILE, { '</script>': '<b>' }] };
  const escaped = jsonForHtml(JSON.stringify(value));
  assert.doesNotMatch(escaped, /[<>&\u2028\u2029]/);
  assert.deepEqual(JSON.parse(escaped), value);
  assert.equal(jsonForHtml('"<>&\u2028\u2029"'), '"\\u003c\\u003e\\u0026\\u2028\\u2029"');
});

test('cspHash: the base64 SHA-256 of the exact text, as a CSP source', () => {
  assert.equal(cspHash(''), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  // The UTF-8 bytes are hashed, as the browser hashes them (`printf 'é' | openssl dgst -sha256 -binary | base64`).
  assert.equal(cspHash('é'), "'sha256-SplVfkAzw1Od4utlRyAXytX5VX96BiWgnxw/biumnEw='");
});

test('pageAssetsOf: line ends normalized (the browser hashes parsed text), source map comment dropped, unsafe text refused', () => {
  const ok = pageAssetsOf('a();\r\nb();\r\n//# sourceMappingURL=timeline.js.map\n', 'p {}\r\n');
  assert.ok(ok.ok);
  assert.equal(ok.assets.script, 'a();\nb();\n');
  assert.equal(ok.assets.css, 'p {}\n');
  for (const [script, css, what] of [
    ['x = "</script>"', '', '"</script"'],
    ['x = "</SCRIPT "', '', '"</SCRIPT"'],
    ['x = "<!--"', '', '"<!--"'],
    ['', 'p { content: "</style>" }', '"</style"'],
  ] as const) {
    const refused = pageAssetsOf(script, css);
    assert.equal(refused.ok, false, `${script}${css}`);
    assert.ok(!refused.ok && refused.message.includes(what), !refused.ok ? refused.message : '');
  }
});

test('readPageAssets: missing files are named, with how to build them', () => {
  const read = readPageAssets(join(tempDir(), 'dist'));
  assert.equal(read.ok, false);
  assert.match(!read.ok ? read.message : '', /--format html needs .*webview\/timeline\.js.*media\/timeline\.css.*media\/timeline-page\.css/);
});

const FAKE_ASSETS: PageAssets = { script: 'window.__ran = true;\n', css: 'body { margin: 0 }\n' };

function fakeLoad(events: EngineEvent[]): LoadMessage {
  return {
    type: 'load',
    protocol: 1,
    source: { kind: 'page', title: 'x', clock: { kind: 'virtual' }, live: false, rate: 1, replayable: true, capacity: 10, canReveal: false, canExport: false },
    events,
    dropped: [],
    now: 3,
  };
}

test('writePage: doctype, charset, then a CSP of exactly the two hashes, data URLs for images, and nothing else', () => {
  let page = '';
  writePage((text) => (page += text), fakeLoad([]), FAKE_ASSETS, `a </title><script>alert(1)</script>`);
  assert.match(page, /^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
  const csp = /content="([^"]*)"/.exec(page)?.[1] ?? '';
  const directives = csp.split(';').map((d) => d.trim());
  assert.deepEqual(directives, [`default-src 'none'`, `script-src ${cspHash(FAKE_ASSETS.script)}`, `style-src ${cspHash(FAKE_ASSETS.css)}`, 'img-src data:', `base-uri 'none'`, `form-action 'none'`]);
  assert.doesNotMatch(csp, /unsafe|https?:|\*|nonce/);
  // The hashes are of exactly what the elements hold.
  assert.equal(/<style>([^]*?)<\/style>/.exec(page)?.[1], FAKE_ASSETS.css);
  const scripts = [...page.matchAll(/<script([^>]*)>([^]*?)<\/script>/g)];
  assert.deepEqual(
    scripts.map((m) => m[1]),
    [` type="application/json" id="${PAGE_DATA_ELEMENT_ID}"`, ''],
  );
  assert.equal(scripts[1]?.[2], FAKE_ASSETS.script);
  assert.match(page, /<title>Probe Lens — a &#60;\/title&#62;&#60;script&#62;alert\(1\)&#60;\/script&#62;<\/title>/);
  assert.ok(page.endsWith('</body>\n</html>\n'));
});

test('writePage: hostile event text stays inside the data block and reads back the same', () => {
  const events: EngineEvent[] = [
    { type: 'event', t: 1, pod: 'p', container: 'c', reason: 'Unhealthy', message: `Readiness probe failed: ${HOSTILE}`, eventType: 'Warning', probe: 'readiness' },
    { type: 'attempt', t: 1, pod: 'p', container: 'c', probe: 'readiness', containerId: 'x', outcome: 'failure', output: `${HOSTILE}\u2028</SCRIPT>`, durationMs: 1 },
  ];
  let page = '';
  const chunks: string[] = [];
  writePage(
    (text) => {
      chunks.push(text);
      page += text;
    },
    fakeLoad(events),
    FAKE_ASSETS,
    'x',
  );
  assert.equal((page.match(/<\/script/gi) ?? []).length, 2, 'two script elements, each closed once');
  assert.equal((page.match(/<script/gi) ?? []).length, 2);
  assert.doesNotMatch(page, /<img|<!--/i);
  assert.deepEqual(pageData(page), fakeLoad(events));
});

test('htmlOutput: events kept in a bounded store, what it dropped is in the page and said once', () => {
  let page = '';
  const notes: string[] = [];
  const output = htmlOutput({ write: (text) => (page += text) }, { mode: 'simulate', file: 'a.yaml' }, { assets: FAKE_ASSETS, clock: { kind: 'virtual' }, now: () => 50, title: 'a.yaml', capacity: 5, note: (n) => notes.push(n) });
  for (let t = 0; t < 12; t++) output.emit({ type: 'attempt', t, pod: 'p', container: 'c', probe: 'liveness', containerId: 'x', outcome: 'success', output: '', durationMs: 1 });
  output.emit({ type: 'pod', t: 12, pod: 'p', ready: true });
  assert.equal(page, '', 'nothing is written before the end');
  output.finish();
  output.finish();
  const load = pageData(page);
  assert.equal(load.events.length, 5);
  assert.deepEqual(load.dropped, [{ lane: 'probe:p/c/liveness', count: 8, throughT: 7 }]);
  assert.deepEqual(load.header, { type: 'run', schemaVersion: 1, t: 0, mode: 'simulate', file: 'a.yaml' });
  assert.equal(load.now, 50);
  assert.deepEqual(load.source, { kind: 'page', title: 'a.yaml', clock: { kind: 'virtual' }, live: false, rate: 1, replayable: true, capacity: 5, canReveal: false, canExport: false });
  assert.equal(notes.length, 1);
  assert.match(notes[0] ?? '', /last 5 of 13 events/);
  assert.equal((page.match(/<!doctype html>/g) ?? []).length, 1, 'finish() writes one page');
});

/** `var(--vscode-…)` names a stylesheet uses. */
function variablesUsed(css: string): Set<string> {
  return new Set([...css.matchAll(/var\(\s*(--vscode-[\w-]+)/g)].map((m) => m[1] as string));
}

/** Custom properties a rule block defines, by the block's selector or media query. */
function blockDefinitions(css: string, opening: RegExp): Set<string> {
  const start = opening.exec(css);
  assert.ok(start, `a block ${opening}`);
  let depth = 0;
  let end = start.index;
  for (let i = start.index; i < css.length; i++) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) {
      end = i;
      break;
    }
  }
  const body = css.slice(start.index, end);
  return new Set([...body.matchAll(/(--vscode-[\w-]+)\s*:/g)].map((m) => m[1] as string));
}

test('timeline-page.css defines every --vscode-* variable the panel stylesheet uses: light and dark (light-dark()), forced colours', () => {
  const panel = readFileSync('media/timeline.css', 'utf8');
  const pageCss = readFileSync('media/timeline-page.css', 'utf8');
  const used = variablesUsed(panel);
  assert.ok(used.size > 0, 'timeline.css draws with --vscode-* colours');
  assert.match(pageCss, /^:root\s*\{\s*color-scheme: light dark;/m, 'light-dark() follows the reader\'s scheme');
  const root = blockDefinitions(pageCss, /^:root\s*\{/m);
  const forced = blockDefinitions(pageCss, /@media \(forced-colors: active\)\s*\{/);
  const fonts = (name: string) => /font/.test(name);
  for (const name of [...used, ...variablesUsed(pageCss)]) {
    assert.ok(root.has(name), `${name} is defined`);
    if (!fonts(name)) assert.ok(forced.has(name), `${name} is defined for forced colours`);
  }
});

// ---- the CLI ----

test('simulate --format html: one page on stdout, nothing on stderr, the same events as --format jsonl (same seed)', () => {
  const { manifest, scenario } = simulation();
  const args = ['simulate', manifest, '--scenario', scenario, '--for', '10m', '--seed', '7'];
  const html = runCli([...args, '--format', 'html']);
  assert.equal(html.code, 0, html.stderr);
  assert.equal(html.stderr, '');
  assert.match(html.stdout, /^<!doctype html>\n/);
  const jsonl = runCli([...args, '--format', 'jsonl']);
  const [header, ...events] = jsonLines(jsonl.stdout);
  const load = pageData(html.stdout);
  assert.deepEqual(load.header, header);
  assert.deepEqual(load.events, events);
  assert.deepEqual(load.dropped, []);
  assert.equal(load.now, 600);
  assert.equal(load.source.kind, 'page');
  assert.deepEqual(load.source.clock, { kind: 'virtual' });
  assert.ok(events.some((e) => e.type === 'event' && e.reason === 'Killing'), 'the scenario kills the container');
  assert.ok(events.some((e) => e.type === 'attempt' && String(e.output).includes(HOSTILE)), 'hostile text is in the events');
  // Hostile text from the manifest, its file name included, is data: no markup anywhere but the page's own.
  assert.equal((html.stdout.match(/<script/gi) ?? []).length, 2);
  assert.equal((html.stdout.match(/<\/script/gi) ?? []).length, 2);
  assert.doesNotMatch(html.stdout.slice(0, html.stdout.lastIndexOf('<script>')), /<img/i);
  assert.match(html.stdout, /<title>Probe Lens — shop&#60;img src=x onerror=window.__pwned=3&#62;.yaml · simulated 10m · hang.yaml<\/title>/);
});

test('--format html: bad usage is exit 2 on stderr; a CLI without the page files says which, and writes nothing', () => {
  const { manifest } = simulation();
  const bad = runCli(['simulate', manifest, '--format', 'htm']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /--format must be text, jsonl or html, not "htm"/);
  const badRun = runCli(['run', manifest, '--format', 'pdf']);
  assert.equal(badRun.code, 2);
  assert.match(badRun.stderr, /--format must be text, jsonl or html, not "pdf"/);

  // The CLI bundle alone, without dist/webview/ and media/ beside it.
  const lonely = join(tempDir(), 'dist');
  mkdirSync(lonely);
  copyFileSync(CLI, join(lonely, 'cli.js'));
  for (const args of [['simulate', manifest], ['run', manifest, '--for', '1s']]) {
    const result = spawnSync(process.execPath, [join(lonely, 'cli.js'), ...args, '--format', 'html'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
    assert.equal(result.status, 2, args[0]);
    assert.equal(result.stdout, '', args[0]);
    assert.match(result.stderr, /--format html needs the timeline's files.*webview\/timeline\.js \(no such file\).*media\/timeline\.css \(no such file\)/, args[0]);
  }
});

// ---- the page in headless Chromium, with no network ----

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** As test/e2e/lib.mjs: without these Chromium reaches for the network at start-up. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function chromiumAvailable(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What the page's globals look like to the test (the test is type-checked without the DOM library). */
interface PageWindow {
  __probeLensTimeline?: TimelineTestHooks;
  __pwned?: unknown;
  __inlineRan?: unknown;
  __violations: { directive: string; sample: string }[];
  document: {
    getElementById(id: string): { textContent: string | null } | null;
    querySelectorAll(selector: string): { length: number };
    createElement(tag: string): { textContent: string };
    head: { append(node: unknown): void };
    body: { append(node: unknown): void };
  };
  getComputedStyle(element: unknown): { outlineWidth: string };
}

/** What the JSONL of the same run says the panel must show: lanes in drawing order, attempts and markers per probe lane. */
function expectedView(events: readonly Record<string, unknown>[]) {
  const pods: string[] = [];
  const containers = new Map<string, string[]>();
  const probes = new Map<string, string[]>();
  const attempts: Record<string, Record<string, number>> = {};
  const markers: Record<string, string[]> = {};
  const add = <T>(list: T[], value: T) => (list.includes(value) ? undefined : list.push(value));
  for (const e of events) {
    const pod = String(e.pod);
    add(pods, pod);
    if (typeof e.container !== 'string') continue;
    const container = `${pod}/${e.container}`;
    if (!containers.has(pod)) containers.set(pod, []);
    add(containers.get(pod) as string[], container);
    if (!probes.has(container)) probes.set(container, []);
    const lane = `probe:${container}/${String(e.probe)}`;
    if (e.type === 'worker') add(probes.get(container) as string[], lane);
    if (e.type === 'attempt') {
      const outcome = e.error !== undefined ? 'error' : String(e.outcome);
      attempts[lane] ??= {};
      (attempts[lane] as Record<string, number>)[outcome] = ((attempts[lane] as Record<string, number>)[outcome] ?? 0) + 1;
    }
    if (e.type === 'event' && e.probe !== undefined && e.reason !== 'Killing') (markers[lane] ??= []).push(String(e.reason));
  }
  const lanes = pods.flatMap((pod) => [`pod:${pod}`, ...(containers.get(pod) ?? []).flatMap((c) => [`container:${c}`, ...(probes.get(c) ?? [])])]);
  return { lanes, attempts, markers };
}

function nonZero(counts: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

test('the page in headless Chromium, offline: it renders the run, its CSP refuses inline code, hostile text stays text', { skip: chromiumAvailable() ? false : `Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH): the page was not opened in a browser`, timeout: 60_000 }, async () => {
  const { manifest, scenario } = simulation();
  const args = ['simulate', manifest, '--scenario', scenario, '--for', '10m', '--seed', '7'];
  const html = runCli([...args, '--format', 'html']);
  assert.equal(html.code, 0, html.stderr);
  const expected = expectedView(jsonLines(runCli([...args, '--format', 'jsonl']).stdout).slice(1));
  const file = join(tempDir(), 'timeline.html');
  writeFileSync(file, html.stdout);
  const url = pathToFileURL(resolve(file)).href;

  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const refused: string[] = [];
    await page.route('**/*', (route) => {
      if (route.request().url() === url) return route.continue();
      refused.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Before any of the page's code: every CSP violation is recorded (init scripts are not subject to the page's CSP).
    await page.addInitScript(() => {
      const w = globalThis as unknown as PageWindow & { addEventListener(type: string, listener: (e: { violatedDirective: string; sample: string }) => void): void };
      w.__violations = [];
      w.addEventListener('securitypolicyviolation', (e) => w.__violations.push({ directive: e.violatedDirective, sample: e.sample }));
    });
    await page.goto(url);
    await page.waitForFunction(() => ((globalThis as unknown as PageWindow).__probeLensTimeline?.state().painted ?? 0) > 0, undefined, { timeout: 10_000 });

    const state = await page.evaluate(() => (globalThis as unknown as PageWindow).__probeLensTimeline?.state() as TimelineHookState);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      state.lanes.map((lane) => lane.id),
      expected.lanes,
    );
    for (const [lane, counts] of Object.entries(expected.attempts)) assert.deepEqual(nonZero(state.attempts[lane] ?? {}), counts, lane);
    assert.deepEqual(Object.keys(state.attempts).sort(), Object.keys(expected.attempts).sort());
    for (const [lane, reasons] of Object.entries(expected.markers)) assert.deepEqual(state.markers[lane], reasons, lane);
    assert.equal(state.live, false);
    assert.equal(state.dropped, 0);
    assert.equal(state.note, '');
    assert.ok(state.containers['container:shop/web']?.kills.length, 'the liveness kill is marked');

    const loaded = await page.evaluate(() => {
      const w = globalThis as unknown as PageWindow;
      return {
        violations: w.__violations.slice(),
        pwned: w.__pwned,
        images: w.document.querySelectorAll('img').length,
        scripts: w.document.querySelectorAll('script').length,
        data: w.document.getElementById('probe-lens-timeline-data')?.textContent ?? '',
      };
    });
    // The page breaks none of its own rules: no inline style attribute, no eval, nothing fetched.
    assert.deepEqual(loaded.violations, []);
    assert.equal(loaded.pwned, undefined);
    assert.equal(loaded.images, 0, 'no element was made from event text');
    assert.equal(loaded.scripts, 2);
    const data = JSON.parse(loaded.data) as LoadMessage;
    const worker = data.events.find((e) => e.type === 'worker' && e.container === 'worker');
    assert.equal(worker?.type === 'worker' ? worker.handler : undefined, `exec sh -c echo '${HOSTILE}'`);

    // The tooltip of a failed readiness attempt shows the kubelet's words, markup and all, as text.
    const failing = data.events.find((e) => e.type === 'attempt' && e.probe === 'readiness' && e.output.includes(HOSTILE));
    assert.ok(failing);
    const at = await page.evaluate((t) => (globalThis as unknown as PageWindow).__probeLensTimeline?.markAt('probe:shop/web/readiness', t), failing.t);
    assert.ok(at, 'the failed attempt is on screen');
    await page.mouse.move(at.x, at.y);
    await page.waitForFunction(() => ((globalThis as unknown as PageWindow).__probeLensTimeline?.tooltip() ?? '') !== '', undefined, { timeout: 5_000 });
    const tooltip = await page.evaluate(() => (globalThis as unknown as PageWindow).__probeLensTimeline?.tooltip() ?? '');
    assert.ok(tooltip.includes(HOSTILE), tooltip);

    // The CSP refuses inline script and inline style added after the fact.
    const injected = await page.evaluate(async () => {
      const w = globalThis as unknown as PageWindow;
      const before = w.__violations.length;
      const script = w.document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      w.document.body.append(script);
      const style = w.document.createElement('style');
      style.textContent = 'body { outline: 7px solid red }';
      w.document.head.append(style);
      await new Promise((done) => setTimeout(done, 100));
      return { ran: w.__inlineRan, outline: w.getComputedStyle(w.document.body as unknown).outlineWidth, violations: w.__violations.slice(before).map((v) => v.directive) };
    });
    assert.equal(injected.ran, undefined, 'inline script did not run');
    assert.notEqual(injected.outline, '7px', 'inline style did not apply');
    assert.deepEqual(injected.violations.sort(), ['script-src-elem', 'style-src-elem']);
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageWindow).__pwned), undefined);

    assert.deepEqual(refused, [], 'nothing was fetched beyond the page');
    assert.deepEqual(requests, [url]);
  } finally {
    await browser.close();
  }
});
