/**
 * What the timeline suites share: the panels (the test API's `timeline`), a panel's webview seen
 * to run and be loaded, and every panel closed after a test.
 */
import assert from 'node:assert/strict';
import type { SentMessage, TimelinePanel } from '../../src/extension/timeline/timelinePanel';
import type { TimelinePanels } from '../../src/extension/timeline/timelinePanels';
import { waitFor } from './harness';
import { activateProbeLens } from './workbench';

export async function timelinePanels(): Promise<TimelinePanels> {
  const api = await activateProbeLens();
  assert.ok(api.timeline, 'activate() returns `timeline`: the panels are wired in extension.ts');
  return api.timeline;
}

/** The webview really ran: its bundle loaded under the CSP and said `ready`, and the host answered with a `load`. */
export async function loaded(panel: TimelinePanel, what = 'the panel'): Promise<SentMessage> {
  await waitFor(() => panel.received.includes('ready'), 15_000, () => `${what}'s webview to say ready (received: ${panel.received.join(', ') || 'nothing'}; panel visible: ${panel.webviewPanel.visible}, column ${panel.webviewPanel.viewColumn})`);
  return waitFor(() => panel.isLoaded && panel.sent.find((m) => m.type === 'load'), 15_000, () => `${what} to be loaded (sent: ${panel.sent.map((m) => m.type).join(', ')})`);
}

/**
 * Resolves once closing the panel cannot leave its webview with a request in flight: its webview
 * has said ready (it says so after fetching all it will), or it has none (hidden). A webview closed
 * mid-request holds VS Code for the web's webview service worker for 30 s, and no webview of the
 * window loads meanwhile (the next tests' panels would time out). Never rejects: a panel that
 * does not load is the test's failure to report, not this.
 */
export async function settled(panel: TimelinePanel): Promise<void> {
  await waitFor(() => panel.isDisposed || !panel.webviewPanel.visible || panel.isLoaded, 10_000, 'the panel to load').catch(() => undefined);
}

/** Closes every panel, each once it has settled. */
export async function closeTimelines(panels: TimelinePanels): Promise<void> {
  await Promise.all(panels.all.map(settled));
  for (const panel of panels.all) panel.dispose();
}
