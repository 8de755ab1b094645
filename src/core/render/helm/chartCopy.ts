import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

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
    cpSync(root, copy, { recursive: true, dereference: false, filter: (source) => !/[\\/]\.git$/.test(source) });
    for (const [file, text] of replaced) {
      const inside = relative(root, file);
      if (inside.startsWith('..')) continue;
      writeFileSync(join(copy, inside), text);
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
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A values object written where helm can read it as one more `-f` file (JSON is YAML). */
export function writeValuesFile(values: Record<string, unknown>): { file: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-values-'));
  const file = join(dir, 'proof-values.yaml');
  writeFileSync(file, JSON.stringify(values));
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
