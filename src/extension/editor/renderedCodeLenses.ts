import { basename } from 'node:path';
import * as vscode from 'vscode';
import { whyNeverActs } from '../../core/editor/neverActs';
import { staticProbeTitle } from '../../core/editor/probeText';
import { isKustomizationFile } from '../../core/render/renderSource';
import { COMMANDS } from '../base/commandIds';
import type { ManifestModels } from '../documents/manifestModels';
import type { RenderedModels } from '../rendering/renderedModels';
import type { ReplacedFindings } from './diagnostics';

/**
 * Lenses on a chart's or an overlay's own files: above each place a rendered probe is written
 * (the `livenessProbe:` of values.yaml, a template's probe key) the probe's timing, as the plain
 * manifest's lens says it, and, on the first line of values.yaml and of the kustomization, what
 * runs the rendered workloads: Simulate, Run probes (trusted), Open rendered. A file that is a
 * manifest of its own (an overlay's base resource) keeps its own probe lenses: a second one at the
 * same key could say something else without room to say whose it is (its hover says it).
 */
export class RenderedCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChangeCodeLenses = this.changes.event;

  private constructor(
    private readonly rendered: RenderedModels,
    private readonly models: ManifestModels,
    private readonly replaced: ReplacedFindings,
  ) {
    this.subscriptions = [this.changes, rendered.onDidRender(() => this.changes.fire()), rendered.onDidForget(() => this.changes.fire())];
  }

  static register(rendered: RenderedModels, models: ManifestModels, replaced: ReplacedFindings): RenderedCodeLenses {
    const provider = new RenderedCodeLenses(rendered, models, replaced);
    const selector: vscode.DocumentSelector = ['yaml', 'helm'].map((language) => ({ language, scheme: 'file' }));
    provider.subscriptions.push(vscode.languages.registerCodeLensProvider(selector, provider));
    return provider;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    if (isEntryFile(document.uri.fsPath)) {
      for (const source of this.rendered.sourcesOfDocument(document)) {
        if (this.rendered.resultOf(source.root)?.outcome.ok) lenses.push(...this.runLenses(source.root));
      }
    }
    return [...lenses, ...(this.showsOwnLenses(document) ? [] : this.probeLenses(document))];
  }

  /** A manifest as written, with pods of its own, whose render does not replace it: its own lenses stand. */
  private showsOwnLenses(document: vscode.TextDocument): boolean {
    return !this.replaced.replaces(document) && this.models.get(document).podSpecs.length > 0;
  }

  private runLenses(root: string): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const args = [{ root }];
    return [
      ...(vscode.workspace.isTrusted ? [new vscode.CodeLens(top, { title: '$(play) Run probes…', command: COMMANDS.startProbingRendered, arguments: args, tooltip: `Probe the workloads ${basename(root)} renders on this machine, the way the kubelet would` })] : []),
      new vscode.CodeLens(top, { title: '$(beaker) Simulate…', command: COMMANDS.simulateRendered, arguments: args, tooltip: `Play the workloads ${basename(root)} renders against a scenario on a virtual clock` }),
      new vscode.CodeLens(top, { title: '$(file-code) Open rendered', command: COMMANDS.openRendered, arguments: args, tooltip: 'The rendered manifests, as checked' }),
    ];
  }

  /** One lens per place; a place several workloads' probes come from (a values map two Deployments render) names each. */
  private probeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const byPlace = new Map<string, { range: vscode.Range; titles: { title: string; workload: string }[] }>();
    for (const { place, probe, findings } of this.rendered.probesIn(document)) {
      const title = staticProbeTitle(probe, whyNeverActs(probe, findings));
      const { line, character } = place.range.start;
      const key = `${line}:${character}`;
      const entry = byPlace.get(key) ?? { range: new vscode.Range(line, character, line, character), titles: [] };
      entry.titles.push({ title, workload: probe.container.pod.objectName ?? probe.container.name });
      byPlace.set(key, entry);
    }
    return [...byPlace.values()].flatMap(({ range, titles }) => {
      const distinct = [...new Set(titles.map((t) => t.title))];
      if (distinct.length === 1) return [new vscode.CodeLens(range, { title: distinct[0] as string, command: '' })];
      return titles.map((t) => new vscode.CodeLens(range, { title: `${t.workload}: ${t.title}`, command: '' }));
    });
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
  }
}

/** values.yaml (any values*.yaml) and the kustomization: where a chart's or an overlay's run lenses go. */
function isEntryFile(file: string): boolean {
  const name = basename(file);
  return /^values.*\.ya?ml$/.test(name) || isKustomizationFile(file);
}
