import * as vscode from 'vscode';
import { whyNeverActs } from '../../core/editor/neverActs';
import { liveContainerTitle, liveProbeTitle, staticProbeTitle } from '../../core/editor/probeText';
import type { Finding } from '../../core/rules/types';
import { type ContainerModel, PROBING_CONTAINERS, type ProbeModel } from '../../core/manifest';
import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import { kubeletSuffix, podsFor } from '../../core/session/clusterText';
import type { SessionSnapshot } from '../../core/session/snapshot';
import type { PauseCountdowns } from '../debug/pauseCountdowns';
import type { LiveState } from '../sessions/liveState';
import { podNamesOf } from './podNames';
import { COMMANDS } from '../base/commandIds';
import type { ReplacedFindings } from './diagnostics';

/**
 * VS Code is told of a session's new snapshot at most this long after it last asked for the live
 * lenses. It asks a debounce (≥ 250 ms) after being told, then resolves the lenses in view a
 * debounce later: told again before that, it asks again before resolving, and a lens clicked
 * then can carry a command already released ("Actual command not found"). Told more often than
 * its debounce, it would never ask at all.
 */
const LIVE_REFRESH_MS = 750;

/**
 * Lenses above each probing container (its live status and actions) and each probe (its timing,
 * or its live state while a session runs). Everything comes from the model cache and the
 * sessions' summaries: providing lenses never parses.
 */
export class ProbeCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  /** Telling VS Code of a live change, scheduled. */
  private refreshTimer: NodeJS.Timeout | undefined;
  /** VS Code was told of a live change and has not asked for the lenses since (`again`: another came meanwhile). */
  private liveChange: 'none' | 'told' | 'again' = 'none';
  /** When VS Code last asked for live lenses (`performance.now()`). */
  private liveAskedAt = -Infinity;
  /** Lenses handed over without their command, which VS Code asks for when it shows them. */
  private readonly unresolved = new WeakMap<vscode.CodeLens, { readonly command: vscode.Command | undefined; readonly show: () => void }>();

  readonly onDidChangeCodeLenses = this.changes.event;

  constructor(
    private readonly models: ManifestModels,
    private readonly live: LiveState,
    /** The breakpoint guard's: a countdown leads the container's lens line while a debugger holds the program. */
    private readonly pauses?: PauseCountdowns,
    /** A rendered template's or patch's lenses come from its render (`RenderedCodeLenses`), not from the fragment as written. */
    private readonly replaced?: ReplacedFindings,
  ) {
    // VS Code asks again after every edit by itself: telling it too would only delay its asking
    // (its debounce starts over), and the lenses would trail the findings of the same read.
    this.subscriptions = [this.changes, models.onDidUpdate(({ cause }) => cause !== 'edit' && this.changes.fire()), live.onDidChange(() => this.refreshSoon())];
    if (pauses) this.subscriptions.push(pauses.onDidChange(() => this.refreshSoon()));
    if (replaced) this.subscriptions.push(replaced.onDidChange(() => this.changes.fire()));
  }

  /** The provider, registered for YAML; disposing it unregisters it. */
  static register(models: ManifestModels, live: LiveState, pauses?: PauseCountdowns, replaced?: ReplacedFindings): ProbeCodeLenses {
    const provider = new ProbeCodeLenses(models, live, pauses, replaced);
    provider.subscriptions.push(vscode.languages.registerCodeLensProvider({ language: 'yaml' }, provider));
    return provider;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    // VS Code asked: whatever it was told has been acted on, for this document or another one (a
    // session of a file not in view changed). Only an ask that found a live session would leave
    // the refresh waiting for an ask that never comes, and every lens frozen from then on.
    this.liveLensesTaken();
    // The current version, read now if the debounce has not fired: VS Code asks only once typing
    // has paused, and a provider that made it wait would have it wait longer next time.
    const snapshot = this.models.get(document);
    const names = podNamesOf(snapshot);
    const probing = this.live.isProbing(document.uri);
    const lenses: vscode.CodeLens[] = [];
    const replaced = this.replaced?.replaces(document) === true;
    for (const placed of replaced ? [] : snapshot.podSpecs) {
      const pod = names.get(placed.spec) ?? '';
      const findings = snapshot.findings.filter((f) => f.doc === placed.document);
      for (const container of placed.spec.containers) {
        if (!PROBING_CONTAINERS.includes(container.kind) || container.probes.length === 0) continue;
        const at = toVsRange(container.range, placed).with({ end: undefined });
        const line = new vscode.Range(at.start, at.start);
        lenses.push(...this.containerLenses(document.uri, line, pod, container, probing));
        for (const probe of container.probes) lenses.push(this.probeLens(document.uri, toVsRange(probe.keyRange, placed), pod, probe, probing, findings));
      }
    }
    return this.resolvedWithFindings(document, snapshot, lenses);
  }

  /**
   * VS Code shows a new lens's title only when it resolves the lenses in view, a debounce after
   * taking them: handing the titles over there, and the read's findings with them, makes lenses
   * and diagnostics of one read appear together. With no lens in view, nothing will be resolved:
   * the findings are shown now. Lenses with no findings waiting (a live refresh) keep their
   * commands and show without that extra round.
   */
  private resolvedWithFindings(document: vscode.TextDocument, snapshot: ManifestSnapshot, lenses: vscode.CodeLens[]): vscode.CodeLens[] {
    // A live refresh, or findings already shown: nothing to hand over together, no resolve round.
    if (!this.models.awaitsLenses(document, snapshot)) return lenses;
    const inView = lenses.some((lens) => vscode.window.visibleTextEditors.some((editor) => editor.document === document && editor.visibleRanges.some((range) => range.contains(lens.range.start))));
    if (!inView) {
      this.models.showWithLenses(document, snapshot);
      return lenses;
    }
    for (const lens of lenses) {
      this.unresolved.set(lens, { command: lens.command, show: () => this.models.showWithLenses(document, snapshot) });
      lens.command = undefined;
    }
    return lenses;
  }

  resolveCodeLens(lens: vscode.CodeLens): vscode.CodeLens {
    const unresolved = this.unresolved.get(lens);
    if (!unresolved) return lens;
    unresolved.show();
    lens.command = unresolved.command;
    return lens;
  }

  private containerLenses(uri: vscode.Uri, range: vscode.Range, pod: string, container: ContainerModel, probing: boolean): vscode.CodeLens[] {
    const target = { uri, pod, container: container.name };
    if (probing) {
      // The session's published snapshot: the same one the Probes view and the status bar show.
      const snapshot = this.live.snapshot(uri);
      const paused = this.pauses?.forContainer(uri, pod, container.name);
      return [
        ...(paused ? [new vscode.CodeLens(range, { title: `$(debug-pause) ${paused.text}`, command: '', tooltip: paused.detail })] : []),
        new vscode.CodeLens(range, { title: snapshot ? containerLensTitle(snapshot, pod, container.name) : NOT_STARTED, command: COMMANDS.openTimeline, arguments: [target], tooltip: 'Open the timeline with this container highlighted' }),
        new vscode.CodeLens(range, { title: 'Open timeline', command: COMMANDS.openTimeline, arguments: [target] }),
        new vscode.CodeLens(range, { title: 'Stop', command: COMMANDS.stopProbing, arguments: [{ uri }] }),
      ];
    }
    const lenses = [new vscode.CodeLens(range, { title: '$(beaker) Simulate', command: COMMANDS.simulate, arguments: [{ uri, pod }], tooltip: 'Play this pod against a scenario on a virtual clock' })];
    if (vscode.workspace.isTrusted) {
      lenses.unshift(new vscode.CodeLens(range, { title: '$(play) Run probes', command: COMMANDS.startProbing, arguments: [{ uri, pod }], tooltip: 'Probe this pod on this machine, the way the kubelet would' }));
    }
    return lenses;
  }

  private probeLens(uri: vscode.Uri, keyRange: vscode.Range, pod: string, probe: ProbeModel, probing: boolean, findings: readonly Finding[]): vscode.CodeLens {
    const range = new vscode.Range(keyRange.start, keyRange.start);
    if (!probing) return new vscode.CodeLens(range, { title: staticProbeTitle(probe, whyNeverActs(probe, findings)), command: '' });
    // This container instance's counts: a restarted container's lens starts from none.
    const snapshot = this.live.snapshot(uri);
    const title = snapshot ? probeLensTitle(snapshot, pod, probe) : liveProbeTitle(probe.type, undefined, probe.effective.failureThreshold);
    return new vscode.CodeLens(range, { title, command: COMMANDS.openTimeline, arguments: [{ uri, pod, container: probe.container.name, probe: probe.type }] });
  }

  /**
   * A session published a snapshot: VS Code is told, `LIVE_REFRESH_MS` after it last asked for the
   * live lenses at the soonest — and not again until it has asked (each telling restarts its
   * debounce). A snapshot published meanwhile is told once it asks.
   */
  private refreshSoon(): void {
    if (this.refreshTimer) return;
    if (this.liveChange !== 'none') {
      this.liveChange = 'again';
      return;
    }
    this.refreshTimer = setTimeout(
      () => {
        this.refreshTimer = undefined;
        this.liveChange = 'told';
        this.changes.fire();
      },
      Math.max(0, this.liveAskedAt + LIVE_REFRESH_MS - performance.now()),
    );
  }

  /** VS Code is taking the live lenses (from the snapshot published last). */
  private liveLensesTaken(): void {
    this.liveAskedAt = performance.now();
    const again = this.liveChange === 'again';
    this.liveChange = 'none';
    if (again) this.refreshSoon();
  }


  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.subscriptions.forEach((s) => s.dispose());
  }
}

const NOT_STARTED = 'not started · not ready · restarts 0';

/**
 * A container's live lens: its condition, and in a cluster the kubelet's word beside ours (flagged
 * when they disagree); probed as several cluster pods (`--all-pods`), how many are ready.
 */
function containerLensTitle(snapshot: SessionSnapshot, pod: string, name: string): string {
  const states = podsFor(snapshot.pods, pod).flatMap((p) => p.containers.get(name) ?? []);
  const [first] = states;
  if (!first) return NOT_STARTED;
  if (states.length > 1) {
    const ready = states.filter((c) => c.ready).length;
    const disagreeing = states.filter((c) => c.disagreement).length;
    const restarts = states.reduce((sum, c) => sum + c.restarts, 0);
    return [`${states.length} pods: ${ready} ready`, `restarts ${restarts}`, ...(disagreeing > 0 ? [`$(warning) kubelet disagrees on ${disagreeing}`] : [])].join(' · ');
  }
  const kubelet = kubeletSuffix(first, true);
  const title = liveContainerTitle(first, snapshot.kills, snapshot.t);
  return kubelet ? `${title} · ${kubelet}` : title;
}

/** A probe's live lens; probed as several cluster pods, the one failing (else the first) speaks, named. */
function probeLensTitle(snapshot: SessionSnapshot, pod: string, probe: ProbeModel): string {
  const pods = podsFor(snapshot.pods, pod);
  const summaries = pods.map((p) => ({ pod: p.name, summary: p.containers.get(probe.container.name)?.probes.get(probe.type) }));
  const shown = summaries.find((s) => s.summary?.last && (s.summary.last.outcome !== 'success' || s.summary.last.error !== undefined)) ?? summaries[0];
  const title = liveProbeTitle(probe.type, shown?.summary, probe.effective.failureThreshold);
  return pods.length > 1 && shown ? `${title} · ${shown.pod} (1 of ${pods.length})` : title;
}
