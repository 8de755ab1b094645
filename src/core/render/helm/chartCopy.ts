import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { removeLater } from '../files';

/**
 * A chart copied to a temporary folder with some files replaced: the editor's unsaved buffers,
 * or a proof render's sentinels. helm only reads a chart from disk, and the user's files are
 * never written. Symbolic links are copied as links to what they point at, so a link leaving the
 * chart still resolves and a link loop is copied, not followed.
 */
export interface ChartCopy {
  readonly root: string;
  /** A path in the copy → the user's file. */
  original(path: string): string;
  dispose(): void;
}

export function copyChart(root: string, replaced: ReadonlyMap<string, string>): ChartCopy {
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-chart-'));
  const copy = join(dir, 'chart');
  try {
    const written = new Map<string, string>();
    for (const [file, text] of replaced) {
      const inside = relative(root, file);
      if (!inside.startsWith('..')) written.set(join(copy, inside), text);
    }
    copyTree(root, copy, written);
    // A replaced file the disk does not have yet (a new template, unsaved): written where it goes.
    for (const [file, text] of written) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    root: copy,
    original: (path) => {
      const inside = relative(copy, path);
      return inside.startsWith('..') ? path : join(root, inside);
    },
    dispose: () => removeLater(dir),
  };
}

/**
 * Copies a folder, but for `.git`, writing the replaced files' texts instead of theirs (each one
 * taken off `written` as it is placed). fs.cpSync would do the walk, at twice the time for the
 * few files of a chart: the editor copies its chart on every render, so the walk is its own.
 */
function copyTree(from: string, to: string, written: Map<string, string>): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.git') copyTree(source, target, written);
    } else if (written.has(target)) {
      writeFileSync(target, written.get(target) as string);
      written.delete(target);
    } else if (entry.isSymbolicLink()) {
      // To what it points at, from the copy: a link out of the chart still resolves; a loop is copied, not followed.
      symlinkSync(resolve(from, readlinkSync(source)), target);
    } else if (entry.isFile()) {
      copyFileSync(source, target);
    }
  }
}

/** A values object written where helm can read it as one more `-f` file (JSON is YAML). */
export function writeValuesFile(values: Record<string, unknown>): { file: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-values-'));
  const file = join(dir, 'proof-values.yaml');
  writeFileSync(file, JSON.stringify(values));
  return { file, dispose: () => removeLater(dir) };
}
