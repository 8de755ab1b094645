import { isAbsolute, relative } from 'node:path';

/** A probing session the guard may tie a debug session to: where its manifest is. */
export interface GuardableSession {
  readonly manifestPath: string;
}

/**
 * Which probing sessions a debug session's pause holds. Nothing in VS Code says which program a
 * probing session probes (a local one probes ports, a cluster one a port-forward), so:
 * - exactly one local or cluster session runs: that one — the common case, debugging the app
 *   you probe;
 * - several: those whose manifest lies in the debugged program's folders (its `cwd` and its
 *   workspace folder, and those of the session that launched it: js-debug runs the program in a
 *   child session) — an app's manifest usually sits in its repository;
 * - none of them there: all of them, since warning of a pause that may not concern a session is
 *   better than hiding one that does.
 */
export function sessionsHeldBy<T extends GuardableSession>(running: readonly T[], debugFolders: readonly string[]): readonly T[] {
  if (running.length <= 1) return running;
  const inside = running.filter((session) => debugFolders.some((folder) => contains(folder, session.manifestPath)));
  return inside.length > 0 ? inside : running;
}

/** `folder` holds `file` (at any depth). */
export function contains(folder: string, file: string): boolean {
  if (folder === '') return false;
  const path = relative(folder, file);
  return path !== '' && !path.startsWith('..') && !isAbsolute(path);
}
