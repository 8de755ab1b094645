import * as vscode from 'vscode';
import { containerStatusTitle, liveProbeTitle, staticProbeTitle } from '../../core/analysis/probeText';
import { type ContainerModel, PROBING_CONTAINERS, type ProbeModel } from '../../core/manifest';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import type { LiveState } from './liveState';
import { podNamesOf } from './podNames';

/** Live titles change with every attempt; redrawing lenses more often than this only flickers. */
const LIVE_REFRESH_MS = 500;

/**
 * Lenses above each probing container (its live status and actions) and each probe (its timing,
 * or its live state while a session runs). Everything comes from the model cache and the
 * sessions' summaries: providing lenses never parses.
 */
export class ProbeCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  private refreshTimer: NodeJS.Timeout | undefined;

  readonly onDidChangeCodeLenses = this.changes.event;

  constructor(
    private readonly models: ManifestModels,
    private readonly live: LiveState,
  ) {
    this.subscriptions = [this.changes, models.onDidUpdate(() => this.changes.fire()), live.onDidChange(() => this.refreshSoon())];
  }

  static register(models: ManifestModels, live: LiveState): vscode.Disposable {
    const provider = new ProbeCodeLenses(models, live);
    return vscode.Disposable.from(provider, vscode.languages.registerCodeLensProvider({ language: 'yaml' }, provider));
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const snapshot = await this.models.whenRead(document, token);
    if (token.isCancellationRequested) return [];
    const names = podNamesOf(snapshot);
    const probing = this.live.isProbing(document.uri);
    const lenses: vscode.CodeLens[] = [];
    for (const placed of snapshot.podSpecs) {
      const pod = names.get(placed.spec) ?? '';
      for (const container of placed.spec.containers) {
        if (!PROBING_CONTAINERS.includes(container.kind) || container.probes.length === 0) continue;
        const at = toVsRange(container.range, placed.lineOffset).with({ end: undefined });
        const line = new vscode.Range(at.start, at.start);
        lenses.push(...this.containerLenses(document.uri, line, pod, container, probing));
        for (const probe of container.probes) lenses.push(this.probeLens(document.uri, toVsRange(probe.keyRange, placed.lineOffset), pod, probe, probing));
      }
    }
    return lenses;
  }

  private containerLenses(uri: vscode.Uri, range: vscode.Range, pod: string, container: ContainerModel, probing: boolean): vscode.CodeLens[] {
    const target = { uri, pod, container: container.name };
    if (probing) {
      const state = this.live.container(uri, pod, container.name);
      return [
        new vscode.CodeLens(range, { title: state ? containerStatusTitle(state) : 'not started · not ready · restarts 0', command: 'probeLens.openTimeline', arguments: [target], tooltip: 'Open the timeline with this container highlighted' }),
        new vscode.CodeLens(range, { title: 'Open timeline', command: 'probeLens.openTimeline', arguments: [target] }),
        new vscode.CodeLens(range, { title: 'Stop', command: 'probeLens.stopProbing', arguments: [{ uri }] }),
      ];
    }
    const lenses = [new vscode.CodeLens(range, { title: '$(beaker) Simulate', command: 'probeLens.simulate', arguments: [{ uri, pod }], tooltip: 'Play this pod against a scenario on a virtual clock' })];
    if (vscode.workspace.isTrusted) {
      lenses.unshift(new vscode.CodeLens(range, { title: '$(play) Run probes', command: 'probeLens.startProbing', arguments: [{ uri, pod }], tooltip: 'Probe this pod on this machine, the way the kubelet would' }));
    }
    return lenses;
  }

  private probeLens(uri: vscode.Uri, keyRange: vscode.Range, pod: string, probe: ProbeModel, probing: boolean): vscode.CodeLens {
    const range = new vscode.Range(keyRange.start, keyRange.start);
    if (!probing) return new vscode.CodeLens(range, { title: staticProbeTitle(probe), command: '' });
    const summary = this.live.probe(uri, pod, probe.container.name, probe.type);
    const title = liveProbeTitle(probe.type, summary, probe.effective.failureThreshold);
    return new vscode.CodeLens(range, { title, command: 'probeLens.openTimeline', arguments: [{ uri, pod, container: probe.container.name, probe: probe.type }] });
  }

  private refreshSoon(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.changes.fire();
    }, LIVE_REFRESH_MS);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.subscriptions.forEach((s) => s.dispose());
  }
}
