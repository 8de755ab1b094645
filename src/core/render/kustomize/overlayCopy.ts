import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { removeLater } from '../files';
import { graphAncestor, type OverlayGraph } from './overlayGraph';

/**
 * An overlay's files copied to a temporary folder, with some replaced: the editor's unsaved
 * buffers, or a proof render's sentinels. Only the files the build reads are copied (the graph
 * names them), each at its place below the folder they all share, so every relative path
 * between them still holds; the user's files are never written.
 */
export interface OverlayCopy {
  /** The overlay's directory in the copy. */
  readonly root: string;
  /** A path in the copy → the user's file. */
  original(path: string): string;
  dispose(): void;
}

export function copyOverlay(graph: OverlayGraph, replaced: ReadonlyMap<string, string>): OverlayCopy {
  const ancestor = graphAncestor(graph);
  const dir = mkdtempSync(join(tmpdir(), 'probe-lens-overlay-'));
  const mirror = join(dir, 'tree');
  const inCopy = (path: string) => join(mirror, relative(ancestor, path));
  try {
    for (const file of graph.files) {
      const target = inCopy(file);
      mkdirSync(dirname(target), { recursive: true });
      const text = replaced.get(file);
      if (text === undefined) copyFileSync(file, target);
      else writeFileSync(target, text);
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    root: inCopy(graph.root),
    original: (path) => {
      const inside = relative(mirror, path);
      return inside.startsWith('..') ? path : join(ancestor, inside);
    },
    dispose: () => removeLater(dir),
  };
}
