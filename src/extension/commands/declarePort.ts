import * as vscode from 'vscode';
import type { ManifestSnapshot } from '../../core/editor/incrementalChecker';
import { containerPortProblem, declarePort, declarePortObstacle, suggestedContainerPort } from '../../core/fixes/declarePort';
import type { ContainerModel } from '../../core/manifest';
import type { ManifestModels } from '../documents/manifestModels';
import { toVsRange } from '../documents/positions';
import { containerHoldingLine, type PlacedContainer, refuse, workspaceEditOf } from './fixCommands';
import { COMMANDS } from '../base/commandIds';


export function declarePortTitle(name: string): string {
  return `Declare port "${name}"…`;
}

/**
 * Arguments of `probeLens.declarePort` (L01's "Declare port" quick fix):
 * - `uri` (a `vscode.Uri` or its string form): the manifest.
 * - `line`: 0-based line of the probe's `port`, or any line of its container.
 * - `name`: the port name the probe uses.
 * - `containerPort`: the number to declare; without it the user is asked.
 * It resolves to `true` when the port was declared, `false` otherwise (cancelled, or the reason
 * shown as a warning).
 *
 *     await vscode.commands.executeCommand('probeLens.declarePort', uri, 21, 'metrics', 9100)
 */
export type DeclarePortArgs = [uri: vscode.Uri | string, line: number, name: string, containerPort?: number];

export function registerDeclarePortCommand(models: ManifestModels): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.declarePort, (...args: DeclarePortArgs) => declarePortCommand(models, args));
}

async function declarePortCommand(models: ManifestModels, [uri, line, name, containerPort]: DeclarePortArgs): Promise<boolean> {
  const document = await vscode.workspace.openTextDocument(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri);
  const found = containerProbingPort(models.get(document), line, name);
  if (!found) return refuse(`No container at line ${line + 1} probes a port named "${name}".`);
  const obstacle = declarePortObstacle(found.container);
  if (obstacle) return refuse(obstacle);
  const number = containerPort ?? (await askContainerPort(found.container, name));
  if (number === undefined) return false;
  // The text may have changed while the user was typing: declare in the current version.
  const current = containerProbingPort(models.get(document), line, name);
  if (!current) return refuse('The container changed while the port was being chosen; try again.');
  if (current.placed.stale) return refuse('The manifest does not parse as it is now; fix the YAML first.');
  const declared = declarePort(current.container, name, number, document.getText(), current.placed.lineOffset);
  if (!declared.ok) return refuse(declared.reason);
  return vscode.workspace.applyEdit(workspaceEditOf(document.uri, [declared.edit]));
}

/**
 * The container around `line` with a probe on the named port `name`: the one whose probe's port
 * is on that line, else the one whose text holds it.
 */
function containerProbingPort(snapshot: ManifestSnapshot, line: number, name: string): PlacedContainer | undefined {
  const candidates = snapshot.podSpecs.flatMap((placed) =>
    placed.spec.containers
      .filter((container) => container.probes.some((probe) => portNameOf(probe.effective.handler) === name))
      .map((container) => ({ placed, container })),
  );
  const onPortLine = candidates.find(({ placed, container }) =>
    container.probes.some((probe) => {
      const handler = probe.effective.handler;
      const port = portNameOf(handler) === name && handler ? probe.locate(`${handler.type}.port`) : undefined;
      return port !== undefined && toVsRange(port.value, placed).start.line === line;
    }),
  );
  return onPortLine ?? containerHoldingLine(candidates, line);
}

function portNameOf(handler: ContainerModel['probes'][number]['effective']['handler']): string | undefined {
  return (handler?.type === 'httpGet' || handler?.type === 'tcpSocket') && typeof handler.port === 'string' ? handler.port : undefined;
}

async function askContainerPort(container: ContainerModel, name: string): Promise<number | undefined> {
  const suggested = suggestedContainerPort(container, name);
  const typed = await vscode.window.showInputBox({
    title: declarePortTitle(name).replace(/…$/, ''),
    prompt: `The port number the app listens on for "${name}" (the containerPort to declare in container "${container.name}")`,
    placeHolder: '8080',
    ...(suggested !== undefined ? { value: String(suggested) } : {}),
    validateInput: (text) => containerPortProblem(container, name, text),
  });
  return typed === undefined ? undefined : Number(typed.trim());
}
