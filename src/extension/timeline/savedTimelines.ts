import { existsSync, utimesSync } from 'node:fs';
import * as vscode from 'vscode';

/** Saved timelines younger than this are kept (a window reopened days later still revives its panels)… */
const KEEP_DAYS = 7;
/** …but never more than this many. */
const KEEP_COUNT = 50;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Where session timelines are saved for their panels to survive a window reload:
 * `<storage>/timelines/<stamp>-<session id>.jsonl`, storage being the workspace's (else the
 * global) storage of the extension. Old ones are pruned; a revived panel's file is touched so
 * pruning sees it in use.
 */
export class SavedTimelines {
  readonly folder: vscode.Uri;

  constructor(storage: vscode.Uri) {
    this.folder = vscode.Uri.joinPath(storage, 'timelines');
  }

  /** A new file for a session's timeline (written when the session stops). */
  fileFor(sessionId: string): vscode.Uri {
    const stamp = new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 19);
    return vscode.Uri.joinPath(this.folder, `${stamp}-${sessionId.replace(/[^\w-]/g, '_')}.jsonl`);
  }

  /** Whether `uri` is one of ours (a revived panel's state is not trusted to name any file). */
  holds(uri: vscode.Uri): boolean {
    const folder = this.folder.toString();
    return uri.toString().startsWith(`${folder}/`) && !uri.path.slice(this.folder.path.length + 1).includes('/');
  }

  /** Marks a saved timeline as in use now (its panel was revived). */
  touch(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    try {
      const now = new Date();
      utimesSync(uri.fsPath, now, now);
    } catch {
      // Gone already: the panel says so when it reads it.
    }
  }

  /**
   * Deletes saved timelines older than `KEEP_DAYS`, and the oldest beyond `KEEP_COUNT`, except
   * those `inUse`; and any half-written temporary file. Returns how many went.
   */
  async prune(inUse: ReadonlySet<string>, now = Date.now()): Promise<number> {
    // Nothing saved yet (asked first: VS Code logs a failed readDirectory as an error).
    if (this.folder.scheme === 'file' && !existsSync(this.folder.fsPath)) return 0;
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.folder);
    } catch {
      return 0; // nothing saved yet
    }
    const files: { uri: vscode.Uri; mtime: number }[] = [];
    for (const [name, type] of entries) {
      if (type !== vscode.FileType.File) continue;
      const uri = vscode.Uri.joinPath(this.folder, name);
      if (name.endsWith('.tmp')) {
        files.push({ uri, mtime: 0 });
        continue;
      }
      if (!name.endsWith('.jsonl')) continue;
      const stat = await vscode.workspace.fs.stat(uri).then(undefined, () => undefined);
      if (stat) files.push({ uri, mtime: stat.mtime });
    }
    files.sort((a, b) => b.mtime - a.mtime);
    let removed = 0;
    for (const [index, file] of files.entries()) {
      if (inUse.has(file.uri.toString())) continue;
      if (index < KEEP_COUNT && now - file.mtime < KEEP_DAYS * DAY_MS) continue;
      await vscode.workspace.fs.delete(file.uri).then(
        () => removed++,
        () => undefined,
      );
    }
    return removed;
  }
}
