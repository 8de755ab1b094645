import * as vscode from 'vscode';
import { joinHostPort } from '../../core/probers/goFormat';
import type { PortRefusal } from '../../core/targets/local';
import { baseName } from '../documents/fileNames';
import { notify } from './notices';

export const MAP_PORT = 'Map Port…';

/**
 * A local probe refused on the loopback usually means the app listens on another port than the
 * container's (a dev server on 3000 for a container port of 8080). Says so once per port and
 * session, and offers to map it: the mapping is written to `probeLens.local.portMap`, which the
 * session follows (see `createLocalSession`), so the next attempt goes to the new port.
 */
export class PortMapHint {
  /** `container→local` pairs already asked about in this session. */
  private readonly asked = new Set<string>();

  constructor(
    private readonly manifest: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** `LocalTargetOptions.onNothingListening`. */
  readonly notice = (refusal: PortRefusal): void => {
    const key = `${refusal.containerPort}\u0000${refusal.localPort}`;
    if (this.asked.has(key)) return;
    this.asked.add(key);
    this.log.warn(`[${baseName(this.manifest)}] nothing listens on ${joinHostPort(refusal.host, refusal.localPort)} (container port ${refusal.containerPort})`);
    void notify('warning', nothingListensText(refusal), [{ title: MAP_PORT, run: () => mapPort(this.manifest, refusal.containerPort, this.log) }]);
  };
}

/** `nothing listens on 127.0.0.1:8080 — map container port 8080 to a local port?` */
function nothingListensText(refusal: PortRefusal): string {
  const address = joinHostPort(refusal.host, refusal.localPort);
  if (refusal.localPort === refusal.containerPort) return `nothing listens on ${address} — map container port ${refusal.containerPort} to a local port?`;
  return `nothing listens on ${address}, where container port ${refusal.containerPort} is mapped — map it to another local port?`;
}

/**
 * Asks for the local port `containerPort` should be probed at and writes it to
 * `probeLens.local.portMap`. Resolves with the port, or `undefined` when the user dismissed the box.
 */
export async function mapPort(manifest: vscode.Uri, containerPort: number, log: vscode.LogOutputChannel): Promise<number | undefined> {
  const answer = await vscode.window.showInputBox({
    title: `Map container port ${containerPort}`,
    prompt: `The port on this machine your app listens on, to probe instead of ${containerPort}`,
    placeHolder: 'e.g. 3000',
    validateInput: (text) => localPortProblem(text, containerPort),
  });
  if (answer === undefined || localPortProblem(answer, containerPort) !== undefined) return undefined;
  const localPort = Number(answer.trim());
  const where = await writePortMapping(manifest, containerPort, localPort);
  log.info(`[${baseName(manifest)}] probeLens.local.portMap: container port ${containerPort} → ${localPort} (${where})`);
  void notify('info', `container port ${containerPort} is now probed at port ${localPort} (probeLens.local.portMap in ${where})`);
  return localPort;
}

/** Why a typed local port will not do, or `undefined` when it will. */
function localPortProblem(text: string, containerPort: number): string | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 65535) return 'A port is a whole number from 1 to 65535.';
  if (Number(trimmed) === containerPort) return `Port ${containerPort} is the one probed now: type the port your app listens on.`;
  return undefined;
}

/**
 * Adds `containerPort → localPort` to `probeLens.local.portMap` where it applies to the manifest:
 * its workspace folder's settings, else the workspace's, else the user's. The entries already at
 * that level are kept (VS Code merges object settings across levels, so the others stay in force
 * too). Resolves with where it was written, for people.
 */
async function writePortMapping(manifest: vscode.Uri, containerPort: number, localPort: number): Promise<string> {
  const config = vscode.workspace.getConfiguration('probeLens', manifest);
  const inspected = config.inspect<Record<string, unknown>>('local.portMap');
  const level = settingsLevel(manifest);
  const current = { folder: inspected?.workspaceFolderValue, workspace: inspected?.workspaceValue, user: inspected?.globalValue }[level.name];
  await config.update('local.portMap', { ...(current ?? {}), [String(containerPort)]: localPort }, level.target);
  return level.description;
}

function settingsLevel(manifest: vscode.Uri): { name: 'folder' | 'workspace' | 'user'; target: vscode.ConfigurationTarget; description: string } {
  if (vscode.workspace.getWorkspaceFolder(manifest)) return { name: 'folder', target: vscode.ConfigurationTarget.WorkspaceFolder, description: 'the workspace folder\'s settings' };
  if (vscode.workspace.workspaceFolders?.length) return { name: 'workspace', target: vscode.ConfigurationTarget.Workspace, description: 'the workspace settings' };
  return { name: 'user', target: vscode.ConfigurationTarget.Global, description: 'your user settings' };
}
