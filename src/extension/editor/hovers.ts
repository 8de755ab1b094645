import * as vscode from 'vscode';
import { probeHoverMarkdown } from '../../core/editor/hoverText';
import { probeExtent } from '../../core/editor/probeText';
import { escapeMarkdown } from '../../core/text/markdown';
import { explanationMarkdown, whyHeading } from '../../core/explain/explainMarkdown';
import { PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import { disagreementSentence, kubeletSentence, podsFor } from '../../core/session/clusterText';
import type { ContainerSnapshot } from '../../core/session/snapshot';
import { chunkPosition } from '../../core/editor/lineMap';
import type { PlacedPodSpec } from '../../core/editor/incrementalChecker';
import { containsPosition, type Position } from '../../core/text/range';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import type { LiveState } from '../sessions/liveState';
import { podNamesOf } from './podNames';
import { type ExplainableSession, SessionExplanations } from '../sessions/sessionExplanations';
import { type MeasuredRecommendations, recommendationHover } from './recommendActions';
import type { ReplacedFindings } from './diagnostics';

/** The running sessions, by manifest: whose events explain a container (the session registry is one). */
export interface LiveSessions extends LiveState {
  forDocument(uri: vscode.Uri): ExplainableSession | undefined;
}

/**
 * On a probe (its key or anything inside it): what the kubelet does with it, its address, the
 * last attempts, its effective values. On a container's first line, where its lens is, while a
 * session runs: why the container is in its state (issue 12 §1).
 */
export class ProbeHovers implements vscode.HoverProvider {
  /** Indexes each session's history once per snapshot, however many hovers ask. */
  private readonly explanations = new SessionExplanations();

  constructor(
    private readonly models: ManifestModels,
    private readonly live: LiveSessions,
    private readonly recommendations?: MeasuredRecommendations,
    /** A rendered template's or patch's hovers come from its render (`RenderedHovers`), not from the fragment as written. */
    private readonly replaced?: ReplacedFindings,
  ) {}

  static register(models: ManifestModels, live: LiveSessions, recommendations?: MeasuredRecommendations, replaced?: ReplacedFindings): vscode.Disposable {
    return vscode.languages.registerHoverProvider({ language: 'yaml' }, new ProbeHovers(models, live, recommendations, replaced));
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (this.replaced?.replaces(document)) return undefined;
    const snapshot = this.models.get(document);
    const placed = snapshot.podSpecAt(position);
    if (!placed) return undefined;
    const local = chunkPosition(placed, position);
    const probe = placed.spec.containers.flatMap((c) => c.probes).find((p) => containsPosition(probeExtent(p), local));
    const pod = podNamesOf(snapshot).get(placed.spec) ?? '';
    if (!probe) return this.whyHover(document, placed, local, pod);
    // The published snapshot's probe: its counts and its latest attempts with their times.
    const live = this.live.snapshot(document.uri);
    const container = live && podsFor(live.pods, pod)[0]?.containers.get(probe.container.name);
    const summary = container?.probes.get(probe.type);
    // The findings of the probe's own document: an API error there means the probe never runs.
    const findings = snapshot.findings.filter((f) => f.doc === placed.document);
    const measured = recommendationHover(this.recommendations?.forDocument(document), pod, probe.container.name, probe.type);
    const markdown = new vscode.MarkdownString([probeHoverMarkdown(probe, findings, summary), ...(container ? clusterHoverLines(container, probe.type) : []), ...measured].join('\n\n'));
    return new vscode.Hover(markdown, toVsRange(probe.keyRange, placed));
  }

  /** On a probing container's first line while its manifest's session runs: the explanation of its state now. */
  private whyHover(document: vscode.TextDocument, placed: PlacedPodSpec, local: Position, pod: string): vscode.Hover | undefined {
    const container = placed.spec.containers.find((c) => PROBING_CONTAINERS.includes(c.kind) && c.range.start.line === local.line);
    const session = container && this.live.forDocument(document.uri);
    if (!container || !session) return undefined;
    // Probed as several cluster pods (`--all-pods`): the first one's, as the lens shows.
    const podName = podsFor(session.state.pods, pod)[0]?.name ?? pod;
    const why = this.explanations.explain(session, podName, container.name);
    if (!why) return undefined;
    const start = toVsRange({ start: container.range.start, end: container.range.start }, placed).start;
    const line = document.lineAt(start.line).range.with({ start });
    return new vscode.Hover(new vscode.MarkdownString(explanationMarkdown(why, whyHeading(why))), line);
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
