import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../core/text/html';

/** A fresh nonce for a webview page's CSP: what its one script or its styles must carry (docs/design.md §5). */
export function webviewNonce(): string {
  return randomBytes(16).toString('base64');
}

/** What a webview page is made of: its policy, its title, what goes in its head, its body. */
export interface WebviewPage {
  /** Content-Security-Policy directives; `default-src 'none'` comes first whatever else is allowed. */
  readonly csp: readonly string[];
  readonly title: string;
  /** Markup for the head (stylesheets, a nonce'd style); already escaped by its maker. */
  readonly head: string;
  /** Markup for the body; already escaped by its maker. */
  readonly body: string;
}

/** The one page shell every Probe Lens webview uses, so no page can leave out its CSP. */
export function webviewPageHtml(page: WebviewPage): string {
  const csp = ["default-src 'none'", ...page.csp].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${page.head}
<title>${escapeHtml(page.title)}</title>
</head>
<body>
${page.body}
</body>
</html>
`;
}
