import * as vscode from 'vscode';
import { probeExtent } from '../../core/editor/probeText';
import { escapeMarkdown } from '../../core/text/markdown';
import { chunkPosition } from '../../core/editor/lineMap';
import type { EngineEvent } from '../../core/engine/events';
import { buildHistory } from '../../core/history/history';
import { manifestPodNames, measureRecording } from '../../core/history/measure';
import { type Recommendation, type RecommendationReport, recommend } from '../../core/recommend/recommend';
import { joinInsertions } from '../../core/recommend/verify';
import { latencyText, recommendationTitle, secondsText } from '../../core/recommend/recommendText';
import type { ProbeModel, ProbeType } from '../../core/manifest';
import { type RunHeader, runHeader } from '../../core/timeline/jsonl';
import { containsPosition } from '../../core/text/range';
import type { ManifestModels } from '../documents/manifestModels';
import { baseName } from '../documents/fileNames';
import { workspaceEditOf } from '../commands/fixCommands';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';
import { readSettings } from '../base/settings';
import { RecordingTimeline } from '../timeline/recordingTimeline';
import type { TimelinePanels } from '../timeline/timelinePanels';
import { podNamesOf } from './podNames';

/**
 * Measured probe values in the editor (issue 12 §2): when a session of a manifest (running or
 * just ended) or a recording of it open in the timeline has measurements, a code action on a
 * probe applies what `probe-lens recommend` would — one workspace edit, one undo step — and a
 * hover section says what was measured and why.
 */

/** What a manifest's measurements recommend, and where they come from. */
export interface MeasuredReport {
  readonly report: RecommendationReport;
  /** `the simulated session`, `recording checkout.jsonl`. */
  readonly source: string;
}

interface Source {
  readonly key: string;
  /** Events recorded so far: a running session's grow. */
  readonly total: number;
  readonly label: string;
  readonly header: RunHeader | undefined;
  events(): readonly EngineEvent[];
}

/**
 * The reports of the open manifests, each computed once per version of the text and of its
 * source (a running session's events grow): code actions are asked for on every cursor move.
 */
export class MeasuredRecommendations {
  private cached: { key: string; total: number; value: MeasuredReport | undefined } | undefined;

  constructor(
    private readonly sessions: Sessions,
    private readonly timelines: TimelinePanels,
  ) {}

  forDocument(document: vscode.TextDocument): MeasuredReport | undefined {
    const source = this.sourceFor(document.uri);
    if (!source) return undefined;
    const key = `${document.uri.toString()}\u0000${document.version}\u0000${source.key}`;
    const cached = this.cached;
    // A running session adds events all the time: measured again once it has a tenth more (or 50).
    if (cached?.key === key && source.total < Math.max(cached.total * 1.1, cached.total + 50)) return cached.value;
    const value = measuredReport(document, source);
    this.cached = { key, total: source.total, value };
    return value;
  }

  /** The manifest's running session, else a recording of it open in the timeline, else its session that just ended. */
  private sourceFor(uri: vscode.Uri): Source | undefined {
    const running = this.sessions.forDocument(uri);
    if (running) return sessionSource(running, 'running');
    const target = uri.toString();
    for (const panel of this.timelines.all) {
      const content = panel.content;
      if (content instanceof RecordingTimeline && content.manifest?.toString() === target) {
        const { recording } = content;
        return { key: content.key, total: recording.store.total, label: `recording ${baseName(content.uri)}`, header: recording.header, events: () => recording.store.events() };
      }
    }
    const ended = this.sessions.ended;
    return ended && ended.uri.toString() === target ? sessionSource(ended, 'ended') : undefined;
  }
}

function sessionSource(session: ProbingSession, state: 'running' | 'ended'): Source {
  return {
    key: `session:${session.id}:${state}`,
    total: session.events.total,
    label: `the ${state === 'running' ? '' : 'ended '}${session.kind} session`,
    header: runHeader({ mode: 'session', kind: session.kind }),
    events: () => session.events.events(),
  };
}

function measuredReport(document: vscode.TextDocument, source: Source): MeasuredReport | undefined {
  const events = source.events();
  const history = buildHistory(source.header, events);
  const measurements = measureRecording(history);
  if (measurements.length === 0) return undefined;
  const report = recommend({
    text: document.getText(),
    file: document.uri.fsPath,
    measurements,
    kills: history.kills,
    manifestPods: manifestPodNames(events),
    minorVersion: readSettings(document.uri).minorVersion,
  });
  return report.matched > 0 ? { report, source: source.label } : undefined;
}

/** The probe of the document at a position, with the pod name a session gives its pod. */
function probeAt(models: ManifestModels, document: vscode.TextDocument, position: vscode.Position): { pod: string; probe: ProbeModel } | undefined {
  const snapshot = models.get(document);
  const placed = snapshot.podSpecAt(position);
  if (!placed || placed.stale) return undefined;
  const local = chunkPosition(placed, position);
  const probe = placed.spec.containers.flatMap((c) => c.probes).find((p) => containsPosition(probeExtent(p), local));
  const pod = podNamesOf(snapshot).get(placed.spec);
  return probe && pod !== undefined ? { pod, probe } : undefined;
}

/** On a probe: apply the measured values of its container; and, when other containers have some too, of the whole file. */
export class RecommendActions implements vscode.CodeActionProvider {
  static readonly kind = vscode.CodeActionKind.QuickFix;

  static register(models: ManifestModels, recommendations: MeasuredRecommendations): vscode.Disposable {
    return vscode.languages.registerCodeActionsProvider({ language: 'yaml' }, new RecommendActions(models, recommendations), { providedCodeActionKinds: [RecommendActions.kind] });
  }

  constructor(
    private readonly models: ManifestModels,
    private readonly recommendations: MeasuredRecommendations,
  ) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !context.only.contains(RecommendActions.kind)) return [];
    const found = probeAt(this.models, document, range.start);
    if (!found) return [];
    const measured = this.recommendations.forDocument(document);
    if (!measured || measured.report.recommendations.length === 0) return [];
    const all = measured.report.recommendations;
    const mine = all.filter((r) => r.pod === found.pod && r.container === found.probe.container.name);
    const actions: vscode.CodeAction[] = [];
    if (mine.length > 0) actions.push(action(document, `Apply measured probe values to ${found.probe.container.name}: ${mine.map(shortTitle).join(', ')}`, mine));
    if (all.length > mine.length) actions.push(action(document, `Apply all ${all.length} measured probe values in this file (from ${measured.source})`, all));
    return actions;
  }
}

/** One workspace edit (one undo step) for the recommendations: insertions at one place joined in the order they were made. */
function action(document: vscode.TextDocument, title: string, recommendations: readonly Recommendation[]): vscode.CodeAction {
  const made = new vscode.CodeAction(title, RecommendActions.kind);
  made.edit = workspaceEditOf(document.uri, joinInsertions(recommendations.flatMap((r) => r.edits)));
  return made;
}

function shortTitle(recommendation: Recommendation): string {
  const { to } = recommendation;
  if (typeof to !== 'number') return `add a startupProbe (${to.failureThreshold} × ${to.periodSeconds} s)`;
  return `${recommendation.probe} ${recommendation.field} ${recommendation.from ?? '–'} → ${to}`;
}

/**
 * The hover section of a probe: what was measured of it, what is recommended for its container
 * and why, and what the data was too thin for. Empty without measurements of this probe.
 */
export function recommendationHover(measured: MeasuredReport | undefined, pod: string, container: string, probe: ProbeType): string[] {
  if (!measured) return [];
  const { report } = measured;
  const mine = (r: { pod: string; container: string }) => r.pod === pod && r.container === container;
  const measurements = report.measurements.filter((m) => m.container === container && m.probe === probe && (m.pod === pod || report.measurements.every((x) => x.pod !== pod)));
  const recommendations = report.recommendations.filter((r) => mine(r) && (r.probe === probe || (probe === 'liveness' && r.field === 'startupProbe')));
  const thin = report.notEnoughData.filter((n) => mine(n) && (n.probe === undefined || n.probe === probe));
  if (measurements.length === 0 && recommendations.length === 0) return [];
  const lines = [`**Measured** (${escapeMarkdown(measured.source)}): ${escapeMarkdown(measuredText(measurements))}`];
  for (const r of recommendations) lines.push(`**Recommended:** \`${recommendationTitle(r)}\` — ${escapeMarkdown(r.reason)}. *What it changes:* ${escapeMarkdown(r.changes)}.`);
  for (const n of thin) lines.push(`*Not enough data* (${n.figure}): ${escapeMarkdown(n.reason)}.`);
  return lines;
}

function measuredText(measurements: RecommendationReport['measurements']): string {
  const parts: string[] = [];
  for (const m of measurements) {
    const bits = [`${m.attempts} attempts`];
    if (m.latency) bits.push(latencyText(m.latency));
    if (m.timeouts > 0) bits.push(`${m.timeouts} timed out`);
    const started = m.startup.flatMap((s) => (s.seconds !== undefined ? [s.seconds] : []));
    if (started.length > 0) bits.push(`first success ${secondsText(Math.max(...started))} after start at worst`);
    if (m.longestBurst) bits.push(`longest failure burst ${m.longestBurst.failures} (${secondsText(m.longestBurst.seconds)})`);
    parts.push(bits.join(' · '));
  }
  return parts.join('; ') || 'nothing yet';
}
