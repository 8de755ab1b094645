import type * as vscode from 'vscode';

/** The file's name without its folder (`web.yaml`): how messages, logs and pickers name a manifest or scenario. */
export function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}
