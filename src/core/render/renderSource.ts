import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { RenderFailure } from './failure';
import { isDirectory, isFile } from './files';

/**
 * What a path on the command line (or an open file) is a part of: a Helm chart, a kustomize
 * overlay, or neither (a plain manifest). A chart is rendered from its root whichever of its
 * files was named, and a subchart's file renders its outermost parent, whose values reach it.
 */
export type RenderSource =
  | { readonly kind: 'chart'; readonly root: string }
  | { readonly kind: 'overlay'; readonly root: string };

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** `kustomization.yaml`, `kustomization.yml` or `Kustomization`, in any folder. */
export function isKustomizationFile(file: string): boolean {
  return (KUSTOMIZATION_FILES as readonly string[]).includes(basename(file));
}

export function isChartRoot(dir: string): boolean {
  return isFile(join(dir, 'Chart.yaml'));
}

export function kustomizationFile(dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((name) => join(dir, name)).find(isFile);
}

/**
 * The chart or overlay a file belongs to: a chart's `Chart.yaml`, `values*.yaml` and anything
 * under `templates/`; an overlay's own kustomization file. Other files (an overlay's patch, a
 * plain manifest beside a chart) are undefined: they are checked as they are written.
 */
export function sourceOfFile(file: string): RenderSource | undefined {
  const path = resolve(file);
  const dir = dirname(path);
  const name = basename(path);
  if ((KUSTOMIZATION_FILES as readonly string[]).includes(name)) return { kind: 'overlay', root: dir };
  if (isChartRoot(dir) && (name === 'Chart.yaml' || /^values.*\.ya?ml$/.test(name))) return { kind: 'chart', root: outermostChart(dir) };
  for (let up = dir; dirname(up) !== up; up = dirname(up)) {
    if (basename(up) === 'templates' && isChartRoot(dirname(up))) return { kind: 'chart', root: outermostChart(dirname(up)) };
  }
  return undefined;
}

/** A subchart sits in its parent's `charts/`: the parent renders it, with the parent's values. */
function outermostChart(chartRoot: string): string {
  let root = chartRoot;
  while (basename(dirname(root)) === 'charts' && isChartRoot(dirname(dirname(root)))) root = dirname(dirname(root));
  return root;
}

export type DirectorySources = { readonly ok: true; readonly sources: readonly RenderSource[] } | { readonly ok: false; readonly failure: RenderFailure };

/** How deep below a directory to look for charts and overlays (a monorepo's `charts/*`, `deploy/overlays/*`). */
const MAX_SEARCH_DEPTH = 6;
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules', '.helm', 'vendor']);

/**
 * A directory: itself when it is a chart or an overlay, else every chart and overlay below it
 * (not descending into one once found: a chart's own `charts/` are its subcharts). Symbolic links
 * are followed once each, so a loop ends. Neither found is a failure that says what was looked for.
 */
export function sourcesInDirectory(dir: string): DirectorySources {
  const root = resolve(dir);
  const found: RenderSource[] = [];
  const seen = new Set<string>();
  const visit = (path: string, depth: number): void => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return; // A dangling link or a loop (ELOOP): nothing to render there.
    }
    if (seen.has(real)) return;
    seen.add(real);
    if (isChartRoot(path)) return void found.push({ kind: 'chart', root: path });
    if (kustomizationFile(path)) return void found.push({ kind: 'overlay', root: path });
    if (depth >= MAX_SEARCH_DEPTH) return;
    let names: string[];
    try {
      names = readdirSync(path).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (SKIPPED_DIRECTORIES.has(name)) continue;
      const child = join(path, name);
      if (isDirectory(child)) visit(child, depth + 1);
    }
  };
  visit(root, 0);
  if (found.length > 0) return { ok: true, sources: found };
  return {
    ok: false,
    failure: { kind: 'unreadable', file: root, message: `neither a Helm chart (no Chart.yaml) nor a kustomize overlay (no kustomization.yaml), and none within ${MAX_SEARCH_DEPTH} levels below` },
  };
}

export function sameSource(a: RenderSource, b: RenderSource): boolean {
  return a.kind === b.kind && a.root === b.root;
}
