import { DEFAULT_LIMITS, type ManifestLimits } from './limits';
import type { Manifest, ManifestDocument } from './model';
import { readPodSpec } from './podSpec';
import { findServices, findUncheckedWorkload } from './services';
import { findPodSpecs } from './workloads';
import type { Document } from 'yaml';
import { type SourceDocument, readYamlFile, type YamlText } from './yamlFile';
import { type FileBudget, YamlNavigator } from './yamlNavigator';

export * from './model';
export type { SourceLocation, DecodeIssue } from './decode';
export type { SourceDocument, YamlFile, YamlProblem, YamlText } from './yamlFile';
export { DEFAULT_LIMITS, type ManifestLimits } from './limits';

export interface ManifestOptions {
  /** Minor version of Kubernetes 1.x whose API fields are known (default 33). */
  readonly minorVersion?: number;
  readonly limits?: ManifestLimits;
}

export const DEFAULT_MINOR_VERSION = 33;

/** Reads a manifest file. Never throws: what cannot be read is reported on the documents. */
export function parseManifest(text: string, options: ManifestOptions = {}): Manifest {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const minorVersion = options.minorVersion ?? DEFAULT_MINOR_VERSION;
  const budget: FileBudget = { remaining: limits.maxNodeVisitsPerFile };
  return readYamlFile(text, limits, (source, yaml, file) => readDocument(file, source, yaml, minorVersion, limits, budget));
}

/**
 * One document's pod specs; templated, broken or refused documents have none. Once the file's
 * visit budget is spent, the document that spent it said so (Y02) and the rest are skipped.
 */
function readDocument(file: YamlText, source: SourceDocument, yaml: Document.Parsed | undefined, minorVersion: number, limits: ManifestLimits, budget: FileBudget): ManifestDocument {
  if (source.limitHit) return { source, podSpecs: [], limitHit: { range: source.limitHit.range, reason: source.limitHit.message } };
  if (!yaml || source.templated || source.errors.length > 0 || budget.remaining <= 0) return { source, podSpecs: [] };
  const nav = new YamlNavigator(file, yaml, limits, budget);
  const podSpecs = findPodSpecs(nav, nav.root).map((site) => readPodSpec(nav, site, minorVersion));
  const placeholder = podSpecs.find((pod) => pod.placeholder)?.placeholder;
  if (placeholder) return { source: { ...source, templated: { syntax: '${ }', expression: placeholder.text, range: placeholder.range } }, podSpecs: [] };
  const services = file.text.includes('Service') ? findServices(nav, nav.root) : [];
  const unchecked = podSpecs.length === 0 && file.text.includes('knative') ? findUncheckedWorkload(nav, nav.root) : undefined;
  return {
    source,
    podSpecs,
    ...(services.length > 0 ? { services } : {}),
    ...(unchecked ? { unchecked } : {}),
    ...(nav.limitHit ? { limitHit: nav.limitHit } : {}),
  };
}
