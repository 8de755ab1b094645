import * as vscode from 'vscode';
import type { Sessions } from '../sessions/sessions';
import type { ProbeTreeNode } from './nodes';
import type { ProbeTreeProvider } from './probeTree';

/** Cursor moves come in bursts (typing, arrow keys): reveal where it settles. */
const SETTLE_MS = 150;

/**
 * While the Probes view is visible, moving the cursor onto a probe (or container, or pod) of a
 * manifest with a session selects that row — without taking focus from the editor.
 */
export function revealOnSelection(view: vscode.TreeView<ProbeTreeNode>, tree: ProbeTreeProvider, sessions: Sessions): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const subscription = vscode.window.onDidChangeTextEditorSelection((event) => {
    clearTimeout(timer);
    if (!view.visible || !sessions.forDocument(event.textEditor.document.uri)) return;
    const uri = event.textEditor.document.uri;
    const position = event.selections[0]?.active;
    if (!position) return;
    timer = setTimeout(() => {
      timer = undefined;
      const session = sessions.forDocument(uri);
      const node = session && tree.nodeAt(session, { line: position.line, character: position.character });
      if (node) void view.reveal(node, { select: true, focus: false, expand: true }).then(undefined, () => undefined);
    }, SETTLE_MS);
  });
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    subscription.dispose();
  });
}
