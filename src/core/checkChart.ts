import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type CheckOptions, checkManifests } from './check';
import { DEFAULT_MINOR_VERSION, type Manifest, parseManifest } from './manifest';
import { DEFAULT_RENDER_BOUNDS, inOriginal, type RenderBounds, type RenderOutcome } from './render/failure';
import { copyChart, writeValuesFile } from './render/helm/chartCopy';
import { diskText, type ReadText } from './render/files';
import { type ChartNode, chartOfTemplate, chartTree, chartValues, subchartPrefixes } from './render/helm/chartValues';
import type { ChartRequest, Helm } from './render/helm/helm';
import type { SourceText } from './render/placement/candidates';
import { placeFindings } from './render/placement/place';
import type { ProofChanges } from './render/placement/proof';
import type { ProofMemo } from './render/placement/proofMemo';
import { type PlacedProbe, isProbeQuestion, probePlacesOf, probeQuestions } from './render/placement/probePlaces';
import { renderedDocuments } from './render/renderedDocuments';
import type { Finding } from './rules/types';

/** How to render a chart, beyond the chart itself: what `helm template` is given. */
export interface ChartOptions extends Omit<CheckOptions, 'file'> {
  readonly helm: Helm;
  readonly release?: string;
  readonly namespace?: string;
  /** `-f` files (absolute), later wins. */
  readonly valuesFiles?: readonly string[];
  readonly set?: readonly string[];
  readonly setString?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly bounds?: RenderBounds;
  /** Unsaved texts by absolute path: rendered from a copy of the chart holding them. */
  readonly unsaved?: ReadonlyMap<string, string>;
  readonly signal?: AbortSignal;
  /** Also place every probe (the editor's timing lenses), in the same proof render as the findings. */
  readonly placeProbes?: boolean;
  /** Proofs kept between renders of this chart (the editor's): a values edit then costs one render. */
  readonly memo?: ProofMemo;
}

/** A chart or an overlay, rendered and checked. */
export interface CheckedRender {
  /** Each finding placed where it is fixed; `rendered` says where it is in the output. */
  readonly findings: readonly Finding[];
  /** The rendered output, as checked, and as parsed for it (for the editor's lenses and hovers). */
  readonly rendered: string;
  readonly manifest: Manifest;
  /** Where each probe is written, when asked (`placeProbes`); probes placed only at their workload are absent. */
  readonly probes: readonly PlacedProbe[];
}

/** The release name a chart is rendered with when none is given (helm's own examples use it). */
export const DEFAULT_RELEASE = 'release-name';

/**
 * Renders a chart with helm and checks the output as one set of manifests (a Service and the
 * Deployment it selects, together), then places every finding where the user fixes it.
 */
export async function checkChart(root: string, options: ChartOptions): Promise<RenderOutcome<CheckedRender>> {
  const read: ReadText = (file) => options.unsaved?.get(file) ?? diskText(file);
  const minorVersion = options.minorVersion ?? DEFAULT_MINOR_VERSION;
  const request = (chartRoot: string, extraValues: readonly string[] = []): ChartRequest => ({
    root: chartRoot,
    release: options.release ?? DEFAULT_RELEASE,
    ...(options.namespace ? { namespace: options.namespace } : {}),
    valuesFiles: [...(options.valuesFiles ?? []), ...extraValues],
    set: options.set ?? [],
    setString: options.setString ?? [],
    apiVersions: options.apiVersions ?? [],
    minorVersion,
  });
  const bounds = options.bounds ?? DEFAULT_RENDER_BOUNDS;
  const renderWith = async (replaced: ReadonlyMap<string, string>, extraValues?: Record<string, unknown>): Promise<RenderOutcome<string>> => {
    const unsaved = new Map([...(options.unsaved ?? new Map<string, string>()), ...replaced]);
    let copy: ReturnType<typeof copyChart> | undefined;
    let values: ReturnType<typeof writeValuesFile> | undefined;
    try {
      copy = unsaved.size > 0 ? copyChart(root, unsaved) : undefined;
      values = extraValues ? writeValuesFile(extraValues) : undefined;
      const valuesFiles = (options.valuesFiles ?? []).map((f) => (copy && !relative(root, f).startsWith('..') ? join(copy.root, relative(root, f)) : f));
      const outcome = await options.helm.template({ ...request(copy?.root ?? root), valuesFiles: [...valuesFiles, ...(values ? [values.file] : [])] }, bounds, options.signal);
      return outcome.ok || !copy ? outcome : { ok: false, failure: inOriginal(outcome.failure, copy.original) };
    } catch (error) {
      return { ok: false, failure: { kind: 'unreadable', message: `the chart could not be copied to render it: ${error instanceof Error ? error.message : String(error)}`, file: root } };
    } finally {
      copy?.dispose();
      values?.dispose();
    }
  };

  const rendered = await renderWith(new Map());
  if (!rendered.ok) return rendered;
  const renderedName = `${root} (rendered)`;
  const manifest = parseManifest(rendered.value, { minorVersion, ...(options.limits ? { limits: options.limits } : {}) });
  const [findings = []] = checkManifests([{ file: renderedName, manifest }], options);
  const tree = chartTree(root);
  const values = chartValues(tree, options.valuesFiles ?? [], read);
  const documents = renderedDocuments(rendered.value);
  const questions = options.placeProbes ? probeQuestions(manifest, renderedName) : [];
  options.memo?.use(JSON.stringify([request(root), templateTexts(tree, read)]));
  const placed = await placeFindings({
    findings: [...findings, ...questions],
    renderedText: rendered.value,
    documents,
    values,
    scopeOf: (doc) => {
      const found = doc.source ? chartOfTemplate(tree, doc.source) : undefined;
      if (!found || !doc.source) return undefined;
      const file = join(found.node.chart.root, found.relative);
      const text = read(file);
      const template: SourceText | undefined = text === undefined ? undefined : { role: 'template', file, text };
      return { prefix: found.node.prefix, excluded: subchartPrefixes(found.node), ...(template ? { template } : {}) };
    },
    render: (changes: ProofChanges) => renderWith(changes.templates, changes.values),
    sourceNoun: 'chart',
    ...(options.memo ? { memo: options.memo } : {}),
  });
  return { ok: true, value: { findings: placed.filter((f) => !isProbeQuestion(f)), rendered: rendered.value, manifest, probes: probePlacesOf(placed) } };
}

/**
 * The texts of every template of the chart and its subcharts (helpers included): what decides a
 * proof besides its candidates, so a change to any of them forgets the remembered proofs.
 */
function templateTexts(tree: ChartNode, read: ReadText): string[] {
  const texts: string[] = [];
  const visit = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true }).map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.endsWith('/')) {
        if (depth < 8) visit(join(dir, name), depth + 1);
      } else texts.push(name, read(join(dir, name)) ?? '');
    }
  };
  const walk = (node: ChartNode): void => {
    visit(join(node.chart.root, 'templates'), 0);
    node.subcharts.forEach(walk);
  };
  walk(tree);
  return texts;
}
