import { readFileSync } from 'node:fs';

/**
 * The real helm and kubectl the chart and overlay tests run, as scripts/install-renderers.mjs
 * installed them (npm test runs it first). Missing binaries fail the tests that need them: a
 * skip would let CI pass without ever rendering a chart.
 */
export interface Renderers {
  /** Helm 4.1.4. */
  readonly helm4: string;
  /** Helm 3.17.2. */
  readonly helm3: string;
  /** kubectl 1.35.2, whose `kubectl kustomize` is kustomize 5.7.1. */
  readonly kubectl: string;
}

export function renderers(): Renderers {
  let manifest: Record<string, { path: string }>;
  try {
    manifest = JSON.parse(readFileSync('.renderers.json', 'utf8')) as Record<string, { path: string }>;
  } catch {
    throw new Error('no .renderers.json: run `node scripts/install-renderers.mjs` (npm test does) to install helm and kubectl for the tests');
  }
  const path = (key: string) => {
    const found = manifest[key]?.path;
    if (!found) throw new Error(`.renderers.json names no ${key}: re-run node scripts/install-renderers.mjs`);
    return found;
  };
  return { helm4: path('helm4'), helm3: path('helm3'), kubectl: path('kubectl') };
}

/** Both helms, for tests that must hold under each (their defaults differ: KubeVersion 1.35 vs 1.32). */
export function helms(): readonly { readonly label: string; readonly path: string }[] {
  const r = renderers();
  return [
    { label: 'Helm 4', path: r.helm4 },
    { label: 'Helm 3', path: r.helm3 },
  ];
}
