/**
 * Where the timeline runs: in a VS Code webview (messages and state through `acquireVsCodeApi()`)
 * or on the CLI's self-contained HTML page (the `load` message inlined as JSON data, nothing to
 * post to, state kept in memory). The rest of the timeline sees only this interface.
 */
import { type HostMessage, isHostMessage, TIMELINE_PROTOCOL_VERSION, type WebviewMessage } from '../../shared/protocol';

/** The id of the `<script type="application/json">` the HTML page inlines its `load` message in. */
export const PAGE_DATA_ID = 'probe-lens-timeline-data';

export interface TimelineHost {
  readonly kind: 'vscode' | 'page';
  post(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
  /** Starts delivering host messages to `receive` (in VS Code: after telling the host it is ready). */
  start(receive: (message: HostMessage) => void): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  // Defined by VS Code in a webview, and nowhere else.
  var acquireVsCodeApi: (() => VsCodeApi) | undefined;
}

class VsCodeHost implements TimelineHost {
  readonly kind = 'vscode';

  constructor(private readonly api: VsCodeApi) {}

  post(message: WebviewMessage): void {
    this.api.postMessage(message);
  }

  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  start(receive: (message: HostMessage) => void): void {
    window.addEventListener('message', (event: MessageEvent) => {
      // Only what the host sends, in this protocol version: anything else is ignored.
      if (isHostMessage(event.data)) receive(event.data);
    });
    // `ready` once the page has fetched all it ever will, so that a panel closed after it has no
    // request in flight: in VS Code for the web (code-server), the webview service worker then
    // waits 30 s for an answer the closed webview never sends, and no webview of the window
    // loads until it gives up (pre/service-worker.js: resolveTimeout; its next version waits).
    void fontsLoaded().then(() => this.post({ type: 'ready', protocol: TIMELINE_PROTOCOL_VERSION }));
  }
}

/** The most `ready` waits for the fonts; without them the page still works, in fallback fonts. */
const FONT_WAIT_MS = 3_000;

/**
 * The stylesheets' fonts (the codicons), loaded. A font is fetched only when text first needs
 * it, after the script has run; `load()` fetches it now.
 */
function fontsLoaded(): Promise<unknown> {
  const loads: Promise<unknown>[] = [];
  document.fonts.forEach((face) => loads.push(face.load().catch(() => undefined)));
  return Promise.race([Promise.all(loads), new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
}

class PageHost implements TimelineHost {
  readonly kind = 'page';
  private state: unknown;

  post(): void {
    // A static page has no host: nothing to reveal in, nothing to export to.
  }

  getState(): unknown {
    return this.state;
  }

  setState(state: unknown): void {
    this.state = state;
  }

  start(receive: (message: HostMessage) => void): void {
    const element = document.getElementById(PAGE_DATA_ID);
    const failed = (message: string) => receive({ type: 'failed', protocol: TIMELINE_PROTOCOL_VERSION, message });
    if (!element) return failed(`the page holds no timeline data (no element #${PAGE_DATA_ID})`);
    let data: unknown;
    try {
      // Data, never script: the page's CSP runs no inline script, and JSON.parse runs nothing.
      data = JSON.parse(element.textContent ?? '');
    } catch (error) {
      return failed(`the page's timeline data is not JSON (${(error as Error).message})`);
    }
    if (!isHostMessage(data) || data.type !== 'load') return failed(`the page's timeline data is not a load message of protocol ${TIMELINE_PROTOCOL_VERSION}`);
    receive(data);
  }
}

/** VS Code's when `acquireVsCodeApi` exists (it may be called only once), else the page's. */
export function connectHost(): TimelineHost {
  const acquire = globalThis.acquireVsCodeApi;
  return typeof acquire === 'function' ? new VsCodeHost(acquire()) : new PageHost();
}
