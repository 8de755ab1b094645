import * as vscode from 'vscode';
import { probeHoverMarkdown } from '../../core/analysis/hoverText';
import { escapeMarkdown, probeExtent } from '../../core/analysis/probeText';
import type { ProbeType } from '../../core/manifest';
import { disagreementSentence, kubeletSentence, podsFor } from '../../core/session/clusterText';
import type { ContainerSnapshot } from '../../core/session/snapshot';
import { chunkPosition } from '../../core/editing/lineMap';
import { containsPosition } from '../../core/text/range';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import type { LiveState } from './liveState';
import { podNamesOf } from './podNames';

/** On a probe (its key or anything inside it): what the kubelet does with it, its address, the last attempts, its effective values. */
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
    const local = chunkPosition(placed, position);
    const probe = placed.spec.containers.flatMap((c) => c.probes).find((p) => containsPosition(probeExtent(p), local));
    if (!probe) return undefined;
    const pod = podNamesOf(snapshot).get(placed.spec) ?? '';
    // The published snapshot's probe: its counts and its latest attempts with their times.
    const live = this.live.snapshot(document.uri);
    const container = live && podsFor(live.pods, pod)[0]?.containers.get(probe.container.name);
    const summary = container?.probes.get(probe.type);
    // The findings of the probe's own document: an API error there means the probe never runs.
    const findings = snapshot.findings.filter((f) => f.doc === placed.document);
    const markdown = new vscode.MarkdownString([probeHoverMarkdown(probe, findings, summary), ...(container ? clusterHoverLines(container, probe.type) : [])].join('\n\n'));
    return new vscode.Hover(markdown, toVsRange(probe.keyRange, placed));
  }
}

/** In a cluster session: the cluster's kubelet beside ours — its verdict, and what this probe's disagreement or prediction says. */
function clusterHoverLines(container: ContainerSnapshot, type: ProbeType): string[] {
  if (!container.kubelet) return [];
  const lines = [escapeMarkdown(kubeletSentence(container.kubelet))];
  if (type === 'readiness' && container.disagreement) lines.push(`**Ours and the kubelet disagree:** ${escapeMarkdown(disagreementSentence(container.disagreement.message))}`);
  if (container.prediction?.probe === type) lines.push(`Prediction (${container.prediction.state}): ${escapeMarkdown(container.prediction.message)}`);
  return lines;
}
