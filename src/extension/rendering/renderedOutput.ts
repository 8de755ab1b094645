import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { RenderSource } from '../../core/render/renderSource';
import type { RenderedModels } from './renderedModels';

export const RENDERED_SCHEME = 'probe-lens-rendered';

/**
 * The rendered output of a chart or an overlay as a read-only YAML document
 * (`probe-lens-rendered:/…/web/web (rendered).yaml`): what helm or kustomize printed, checked
 * like any manifest, and what Simulate, Run probes and the timeline run on — the workloads a
 * chart renders are the ones the cluster would get.
 */
export function renderedUriOf(source: RenderSource): vscode.Uri {
  return vscode.Uri.from({ scheme: RENDERED_SCHEME, path: `${vscode.Uri.file(source.root).path}/${basename(source.root)} (rendered).yaml` });
}

/** The chart's or overlay's folder of a rendered document's uri. */
export function rootOfRendered(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== RENDERED_SCHEME) return undefined;
  return vscode.Uri.file(uri.path.slice(0, uri.path.lastIndexOf('/'))).fsPath;
}

export class RenderedOutput implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChange = this.changes.event;

  constructor(private readonly rendered: RenderedModels) {
    this.subscriptions = [
      this.changes,
      rendered.onDidRender(({ source }) => this.changes.fire(renderedUriOf(source))),
      vscode.workspace.registerTextDocumentContentProvider(RENDERED_SCHEME, this),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const root = rootOfRendered(uri);
    const result = root ? this.rendered.resultOf(root) : undefined;
    if (!result) return `# ${root ?? uri.path} is not rendered: open one of its files in a trusted workspace (probeLens.render.enabled).\n`;
    if (!result.outcome.ok) return `# ${result.source.kind === 'chart' ? 'helm template' : 'the kustomize build'} failed: ${result.outcome.failure.message.replace(/\n/g, '\n# ')}\n`;
    return result.outcome.value.rendered;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
  }
}
