import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { isMap, isScalar, type Node, parse, parseAllDocuments } from 'yaml';
import type { RenderBounds, RenderOutcome } from '../failure';
import { removeLater } from '../files';
import type { Kustomize } from './kustomize';

/**
 * Where each document of an overlay's build came from, in kustomize's own words: the build of a
 * wrapper kustomization that names the overlay as its one resource and asks for `buildMetadata:
 * [originAnnotations, transformerAnnotations]`. kustomize then annotates each resource with the
 * file it was read from and the kustomizations whose transformers (patches among them) changed
 * it. The overlay itself is not touched; the wrapper changes nothing but the annotations.
 */
export interface DocumentOrigin {
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
  /** The resource file (absolute), when kustomize read it from one (not a generator's). */
  readonly file?: string;
  /** Kustomization files (absolute) whose transformers changed the document, in the order applied. */
  readonly configuredIn: readonly string[];
}

export async function overlayOrigins(kustomize: Kustomize, overlayDir: string, bounds: RenderBounds, signal?: AbortSignal): Promise<RenderOutcome<DocumentOrigin[]>> {
  const wrapper = mkdtempSync(join(tmpdir(), 'probe-lens-origins-'));
  try {
    // kustomize takes no absolute path to a base ("new root cannot be absolute"): a relative one.
    const base = relative(wrapper, resolve(overlayDir)).split('\\').join('/');
    writeFileSync(join(wrapper, 'kustomization.yaml'), `resources:\n- ${JSON.stringify(base)}\nbuildMetadata: [originAnnotations, transformerAnnotations]\n`);
    const built = await kustomize.build(wrapper, bounds, signal);
    if (!built.ok) return built;
    return { ok: true, value: parseAllDocuments(built.value).flatMap((doc) => (doc.contents ? [originOf(doc.contents as Node, wrapper)] : [])) };
  } finally {
    removeLater(wrapper);
  }
}

function originOf(root: Node, wrapper: string): DocumentOrigin {
  const metadata = isMap(root) ? (root.get('metadata', true) as Node | undefined) : undefined;
  const field = (node: Node | undefined, key: string) => {
    const value = isMap(node) ? node.get(key, true) : undefined;
    return isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
  };
  const annotations = isMap(metadata) ? (metadata.get('annotations', true) as Node | undefined) : undefined;
  const origin = readYaml(field(annotations, 'config.kubernetes.io/origin'));
  const transformations = readYaml(field(annotations, 'alpha.config.kubernetes.io/transformations'));
  const originPath = origin && typeof origin === 'object' && !Array.isArray(origin) && typeof (origin as { path?: unknown }).path === 'string' && !(origin as { repo?: unknown }).repo ? ((origin as { path: string }).path) : undefined;
  const configuredIn = Array.isArray(transformations)
    ? transformations.flatMap((t) => (t && typeof t === 'object' && typeof (t as { configuredIn?: unknown }).configuredIn === 'string' ? [resolve(wrapper, (t as { configuredIn: string }).configuredIn)] : []))
    : [];
  const kind = field(root, 'kind');
  const name = field(metadata, 'name');
  const namespace = field(metadata, 'namespace');
  return { ...(kind ? { kind } : {}), ...(name ? { name } : {}), ...(namespace ? { namespace } : {}), ...(originPath ? { file: resolve(wrapper, originPath) } : {}), configuredIn: [...new Set(configuredIn)] };
}

function readYaml(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

