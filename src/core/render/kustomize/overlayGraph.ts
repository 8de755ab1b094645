import { realpathSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { RenderFailure, RenderOutcome } from '../failure';
import { diskText, pathKind, type ReadText } from '../files';
import { kustomizationFile } from '../renderSource';
import { isRemoteReference, type KustomizationFile, readKustomizationFile } from './kustomizationFile';

/**
 * An overlay and everything it builds on, read before kustomize runs: every kustomization in the
 * graph and every file they name. Reading it first is what keeps a build offline and its failures
 * placed — kustomize fetches a remote base with git before saying anything, and names a missing
 * base by its resolved path, never by the line that names it.
 */
export interface OverlayGraph {
  readonly root: string;
  /** Every kustomization file, the overlay's first. */
  readonly kustomizations: readonly KustomizationFile[];
  /** Every file the build reads (kustomizations, resources, patches, generator inputs), absolute. */
  readonly files: readonly string[];
  /** Patch files by the kustomization file that applies them (kustomize's `configuredIn`). */
  readonly patchesOf: ReadonlyMap<string, readonly string[]>;
  /** Manifest files named as resources: whole manifests, checkable as written when no kustomize can run. */
  readonly resources: readonly string[];
  /** Every directory whose kustomization the build reads (the overlay's own, its bases, its components). */
  readonly directories: readonly string[];
}

/**
 * The overlay of a patch file's own directory, when its kustomization names the file as a patch:
 * checked as written, a patch is a fragment (a probe with only the fields it changes), so it is
 * checked as that overlay builds it. A patch named from elsewhere is not looked for.
 */
export function overlayPatching(file: string, read: ReadText = diskText): string | undefined {
  const path = resolve(file);
  const dir = dirname(path);
  if (!kustomizationFile(dir)) return undefined;
  const graph = readOverlayGraph(dir, read);
  if (!graph.ok) return undefined;
  const own = graph.value.kustomizations[0];
  return own && graph.value.patchesOf.get(own.file)?.includes(path) ? graph.value.root : undefined;
}

/** How deep bases may nest: kustomize has no limit, but a real overlay is a few levels deep. */
const MAX_DEPTH = 32;

export function readOverlayGraph(root: string, read: ReadText = diskText): RenderOutcome<OverlayGraph> {
  const kustomizations: KustomizationFile[] = [];
  const files = new Set<string>();
  const patchesOf = new Map<string, string[]>();
  const resources: string[] = [];
  const directories: string[] = [];
  const visiting: string[] = [];
  const done = new Set<string>();

  const visit = (dir: string, depth: number): RenderFailure | undefined => {
    const real = realOf(dir);
    if (visiting.includes(real)) return undefined; // reported by the entry that closes the cycle
    if (done.has(real)) return undefined; // a base two overlays share (a diamond) is read once
    const file = kustomizationFile(dir);
    if (!file) return { kind: 'unreadable', message: `${dir} holds no kustomization.yaml`, file: dir };
    const text = read(file);
    if (text === undefined) return { kind: 'unreadable', message: `${file} cannot be read`, file };
    const kustomization = readKustomizationFile(file, text);
    if (kustomization.yamlError) {
      const { message, range } = kustomization.yamlError;
      return { kind: 'render-error', message: `the kustomization does not read as YAML: ${message}`, file, line: range.start.line, character: range.start.character };
    }
    if (kustomization.helmCharts)
      return {
        kind: 'refused',
        message: 'helmCharts needs kustomize --enable-helm, which Probe Lens does not pass: it runs helm from inside kustomize and may fetch the chart. Check the chart itself with Probe Lens instead',
        file,
        line: kustomization.helmCharts.start.line,
        character: kustomization.helmCharts.start.character,
      };
    kustomizations.push(kustomization);
    directories.push(resolve(dir));
    files.add(file);
    visiting.push(real);
    try {
      for (const reference of kustomization.references) {
        const at = { file, line: reference.range.start.line, character: reference.range.start.character };
        const path = resolve(dir, reference.value);
        const kind = pathKind(path);
        if (kind === 'missing') {
          if (isRemoteReference(reference.value))
            return { kind: 'refused', message: `${reference.field} entry ${reference.value} is remote: Probe Lens builds overlays offline and never fetches a base; vendor it into the repository and name the local copy`, ...at };
          return { kind: 'unreadable', message: `${reference.field} entry ${reference.value} does not exist (${path})`, ...at };
        }
        if (kind === 'directory') {
          if (reference.role === 'patch' || reference.role === 'file') return { kind: 'unreadable', message: `${reference.field} entry ${reference.value} is a directory, not a file`, ...at };
          if (visiting.includes(realOf(path)))
            return { kind: 'unreadable', message: `${reference.field} entry ${reference.value} builds on itself: a cycle through ${relative(root, path) || '.'}`, ...at };
          if (depth >= MAX_DEPTH) return { kind: 'unreadable', message: `bases nest deeper than ${MAX_DEPTH} levels here`, ...at };
          const inner = visit(path, depth + 1);
          if (inner) return inner;
          continue;
        }
        files.add(path);
        if (reference.role === 'patch') patchesOf.set(file, [...(patchesOf.get(file) ?? []), path]);
        if (reference.role === 'resource' && !resources.includes(path)) resources.push(path);
      }
    } finally {
      visiting.pop();
      done.add(real);
    }
    return undefined;
  };

  const failure = visit(resolve(root), 0);
  if (failure) return { ok: false, failure };
  return { ok: true, value: { root: resolve(root), kustomizations, files: [...files], patchesOf, resources, directories } };
}

/** The directory every file of the graph sits under: what a copy of the overlay must mirror. */
export function graphAncestor(graph: OverlayGraph): string {
  let ancestor = dirname(graph.files[0] ?? join(graph.root, 'kustomization.yaml'));
  for (const file of graph.files) {
    while (relative(ancestor, file).startsWith('..')) ancestor = dirname(ancestor);
  }
  return ancestor;
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
