import * as vscode from 'vscode';
import { escapeHtml } from '../../core/text/html';
import { webviewNonce, webviewPageHtml } from '../base/webviewPage';

/** The folders a timeline webview may load from (design §5): the bundles and the styles, nothing else. */
export function timelineResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/**
 * The webview's options. Not `retainContextWhenHidden`: a hidden panel costs nothing, and the
 * webview restores its zoom, filters and follow from `getState` when shown again (the host sends
 * `load` again after its `ready`).
 */
export function timelineWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, retainContextWhenHidden: false, enableFindWidget: false, localResourceRoots: timelineResourceRoots(extensionUri) };
}

/**
 * The panel's page: a shell. The bundle (dist/webview/timeline.js) builds its DOM itself; the
 * page brings the CSP, the styles and the one script, allowed by its nonce — no inline script or
 * style, no eval, nothing from the network.
 */
export function timelineHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = webviewNonce();
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  return webviewPageHtml({
    csp: [`script-src 'nonce-${nonce}'`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource} data:`],
    title,
    head: [asset('dist', 'codicons', 'codicon.css'), asset('media', 'timeline.css')].map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n'),
    body: `<script nonce="${escapeHtml(nonce)}" src="${escapeHtml(asset('dist', 'webview', 'timeline.js'))}"></script>`,
  });
}
