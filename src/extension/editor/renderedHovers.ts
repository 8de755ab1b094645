import * as vscode from 'vscode';
import { probeHoverMarkdown } from '../../core/editor/hoverText';
import type { RenderedModels } from '../rendering/renderedModels';

/**
 * On the place a rendered probe is written (values.yaml's `livenessProbe:`, a template's probe
 * key): the same hover as on a plain manifest's probe, for the probe as rendered, and which
 * workload it was rendered into — a values map two Deployments share gets both.
 */
export class RenderedHovers implements vscode.HoverProvider {
  static register(rendered: RenderedModels): vscode.Disposable {
    const selector: vscode.DocumentSelector = ['yaml', 'helm'].map((language) => ({ language, scheme: 'file' }));
    return vscode.languages.registerHoverProvider(selector, new RenderedHovers(rendered));
  }

  private constructor(private readonly rendered: RenderedModels) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const here = this.rendered.probesIn(document).filter(({ place }) => place.range.start.line === position.line);
    if (here.length === 0) return undefined;
    const sections = here.map(({ probe, findings, result }) => {
      // A code span shows its text as it is (no escapes inside it): only a backtick could break it.
      const workload = `${probe.container.pod.objectKind} \`${(probe.container.pod.objectName ?? '').replace(/`/g, "'")}\``;
      const from = result.source.kind === 'chart' ? 'helm template' : 'kustomize';
      return [`*Rendered by ${from} into ${workload}:*`, '', probeHoverMarkdown(probe, findings)].join('\n');
    });
    const line = document.lineAt(position.line).range;
    return new vscode.Hover(new vscode.MarkdownString(sections.join('\n\n---\n\n')), line);
  }
}
