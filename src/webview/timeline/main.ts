/**
 * The timeline's browser entry (dist/webview/timeline.js): the VS Code panel and the CLI's HTML
 * page load this one script. It builds all its DOM inside `document.body`; the host's HTML only
 * links the stylesheets and the script.
 */
import { TimelineApp } from './app';
import { connectHost } from './host';
import type { TimelineTestHooks } from './testHooks';

declare global {
  interface Window {
    __probeLensTimeline?: TimelineTestHooks;
  }
}

function boot(): void {
  const app = new TimelineApp(connectHost());
  window.__probeLensTimeline = app.hooks();
  app.start();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot, { once: true });
else boot();
