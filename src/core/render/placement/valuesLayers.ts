import { type Document, isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { Range } from '../../text/range';
import { type KeyPath, nodeAt, pairAt, rangeOfNode, type TreeNode, walkTree } from './yamlTree';

/**
 * The values a render saw, as layers in helm's order of precedence: a subchart's own
 * values.yaml (under its key in the parent), the chart's values.yaml, then each `-f` file (later
 * wins). Each layer keeps its text, so a value is placed on the line that set it.
 */
export interface ValuesLayer {
  /** Absolute path of the file. */
  readonly file: string;
  readonly text: string;
  /** Where the file's root sits in the parent chart's values (a subchart's key), else empty. */
  readonly prefix: KeyPath;
  readonly root: Node | null;
  readonly lines: LineCounter;
}

export function readValuesLayer(file: string, text: string, prefix: KeyPath = []): ValuesLayer {
  const lines = new LineCounter();
  const doc: Document.Parsed = parseDocument(text, { lineCounter: lines, uniqueKeys: false, version: '1.1' });
  // A values file helm could not read has already failed the render; here it is simply empty.
  const root = doc.errors.length === 0 && (isMap(doc.contents) || isSeq(doc.contents)) ? (doc.contents as Node) : null;
  return { file, text, prefix, root, lines };
}

/** A key a layer writes, placed in that layer's file. */
export interface WrittenKey {
  readonly layer: ValuesLayer;
  /** The path in the parent chart's values (prefix included): what an override names. */
  readonly path: KeyPath;
  readonly node: Node;
  readonly keyRange?: Range;
  readonly valueRange: Range;
}

export class ValuesLayers {
  constructor(readonly layers: readonly ValuesLayer[]) {}

  /** The layer that sets `path` last, and where: the place to change it. */
  setterOf(path: KeyPath): WrittenKey | undefined {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i] as ValuesLayer;
      const local = withoutPrefix(path, layer.prefix);
      if (!local) continue;
      const node = nodeAt(layer.root, local);
      if (!node) continue;
      const pair = pairAt(layer.root, local);
      return { layer, path, node, ...(pair?.key ? { keyRange: rangeOfNode(pair.key as Node, layer.lines) } : {}), valueRange: rangeOfNode(node, layer.lines) };
    }
    return undefined;
  }

  /** Every key every layer writes (the same path may come from several layers). */
  *written(): Generator<WrittenKey> {
    for (const layer of this.layers) {
      const found: TreeNode[] = [];
      walkTree(layer.root, layer.lines, (entry) => void found.push(entry));
      for (const entry of found) {
        if (entry.path.length === 0) continue;
        yield { layer, path: [...layer.prefix, ...entry.path], node: entry.node, ...(entry.keyRange ? { keyRange: entry.keyRange } : {}), valueRange: entry.valueRange };
      }
    }
  }
}

function withoutPrefix(path: KeyPath, prefix: KeyPath): KeyPath | undefined {
  if (prefix.length > path.length || prefix.some((s, i) => path[i] !== s)) return undefined;
  return path.slice(prefix.length);
}
