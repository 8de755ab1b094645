import * as vscode from 'vscode';
import { parseScenario, type ScenarioResult } from '../../core/scenario/parse';
import { baseName, exists } from '../documents/fileNames';
import { SCENARIO_FILE, scenarioFileName, scenarioTemplate } from './scenarioTemplate';

/** The scenario files beside a manifest, those named after it first. */
export async function scenariosBeside(manifest: vscode.Uri): Promise<vscode.Uri[]> {
  const folder = vscode.Uri.joinPath(manifest, '..');
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(folder);
  } catch {
    return [];
  }
  const base = scenarioFileName(baseName(manifest)).replace(SCENARIO_FILE, '');
  return entries
    .filter(([name, type]) => type === vscode.FileType.File && SCENARIO_FILE.test(name))
    .map(([name]) => name)
    .sort((a, b) => Number(!a.startsWith(base)) - Number(!b.startsWith(base)) || a.localeCompare(b))
    .map((name) => vscode.Uri.joinPath(folder, name));
}

/** Writes a scenario template beside the manifest (`web.scenario.yaml`, or `web-2.scenario.yaml` if taken). */
export async function createScenario(manifest: vscode.Uri, containers: readonly string[]): Promise<vscode.Uri> {
  const folder = vscode.Uri.joinPath(manifest, '..');
  const name = scenarioFileName(baseName(manifest));
  let uri = vscode.Uri.joinPath(folder, name);
  for (let n = 2; await exists(uri); n++) uri = vscode.Uri.joinPath(folder, name.replace(SCENARIO_FILE, `-${n}.scenario.yaml`));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(scenarioTemplate(baseName(manifest), containers)));
  return uri;
}

/** The scenario as the editor has it (unsaved edits included), else as on disk. */
export async function readScenario(uri: vscode.Uri): Promise<ScenarioResult> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return parseScenario(open.getText());
  try {
    return parseScenario(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  } catch (error) {
    return { ok: false, error: `cannot read ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

