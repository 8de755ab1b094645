import { isMap, type Node } from 'yaml';
import type { RenderedDocument } from '../renderedDocuments';
import { type KeyPath, nodeAt, parseFieldPath, type Traceable, traceable } from './yamlTree';

/**
 * What a finding on rendered output is about, as something a source can have set:
 *  - a value (`livenessProbe.periodSeconds: 10`): the values key or template literal that wrote it;
 *  - a probe (a whole probe, or a field it lacks): where the probe is written;
 *  - a container (a probe it lacks): where the container is written;
 *  - the workload, when the path is neither.
 */
export type PlacementTarget =
  | { readonly kind: 'value'; readonly doc: RenderedDocument; readonly path: KeyPath; readonly key: string; readonly value: Traceable }
  | { readonly kind: 'probe'; readonly doc: RenderedDocument; readonly path: KeyPath; readonly key: string }
  | { readonly kind: 'container'; readonly doc: RenderedDocument; readonly path: KeyPath }
  | { readonly kind: 'workload'; readonly doc: RenderedDocument };

export function targetOf(doc: RenderedDocument, fieldPath: string): PlacementTarget {
  const path = parseFieldPath(fieldPath);
  const node = nodeAt(doc.root, path);
  const value = traceable(node);
  const key = lastKey(path);
  if (value !== undefined && key !== undefined) return { kind: 'value', doc, path, key, value };
  return structureTarget(doc, path);
}

/** The nearest probe or container at or above `path` that the rendered document has. */
function structureTarget(doc: RenderedDocument, path: KeyPath): PlacementTarget {
  for (let end = path.length; end > 0; end--) {
    const prefix = path.slice(0, end);
    const last = prefix[prefix.length - 1];
    const node: Node | undefined = nodeAt(doc.root, prefix);
    if (!isMap(node)) continue;
    if (typeof last === 'string' && /Probe$/.test(last)) return { kind: 'probe', doc, path: prefix, key: last };
    if (typeof last === 'number' && /(?:^|\.)(?:containers|initContainers)$/.test(String(prefix[prefix.length - 2]))) return { kind: 'container', doc, path: prefix };
  }
  return { kind: 'workload', doc };
}

/** The last map key of a path (`command` for `exec.command[2]`). */
export function lastKey(path: KeyPath): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return undefined;
}
