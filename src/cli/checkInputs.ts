import { basename, resolve } from 'node:path';
import type { RenderFailure } from '../core/render/failure';
import { isDirectory } from '../core/render/files';
import { overlayPatching } from '../core/render/kustomize/overlayGraph';
import { type RenderSource, sameSource, sourceOfFile, sourcesInDirectory } from '../core/render/renderSource';

/**
 * The command line's paths sorted into what is checked as written (plain manifests, `-`) and what
 * is rendered first (charts, overlays, and the overlay of a patch named on its own). A chart named
 * several ways (its folder, its values.yaml, a template) is rendered once; a `values-*.yaml` named beside its Chart.yaml is one more `-f`.
 */
export interface CheckInputs {
  readonly plain: readonly string[];
  readonly sources: readonly NamedSource[];
  /** Paths that are neither (a directory with no chart or overlay in it). */
  readonly failures: readonly RenderFailure[];
}

export interface NamedSource {
  readonly source: RenderSource;
  /** As the user wrote it, for messages. */
  readonly name: string;
  /** `values-*.yaml` of the chart named on the command line: `-f` files after `--values`. */
  readonly valuesFiles: readonly string[];
}

export function sortInputs(names: readonly string[], cwd: string): CheckInputs {
  const plain: string[] = [];
  const sources: { source: RenderSource; name: string; valuesFiles: string[] }[] = [];
  const failures: RenderFailure[] = [];
  const add = (source: RenderSource, name: string, valuesFile?: string) => {
    let known = sources.find((s) => sameSource(s.source, source));
    if (!known) {
      known = { source, name, valuesFiles: [] };
      sources.push(known);
    }
    if (valuesFile && !known.valuesFiles.includes(valuesFile)) known.valuesFiles.push(valuesFile);
  };
  for (const name of names) {
    if (name === '-') {
      plain.push(name);
      continue;
    }
    const path = resolve(cwd, name);
    if (isDirectory(path)) {
      const found = sourcesInDirectory(path);
      if (found.ok) for (const source of found.sources) add(source, found.sources.length === 1 ? name : source.root);
      else failures.push(found.failure);
      continue;
    }
    const patched = overlayPatching(path);
    const source = sourceOfFile(path) ?? (patched ? { kind: 'overlay' as const, root: patched } : undefined);
    if (!source) {
      plain.push(name);
      continue;
    }
    const extraValues = source.kind === 'chart' && /^values.+\.ya?ml$/.test(basename(path)) && !/[\\/]templates[\\/]/.test(path) ? path : undefined;
    add(source, name, extraValues);
  }
  return { plain, sources, failures };
}
