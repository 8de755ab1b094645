import * as vscode from 'vscode';
import { probeExtent, probeHoverMarkdown } from '../../core/analysis/probeText';
import { containsPosition } from '../../core/text/range';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import type { LiveState } from './liveState';
import { podNamesOf } from './podNames';

/** On a probe (its key or anything inside it): effective values, timing analysis, last attempts. */
export class ProbeHovers implements vscode.HoverProvider {
  constructor(
    private readonly models: ManifestModels,
    private readonly live: LiveState,
  ) {}

  static register(models: ManifestModels, live: LiveState): vscode.Disposable {
    return vscode.languages.registerHoverProvider({ language: 'yaml' }, new ProbeHovers(models, live));
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const snapshot = this.models.get(document);
    const placed = snapshot.podSpecAt(position);
    if (!placed) return undefined;
    const local = { line: position.line - placed.lineOffset, character: position.character };
    const probe = placed.spec.containers.flatMap((c) => c.probes).find((p) => containsPosition(probeExtent(p), local));
    if (!probe) return undefined;
    const pod = podNamesOf(snapshot).get(placed.spec) ?? '';
    const summary = this.live.isProbing(document.uri) ? this.live.probe(document.uri, pod, probe.container.name, probe.type) : undefined;
    const markdown = new vscode.MarkdownString(probeHoverMarkdown(probe, summary));
    return new vscode.Hover(markdown, toVsRange(probe.keyRange, placed.lineOffset));
  }
}
