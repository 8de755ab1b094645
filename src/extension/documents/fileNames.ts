import * as vscode from 'vscode';

/** The file's name without its folder (`web.yaml`): how messages, logs and pickers name a manifest or scenario. */
export function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}

/** Whether something is at `uri` (a file or a folder), on whatever file system it names. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
