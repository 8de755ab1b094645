// Driving the Code 1.100 web workbench with Playwright, as a user would: the quick input (F1),
// editors, code lenses, hovers, the code action menu, Explorer panes and the status bar. Every
// helper waits on the DOM (with a timeout) rather than sleeping. Selectors: docs/e2e-recipe.md.

/** Code renders `&nbsp;` around the lens separators and in hovers; compare plain spaces. */
export function plain(text) {
  return text.replace(/\u00a0/g, ' ').replace(/[ \t]+/g, ' ').trim();
}

/** Polls `probe` (an async function returning a truthy value when done) until it is, or throws with `what` (a string, or a function giving one). */
export async function waitUntil(probe, what, timeout = 10_000, every = 100) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeout} ms waiting for ${typeof what === 'function' ? what() : what} (last seen: ${seen})`);
    }
    await new Promise((done) => setTimeout(done, every));
  }
}

export class Workbench {
  constructor(page) {
    this.page = page;
  }

  get quickInput() {
    return this.page.locator('.quick-input-widget');
  }

  /** Opens the quick input (F1) and types `text` into it: `>Command`, `:line:column`, or a file path. */
  async openQuickInput(text) {
    const input = this.quickInput.locator('input.input');
    // F1 pressed while a webview takes the focus (a panel just opened or clicked) is lost, or the
    // palette it opened closes again: press it again, as a user would.
    await waitUntil(
      async () => {
        if (!(await input.isVisible())) await this.page.keyboard.press('F1');
        return input.fill(text, { timeout: 2_000 }).then(() => true, () => false);
      },
      'the command palette',
      10_000,
      0,
    );
    return input;
  }

  /** The visible row of the quick input whose label is exactly `label` (codicons such as `$(file)` render as icons and have no text). */
  quickInputRow(label) {
    return this.quickInput.locator('.quick-input-list .monaco-list-row').filter({ has: this.page.locator('.label-name', { hasText: exact(label) }) });
  }

  /** Runs a command from the palette by its label (`Probe Lens: Simulate…`). */
  async runCommand(label) {
    await this.openQuickInput(`>${label}`);
    const row = this.quickInputRow(label).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await this.parkMouse();
    await this.quickInput.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {}); // a command may open its own quick pick
  }

  /**
   * Moves the mouse to the top left corner, where it hovers nothing, so that no tooltip opens
   * where a click left it (the quick input closes and leaves it over the editor's breadcrumbs).
   */
  async parkMouse() {
    await this.page.mouse.move(0, 0);
  }

  /**
   * Waits for a quick pick titled `title` (what `showQuickPick` was given), checks its rows and
   * picks the one labelled `label`. Returns every row's label, in order.
   */
  async pick(title, label) {
    await this.quickInput.locator('.quick-input-title', { hasText: exact(title) }).waitFor({ timeout: 15_000 });
    const row = this.quickInputRow(label).first();
    await row.waitFor({ timeout: 10_000 });
    const labels = (await this.quickInput.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts()).map(plain);
    await row.click();
    await this.parkMouse();
    return labels;
  }

  /** Opens a workspace file by its relative path through quick open; waits for its tab and editor. */
  async openFile(relativePath) {
    const name = relativePath.split('/').pop();
    await this.openQuickInput(relativePath);
    const row = this.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: name }).filter({ hasText: relativePath.split('/').slice(0, -1).join('/') }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await this.parkMouse();
    await this.page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 15_000 });
    await this.activeEditor.locator('.view-lines').waitFor({ timeout: 15_000 });
  }

  /** The editor of the active editor group. */
  get activeEditor() {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Moves the cursor with "Go to Line/Column" (1-based); the status bar confirms it. */
  async goTo(line, column) {
    const input = await this.openQuickInput(`:${line}:${column}`);
    await input.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
    await this.statusBarItem(`Ln ${line}, Col ${column}`).waitFor({ timeout: 10_000 });
  }

  /** The code lens lines of the active editor, top to bottom, each as its lenses' titles. */
  async codeLenses() {
    const decorations = this.activeEditor.locator('.codelens-decoration');
    const lines = await decorations.evaluateAll((nodes) =>
      // Lenses scrolled out of view stay in the DOM, hidden and without a position.
      nodes.filter((node) => getComputedStyle(node).visibility !== 'hidden').map((node) => ({
        top: node.getBoundingClientRect().top,
        // Each lens is an <a> or a <span> (a codicon is an empty <span> inside it); separators are <span>&nbsp;|&nbsp;</span>.
        titles: [...node.children].filter((child) => child.tagName === 'A' || (child.tagName === 'SPAN' && child.textContent.trim() !== '|')).map((child) => child.textContent),
      })),
    );
    return lines.sort((a, b) => a.top - b.top).map((line) => line.titles.map(plain).filter((title) => title !== ''));
  }

  /** Waits until the code lenses of the active editor, as `codeLenses()` gives them, satisfy `accept`; returns them. */
  async waitForCodeLenses(accept, what, timeout = 15_000) {
    let seen = [];
    await waitUntil(async () => accept((seen = await this.codeLenses())), () => `${what}; lenses: ${JSON.stringify(seen)}`, timeout);
    return seen;
  }

  /** Clicks the first occurrence of `text` in the active editor's visible lines (a token, e.g. a key), which moves the cursor there without scrolling. */
  async clickText(text) {
    await this.activeEditor.locator('.view-line span span', { hasText: exact(text) }).first().click();
    await this.parkMouse();
  }

  /**
   * Waits until the editor has stopped re-rendering its lenses (the provider fires again when the
   * extension re-reads the document, and each time Code replaces every lens widget): a reveal
   * that happens while lens lines come and go scrolls by a lens line more or less.
   */
  async codeLensesSettled(quietMs = 1_000, timeout = 10_000) {
    const ids = () => this.activeEditor.locator('.codelens-decoration').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('widgetid')).join(','));
    let last = await ids();
    let since = Date.now();
    await waitUntil(
      async () => {
        const now = await ids();
        if (now !== last) {
          last = now;
          since = Date.now();
        }
        return Date.now() - since >= quietMs;
      },
      `the code lenses to stay unchanged for ${quietMs} ms`,
      timeout,
    );
  }

  /** Lays the whole workbench out again (a window resize there and back), then waits two frames for it to paint. */
  async relayout() {
    const size = this.page.viewportSize();
    await this.page.setViewportSize({ width: size.width - 1, height: size.height });
    await this.page.setViewportSize(size);
    await this.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }

  /** The visible hover widget of the editor. */
  get hover() {
    return this.page.locator('.monaco-editor .monaco-hover:not(.hidden)').filter({ visible: true }).first();
  }

  /** The code action (quick fix) menu. */
  get actionWidget() {
    return this.page.locator('.action-widget').filter({ visible: true }).first();
  }

  /** A pane of the side bar (`Probes`, or the workspace folder's), expanded or collapsed. */
  async togglePane(title, expanded = true) {
    const pane = this.page.locator('.part.sidebar .pane').filter({ has: this.page.locator('.pane-header', { hasText: exact(title, 'i') }) }).first();
    const header = pane.locator('.pane-header').first();
    await header.waitFor({ timeout: 15_000 });
    const want = String(expanded);
    if ((await header.getAttribute('aria-expanded')) !== want) await header.click();
    await waitUntil(async () => (await header.getAttribute('aria-expanded')) === want, `the ${title} pane to be ${expanded ? 'expanded' : 'collapsed'}`);
    return pane;
  }

  /** Drags the sash between the side bar and the editors so that the side bar is `width` px wide. */
  async resizeSidebar(width) {
    await this.dragRightEdge(this.page.locator('.part.sidebar'), width, 'the side bar');
  }

  /** Drags the sash between the first two editor groups so that the first is `width` px wide. */
  async resizeFirstEditorGroup(width) {
    await this.dragRightEdge(this.page.locator('.part.editor .editor-group-container').first(), width, 'the first editor group');
  }

  /** Drags the sash on the right edge of `part` until it is `width` px wide. */
  async dragRightEdge(part, width, what) {
    const box = await part.boundingBox();
    if (!box) throw new Error(`no ${what}`);
    if (Math.abs(box.width - width) <= 1) return;
    const right = box.x + box.width;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(right, y);
    await this.page.mouse.down();
    await this.page.mouse.move(right + (width - box.width) / 2, y, { steps: 4 });
    await this.page.mouse.move(box.x + width, y, { steps: 4 });
    await this.page.mouse.up();
    await waitUntil(async () => Math.abs(((await part.boundingBox())?.width ?? 0) - width) <= 2, `${what} to be ${width} px wide`, 5_000);
  }

  /**
   * The part of the page right of the side bar (editors and panel), from the top of the editor
   * tabs down to `bottom` (default: just below the active editor's last line).
   */
  async editorAreaClip({ bottom } = {}) {
    const part = await this.page.locator('.part.editor').boundingBox();
    let end = bottom;
    if (end === undefined) {
      const lines = await this.activeEditor.locator('.view-line').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().bottom));
      end = Math.min(part.y + part.height, Math.max(...lines) + 16);
    }
    return { x: part.x, y: part.y, width: part.width, height: Math.round(end - part.y) };
  }

  /** A status bar entry whose text contains `text`. */
  statusBarItem(text) {
    return this.page.locator('.statusbar-item', { hasText: text }).first();
  }

  /** Dismisses every notification toast, so none covers a screenshot. */
  async clearNotifications() {
    const toasts = this.page.locator('.notifications-toasts .notification-toast');
    if ((await toasts.count()) === 0) return;
    await this.runCommand('Notifications: Clear All Notifications');
    await toasts.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => {});
  }

  /** Switches the colour theme as a user does (Preferences: Color Theme), by its label (`Dark Modern`). */
  async colorTheme(label) {
    // Not runCommand: the theme list opens in the same quick input, which never closes in between.
    const input = await this.openQuickInput('>Preferences: Color Theme');
    await this.quickInputRow('Preferences: Color Theme').first().click();
    await this.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Light Modern' }).first().waitFor({ timeout: 10_000 });
    await input.fill(label);
    await this.quickInputRow(label).first().waitFor({ timeout: 10_000 });
    await input.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The Problems / Output / Terminal panel, closed. */
  async closePanel() {
    const panel = this.page.locator('.part.panel');
    if (!(await panel.isVisible())) return;
    await this.runCommand('View: Hide Panel');
    await panel.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}

/**
 * The frame of a Probe Lens timeline webview: code-server nests each webview in two iframes
 * (`iframe.webview` → `#active-frame`); the one whose document has `#timeline-canvas` and the
 * test hooks (`window.__probeLensTimeline`). `accept(state)` picks among several panels.
 */
export async function timelineFrame(page, { accept = () => true, what = 'a timeline webview', timeout = 20_000 } = {}) {
  let seen = [];
  return waitUntil(
    async () => {
      seen = [];
      for (const frame of page.frames()) {
        const state = await frame
          .evaluate(() => (document.getElementById('timeline-canvas') && window.__probeLensTimeline ? window.__probeLensTimeline.state() : undefined))
          .catch(() => undefined);
        if (!state) continue;
        seen.push({ painted: state.painted, events: state.events, lanes: state.lanes.length, theme: state.theme });
        if (accept(state)) return frame;
      }
      return undefined;
    },
    () => `${what} (timeline frames seen: ${JSON.stringify(seen)})`,
    timeout,
    50,
  );
}

/** What the timeline in `frame` shows (`window.__probeLensTimeline.state()`). */
export function timelineState(frame) {
  return frame.evaluate(() => window.__probeLensTimeline.state());
}

/**
 * Where a point of a webview's page (CSS pixels, as `markAt` gives them) is on the workbench's
 * page, for `page.mouse`: the frame's element box is already relative to the top page, through
 * every enclosing iframe.
 */
export async function pagePoint(frame, point) {
  const element = await frame.frameElement();
  const box = await element.boundingBox();
  if (!box) throw new Error('the webview frame is not laid out');
  return { x: box.x + point.x, y: box.y + point.y };
}

/** A regular expression matching exactly `text`. */
export function exact(text, flags = '') {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, flags);
}
