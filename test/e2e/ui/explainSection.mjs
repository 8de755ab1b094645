// The "Why" section of the UI test: a simulated session of probing/why.yaml (api's readiness
// probe names a port the container does not declare; web crashes 5 s after each start). Hovering
// a container's line, where its lens is, says why it is in its state, with the causes; so does
// its row's tooltip in the Probes view. The same as test/extension/suite/explain.vstest.ts, seen
// on the screen. Takes docs/images/why-hover.png.
import assert from 'node:assert/strict';
import { plain, waitUntil } from './workbench.mjs';

export const EXPLAIN_SECTION = 'Why';
const MANIFEST = 'probing/why.yaml';

export async function explainSection({ page, workbench, section, step, screenshot }) {
  await section(EXPLAIN_SECTION);

  await step('Probe Lens: Simulate… plays why.yaml at 60×', async () => {
    await workbench.closePanel();
    await workbench.openFile(MANIFEST);
    await workbench.runCommand('Probe Lens: Simulate…');
    await workbench.pick('Simulate why.yaml', 'why.scenario.yaml');
    await workbench.pick('Simulation speed', '60×');
    await workbench.quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
    // The status bar shows the session's headline and its virtual time.
    await workbench.statusBarItem('t+00:').waitFor({ timeout: 15_000 });
  });

  await step('hovering web\'s line says why it is in CrashLoopBackOff: its restarts, its exits, the back-off', async () => {
    // Let it crash a few times first (5 s a life, then 10 s, 20 s of back-off).
    await page.waitForTimeout(1_500);
    const name = workbench.activeEditor.locator('.view-line', { hasText: '- name: web' }).first().locator('span span', { hasText: 'web' }).last();
    let text = '';
    await waitUntil(
      async () => {
        await workbench.parkMouse();
        await name.hover();
        const hover = workbench.hover;
        await hover.locator('.hover-contents').first().waitFor({ timeout: 5_000 }).catch(() => {});
        text = plain(await hover.innerText().catch(() => ''));
        return text.includes('now waiting out back-off');
      },
      () => `a hover saying why web is backing off: ${JSON.stringify(text)}`,
      20_000,
      500,
    );
    assert.match(text, /^Why web is in CrashLoopBackOff\s+(Restarted (once|twice|\d+ times)|Stopped twice): each time its process exited by itself \(Error\) 5 s after it started; now waiting out back-off \(\d+ s, until t\+\d\d:\d\d:\d\d\)\./);
    assert.match(text, /Its process exited by itself .*\(exit-restarts, \d+ lines\)/);
    assert.match(text, /CrashLoopBackOff: the kubelet restarts a container that keeps ending only after a back-off/);
  });

  await step('screenshot docs/images/why-hover.png', async () => {
    await screenshot(workbench, 'why-hover.png', { keepMouse: true, clip: () => workbench.editorAreaClip() });
    await workbench.parkMouse();
    await page.keyboard.press('Escape');
  });

  await step('the Probes view, the simulation paused: api\'s row tooltip says why it is not Ready', async () => {
    // Paused, so that no row above it is redrawn (which closes a tooltip) while it is read.
    await workbench.runCommand('Probe Lens: Pause Simulation');
    const probes = await workbench.togglePane('Probes');
    const row = probes.locator('.monaco-list-row[aria-level="3"]', { hasText: 'api' }).first();
    const tooltip = page.locator('.workbench-hover').filter({ visible: true, hasText: 'Container api' }).first();
    // A hover that lands while the tree settles shows nothing: move away and hover again, as a user would.
    await waitUntil(
      async () => {
        await workbench.parkMouse();
        await row.hover();
        return tooltip.waitFor({ timeout: 4_000 }).then(() => true, () => false);
      },
      "api's row tooltip",
      20_000,
      0,
    );
    const text = plain(await tooltip.innerText());
    assert.match(text, /Why\s+Never probed: the readiness probe's named port metrics is not declared by this container \(prober error, discarded each period\)\./);
    await workbench.parkMouse();
  });

  await step('Probe Lens: Stop Probing ends it', async () => {
    await workbench.runCommand('Probe Lens: Stop Probing');
    await workbench.statusBarItem('t+00:').waitFor({ state: 'detached', timeout: 10_000 });
  });
}
