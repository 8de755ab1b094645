// What the UI test's timeline sections do alike, as a user does it: open a recording with
// Probe Lens: Open Timeline from File… (the simple file dialog), point at an item of the webview
// until its tooltip says what is expected, click a moment and wait for its *why*.
import { basename } from 'node:path';
import { pagePoint, waitUntil } from './workbench.mjs';

/**
 * *Open Timeline from File…* with `path` typed into the simple file dialog. The dialog puts its
 * starting folder in the input once it has listed it: a path typed before that is replaced. So:
 * wait for it, type the path, and type it again if it went.
 */
export async function openTimelineFromFile(workbench, path) {
  await workbench.runCommand('Probe Lens: Open Timeline from File…');
  const input = workbench.quickInput.locator('input.input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await waitUntil(async () => (await input.inputValue()) !== '', 'the file dialog to show its folder');
  await waitUntil(
    async () => {
      if ((await input.inputValue()) !== path) await input.fill(path);
      const listed = await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: basename(path) }).count();
      return listed > 0 && (await input.inputValue()) === path;
    },
    `the file dialog to hold ${path}`,
  );
  await workbench.quickInput.getByRole('button', { name: 'Open Timeline' }).click();
  // The dialog sometimes still validates the path it was given: Enter accepts it then.
  if (!(await workbench.quickInput.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false))) {
    await input.press('Enter');
    await workbench.quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}

/**
 * Moves the mouse to the point `find()` gives (the webview's, from its test hooks; asked again
 * each try: rows may still be settling) until the tooltip matches `expected`; returns the tooltip.
 */
export async function hoverTooltip(page, timeline, find, expected, what) {
  let tip = '';
  await waitUntil(
    async () => {
      const at = await find();
      if (!at) return false;
      const point = await pagePoint(timeline, at);
      await page.mouse.move(point.x, point.y, { steps: 3 });
      await new Promise((done) => setTimeout(done, 100));
      tip = await timeline.evaluate(() => window.__probeLensTimeline.tooltip());
      return expected.test(tip);
    },
    () => `the tooltip of ${what} (it says ${JSON.stringify(tip)})`,
  );
  return tip;
}

/** Clicks `laneId` at `t` and waits for the host's answer in the details area: the why, as the test hooks say it. */
export async function clickForWhy(page, timeline, laneId, t, what) {
  const at = await timeline.evaluate(([lane, time]) => window.__probeLensTimeline.pointAt(lane, time), [laneId, t]);
  if (!at) throw new Error(`${laneId} at ${t} s is not in view`);
  const point = await pagePoint(timeline, at);
  await page.mouse.click(point.x, point.y);
  return waitUntil(async () => {
    const why = await timeline.evaluate(() => window.__probeLensTimeline.why());
    return why.shown && !why.pending && why;
  }, what);
}
