import { relative } from 'node:path';
import { type CheckOptions, checkManifests } from './check';
import { DEFAULT_MINOR_VERSION, parseManifest } from './manifest';
import type { CheckedRender } from './checkChart';
import { diskText, type ReadText } from './render/files';
import { DEFAULT_RENDER_BOUNDS, inOriginal, type RenderBounds, type RenderOutcome } from './render/failure';
import type { Kustomize } from './render/kustomize/kustomize';
import { copyOverlay, type OverlayCopy } from './render/kustomize/overlayCopy';
import { type OverlayGraph, readOverlayGraph } from './render/kustomize/overlayGraph';
import { type DocumentOrigin, overlayOrigins } from './render/kustomize/origins';
import type { SourceText } from './render/placement/candidates';
import { placeFindings } from './render/placement/place';
import type { ProofMemo } from './render/placement/proofMemo';
import { isProbeQuestion, probePlacesOf, probeQuestions } from './render/placement/probePlaces';
import { ValuesLayers } from './render/placement/valuesLayers';
import { type RenderedDocument, renderedDocuments } from './render/renderedDocuments';
import { isKustomizationFile } from './render/renderSource';
import type { Finding } from './rules/types';

export interface OverlayOptions extends Omit<CheckOptions, 'file'> {
  readonly kustomize: Kustomize;
  readonly bounds?: RenderBounds;
  /** Unsaved texts by absolute path: built from a copy of the overlay holding them. */
  readonly unsaved?: ReadonlyMap<string, string>;
  readonly signal?: AbortSignal;
  /** Also place every probe (the editor's timing lenses), in the same proof build as the findings. */
  readonly placeProbes?: boolean;
  /** Proofs kept between builds of this overlay (the editor's). */
  readonly memo?: ProofMemo;
}

/**
 * Builds an overlay with kustomize and checks the output as one set of manifests, then places
 * every finding where the user fixes it: the literal in the resource file or the patch a proof
 * build showed to write the field, else the workload's line in its resource file.
 */
export async function checkOverlay(root: string, options: OverlayOptions): Promise<RenderOutcome<CheckedRender>> {
  const read: ReadText = (file) => options.unsaved?.get(file) ?? diskText(file);
  const graphRead = readOverlayGraph(root, read);
  if (!graphRead.ok) return graphRead;
  const graph = graphRead.value;
  const bounds = options.bounds ?? DEFAULT_RENDER_BOUNDS;

  /** Builds the overlay, from a copy when some of its files are replaced; failures placed in the user's files. */
  const buildWith = async <T>(replaced: ReadonlyMap<string, string>, build: (dir: string) => Promise<RenderOutcome<T>>, fromCopy: (value: T, copy: OverlayCopy) => T = (v) => v): Promise<RenderOutcome<T>> => {
    const texts = new Map([...(options.unsaved ?? new Map<string, string>()), ...replaced]);
    const inGraph = [...texts.keys()].some((file) => graph.files.includes(file));
    if (!inGraph) return build(graph.root);
    let copy: OverlayCopy | undefined;
    try {
      copy = copyOverlay(graph, texts);
      const built = await build(copy.root);
      return built.ok ? { ok: true, value: fromCopy(built.value, copy) } : { ok: false, failure: inOriginal(built.failure, copy.original) };
    } catch (error) {
      return { ok: false, failure: { kind: 'unreadable', message: `the overlay could not be copied to build it: ${error instanceof Error ? error.message : String(error)}`, file: root } };
    } finally {
      copy?.dispose();
    }
  };

  const built = await buildWith(new Map(), (dir) => options.kustomize.build(dir, bounds, options.signal));
  if (!built.ok) return built;
  const renderedName = `${root} (rendered)`;
  const manifest = parseManifest(built.value, { minorVersion: options.minorVersion ?? DEFAULT_MINOR_VERSION, ...(options.limits ? { limits: options.limits } : {}) });
  const [findings = []] = checkManifests([{ file: renderedName, manifest }], options);
  const questions = options.placeProbes ? probeQuestions(manifest, renderedName) : [];
  if (findings.length + questions.length === 0) return { ok: true, value: { findings, rendered: built.value, manifest, probes: [] } };
  // Where each document came from costs one more build: asked only when there is something to place.
  const origins = await buildWith(new Map(), (dir) => overlayOrigins(options.kustomize, dir, bounds, options.signal), (found, copy) => found.map((o) => originalOrigin(o, copy)));
  const documents = renderedDocuments(built.value);
  const originByDoc = new Map<number, DocumentOrigin>();
  for (const doc of documents) {
    const origin = origins.ok ? matchOrigin(origins.value, doc) : undefined;
    if (origin) originByDoc.set(doc.index, origin);
  }
  options.memo?.use(JSON.stringify([graph.root, graph.files.filter(isKustomizationFile).map((file) => [file, read(file) ?? ''])]));
  const placed = await placeFindings({
    findings: [...findings, ...questions],
    renderedText: built.value,
    documents,
    values: new ValuesLayers([]),
    scopeOf: (doc) => {
      const origin = originByDoc.get(doc.index);
      const text = origin?.file ? read(origin.file) : undefined;
      if (!origin?.file || text === undefined) return undefined;
      const template: SourceText = { role: 'resource', file: origin.file, text };
      return { prefix: [], excluded: [], template, patches: patchesFor(graph, origin, read) };
    },
    render: (changes) => buildWith(changes.templates, (dir) => options.kustomize.build(dir, bounds, options.signal)),
    sourceNoun: 'overlay',
    ...(options.memo ? { memo: options.memo } : {}),
  });
  const shown = placed.filter((f) => !isProbeQuestion(f)).map((f) => withSource(f, originByDoc, root));
  return { ok: true, value: { findings: shown, rendered: built.value, manifest, probes: probePlacesOf(placed) } };
}


/** The patch files the kustomizations that changed the document apply, in the order applied. */
function patchesFor(graph: OverlayGraph, origin: DocumentOrigin, read: ReadText): SourceText[] {
  // kustomize applies a base's transformers before its overlay's: the deepest configuredIn first.
  return origin.configuredIn.flatMap((kustomization) =>
    (graph.patchesOf.get(kustomization) ?? []).flatMap((file) => {
      const text = read(file);
      return text === undefined ? [] : [{ role: 'patch' as const, file, text }];
    }),
  );
}

/** The wrapper's build has the same documents in the same order, annotated: matched by kind and name. */
function matchOrigin(origins: readonly DocumentOrigin[], doc: RenderedDocument): DocumentOrigin | undefined {
  const same = (o: DocumentOrigin | undefined) => o !== undefined && o.kind === doc.kind && o.name === doc.name;
  const byIndex = origins[doc.index];
  if (same(byIndex)) return byIndex;
  const matches = origins.filter(same);
  return matches.length === 1 ? matches[0] : undefined;
}

/** kustomize writes no `# Source:`: the rendered location names the resource file instead, relative to the overlay. */
function withSource(f: Finding, originByDoc: ReadonlyMap<number, DocumentOrigin>, root: string): Finding {
  const file = f.rendered ? originByDoc.get(f.rendered.doc)?.file : undefined;
  if (!f.rendered || !file) return f;
  return { ...f, rendered: { ...f.rendered, source: relative(root, file).split('\\').join('/') } };
}

function originalOrigin(origin: DocumentOrigin, copy: OverlayCopy): DocumentOrigin {
  return { ...origin, ...(origin.file ? { file: copy.original(origin.file) } : {}), configuredIn: origin.configuredIn.map((f) => copy.original(f)) };
}
