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

export function closeTimelines(panels: TimelinePanels): void {
  for (const panel of panels.all) panel.dispose();
}
