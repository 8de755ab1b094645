// The "Measured values" section of the UI test (issue 12 §2): a recording of recommend/api.yaml's
// app (made by `probe-lens simulate`, as a user would) is opened with Probe Lens: Open Timeline
// from File…; back in the manifest, Ctrl+. on the livenessProbe offers the measured values; taking
// it writes 2 s timeouts and a startupProbe of 8 × 10 s, and one Undo (Ctrl+Z) takes it all back.
// The same as test/extension/suite/recommend.vstest.ts, seen on the screen. Takes
// docs/images/recommend-action.png (the menu) and recommend-applied.png (the values written).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { PROJECT_ROOT } from '../lib.mjs';
import { openTimelineFromFile } from './timelineSteps.mjs';
import { plain, waitUntil } from './workbench.mjs';

export const RECOMMEND_SECTION = 'Measured values';
const MANIFEST = 'recommend/api.yaml';
const RECORDING = 'recommend/api-1h.jsonl';
const ACTION = 'Apply measured probe values to api: liveness timeoutSeconds 1 → 2, readiness timeoutSeconds 1 → 2, add a startupProbe (8 × 10 s)';

export async function recommendSection({ page, workbench, folder, section, step, screenshot }) {
  await section(RECOMMEND_SECTION);
  /** The editor's lines as shown, top to bottom: the DOM keeps recycled line nodes in no order. */
  const shownText = async () => {
    const lines = await workbench.activeEditor.locator('.view-line').evaluateAll((nodes) => nodes.map((node) => ({ top: parseFloat(node.style.top), text: node.textContent })));
    return plain(lines.sort((a, b) => a.top - b.top).map((line) => line.text).join(' ')).replace(/\s+/g, ' ');
  };

  await step('probe-lens simulate records an hour of the app; Open Timeline from File… opens it', async () => {
    const jsonl = execFileSync(process.execPath, [join(PROJECT_ROOT, 'dist/cli.js'), 'simulate', MANIFEST, '--scenario', 'recommend/api.scenario.yaml', '--for', '1h', '--format', 'jsonl'], { cwd: folder, encoding: 'utf8' });
    execFileSync('sh', ['-c', `cat > ${JSON.stringify(join(folder, RECORDING))}`], { input: jsonl });
    await workbench.runCommand('View: Close All Editors');
    await openTimelineFromFile(workbench, join(folder, RECORDING));
    await page.locator('.tab', { hasText: `Timeline · ${basename(RECORDING)}` }).waitFor({ timeout: 20_000 });
  });

  await step(`Ctrl+. on the livenessProbe of ${MANIFEST} offers the measured values`, async () => {
    // From the Explorer: the timeline's webview has the keyboard, and quick open would not get F1.
    const row = (name) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    // An earlier section may have left the folder's pane collapsed under an open Probes view.
    await workbench.togglePane('Probes', false);
    await workbench.togglePane('workspace');
    await row('recommend').click();
    await row('api.yaml').click();
    await page.locator('.tab.active', { hasText: 'api.yaml' }).waitFor({ timeout: 15_000 });
    await workbench.activeEditor.locator('.view-lines').waitFor({ timeout: 15_000 });
    await workbench.activeEditor.click({ position: { x: 200, y: 10 } });
    // Line 24: `          livenessProbe:`.
    await workbench.goTo(24, 14);
    const menu = workbench.actionWidget;
    await waitUntil(
      async () => {
        await page.keyboard.press('Control+.');
        const found = await menu.locator('.monaco-list-row', { hasText: ACTION }).waitFor({ timeout: 3_000 }).then(() => true, () => false);
        if (!found) await page.keyboard.press('Escape');
        return found;
      },
      `"${ACTION}" in the quick-fix menu`,
      20_000,
      500,
    );
    const items = (await menu.locator('.monaco-list-row.action').allInnerTexts()).map(plain);
    assert.ok(items.includes(ACTION), JSON.stringify(items));
  });

  await step('screenshot docs/images/recommend-action.png', async () => {
    await screenshot(workbench, 'recommend-action.png', { clip: async () => workbench.editorAreaClip({ bottom: (await page.locator('.part.statusbar').boundingBox()).y }) });
  });

  await step('taking it writes the values; one Ctrl+Z takes them all back', async () => {
    await workbench.actionWidget.locator('.monaco-list-row', { hasText: ACTION }).click();
    await waitUntil(async () => (await shownText()).includes('startupProbe:'), 'the startupProbe in the text');
    await screenshot(workbench, 'recommend-applied.png', { clip: async () => workbench.editorAreaClip({ bottom: (await page.locator('.part.statusbar').boundingBox()).y }) });
    const text = await shownText();
    assert.match(text, /periodSeconds: 5 timeoutSeconds: 2 livenessProbe:/);
    assert.match(text, /periodSeconds: 10 timeoutSeconds: 2 startupProbe: httpGet: path: \/healthz port: http failureThreshold: 8 periodSeconds: 10 timeoutSeconds: 2/);
    await workbench.activeEditor.click({ position: { x: 200, y: 10 } });
    await page.keyboard.press('Control+Z');
    // Back to the saved text: the tab is no longer dirty, and none of the values is left.
    await waitUntil(async () => (await page.locator('.tab.active.dirty').count()) === 0, 'one undo to restore the text');
    // Keys, not words: the fixture's own comment (line 3) says "startupProbe of 8 × 10 s", and
    // whether line 3 is in view after the undo depends on where the editor scrolled (a busy
    // clean run had it in view, and failed here although the undo had worked).
    const restored = await shownText();
    assert.ok(!restored.includes('timeoutSeconds:') && !restored.includes('startupProbe:'), restored);
    await workbench.runCommand('File: Revert File');
  });
}
