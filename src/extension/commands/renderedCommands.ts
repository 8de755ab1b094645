import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { Manifest } from '../../core/manifest';
import type { RenderSource } from '../../core/render/renderSource';
import { COMMANDS } from '../base/commandIds';
import type { RenderedModels, RenderedResult } from '../rendering/renderedModels';
import { renderedUriOf } from '../rendering/renderedOutput';
import { notify } from '../sessions/notices';
import { createScenario, scenariosBeside } from '../sessions/scenarioFiles';
import { scenarioFileName } from '../sessions/scenarioTemplate';
import { pickScenario } from './pickers';

/** `{root}` from a lens, else the chart or overlay of the active editor's file. */
interface RenderedTarget {
  readonly root?: string;
}

/**
 * The workloads a chart or an overlay renders, as one read-only document
 * (renderedOutput.ts): Open shows it; Simulate and Start Probing run the usual commands on it, so
 * their pod picker, scenario, sessions, tree and timeline are those of any manifest. A scenario
 * is kept beside the chart or overlay (`web.scenario.yaml`), where the user can edit it.
 */
export function registerRenderedCommands(rendered: RenderedModels): vscode.Disposable {
  const contextKey = () => void vscode.commands.executeCommand('setContext', 'probeLens.renderedSource', activeSource(rendered) !== undefined);
  contextKey();
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor(contextKey),
    rendered.onDidRender(contextKey),
    vscode.commands.registerCommand(COMMANDS.openRendered, async (target?: RenderedTarget) => {
      const result = await renderedResult(rendered, target);
      if (!result) return undefined;
      const document = await vscode.workspace.openTextDocument(renderedUriOf(result.source));
      await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Active });
      return document.uri;
    }),
    vscode.commands.registerCommand(COMMANDS.simulateRendered, async (target?: RenderedTarget) => {
      const result = await playable(rendered, target);
      if (!result) return undefined;
      const uri = renderedUriOf(result.source);
      const twin = scenarioTwin(result.source);
      const picked = await pickScenario(twin, await scenariosBeside(twin), scenarioFileName(basename(twin.fsPath)));
      if (!picked) return undefined;
      let scenario = picked.value;
      if (scenario === 'create') {
        scenario = await createScenario(twin, result.outcome.ok ? containersOf(result.outcome.value.manifest) : []);
        await vscode.window.showTextDocument(scenario, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
      }
      return vscode.commands.executeCommand(COMMANDS.simulate, { uri, scenario });
    }),
    vscode.commands.registerCommand(COMMANDS.startProbingRendered, async (target?: RenderedTarget) => {
      const result = await playable(rendered, target);
      return result && vscode.commands.executeCommand(COMMANDS.startProbing, { uri: renderedUriOf(result.source) });
    }),
  );
}

function activeSource(rendered: RenderedModels): RenderSource | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document ? rendered.sourcesOfDocument(document)[0] : undefined;
}

/** The target's latest render, rendering it now when there is none yet. */
async function renderedResult(rendered: RenderedModels, target: RenderedTarget | undefined): Promise<RenderedResult | undefined> {
  if (target?.root) {
    const known = rendered.resultOf(target.root);
    if (known) return known;
  }
  const document = vscode.window.activeTextEditor?.document;
  const source = target?.root ? undefined : document && rendered.sourcesOfDocument(document)[0];
  if (!document || (!source && !target?.root)) {
    void notify('info', 'open a file of a Helm chart (values.yaml, a template) or a kustomize overlay in a trusted workspace to render it');
    return undefined;
  }
  const [result] = await rendered.renderNow(document);
  return result;
}

/** A render with workloads to run; a failed one says why, as its diagnostic does. */
async function playable(rendered: RenderedModels, target: RenderedTarget | undefined): Promise<RenderedResult | undefined> {
  const result = await renderedResult(rendered, target);
  if (!result) return undefined;
  if (!result.outcome.ok) {
    void notify('warning', `${basename(result.source.root)} did not render, so there is nothing to run: ${result.outcome.failure.message}`);
    return undefined;
  }
  return result;
}

/** The file a rendered source's scenarios are named after, in its folder: `web/web.yaml` → `web/web.scenario.yaml`. */
function scenarioTwin(source: RenderSource): vscode.Uri {
  return vscode.Uri.file(join(source.root, `${basename(source.root)}.yaml`));
}

/** The containers with probes, for a new scenario's template: from the render's own parse. */
function containersOf(manifest: Manifest): string[] {
  const names = manifest.documents.flatMap((d) => d.podSpecs.flatMap((pod) => pod.containers.filter((c) => c.probes.length > 0).map((c) => c.name)));
  return [...new Set(names)];
}
