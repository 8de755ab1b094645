import { readFileSync, rm, statSync } from 'node:fs';

/**
 * The file system as rendering reads it: a chart's or an overlay's files, each read leniently
 * (the renderer itself says what is wrong with a file it cannot read).
 */

/** A file's text: the editor's unsaved buffer when there is one, else the disk's; undefined when unreadable. */
export type ReadText = (file: string) => string | undefined;

export function diskText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export function pathKind(path: string): 'file' | 'directory' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

export const isFile = (path: string): boolean => pathKind(path) === 'file';
export const isDirectory = (path: string): boolean => pathKind(path) === 'directory';

/** `https://…`, `oci://…`: what a renderer would fetch rather than read (a Windows `C:\` path has no `//`). */
export function isUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
}

/**
 * A temporary folder removed off the render's path: the result is not held up by the unlinking
 * (the editor renders on every pause in typing), and a pending removal keeps a command-line run
 * alive until it is done.
 */
export function removeLater(dir: string): void {
  rm(dir, { recursive: true, force: true }, () => undefined);
}
