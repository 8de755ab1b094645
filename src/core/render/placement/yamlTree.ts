import { isMap, isScalar, isSeq, type LineCounter, type Node, type Pair } from 'yaml';
import type { Range } from '../../text/range';

/** A place in a YAML tree: map keys and list indices, as helm's `--set a.b[0].c` names them. */
export type KeyPath = readonly (string | number)[];

/** A scalar the mapping can follow: a number or a non-empty string (booleans steer templates; they are never swapped). */
export type Traceable = number | string;

export interface TreeNode {
  readonly path: KeyPath;
  readonly node: Node;
  /** The key's range (absent for a list item and the root). */
  readonly keyRange?: Range;
  readonly valueRange: Range;
}

/** `spec.template.spec.containers[0].livenessProbe` → its segments; a finding's path, as field.Path writes it. */
export function parseFieldPath(path: string): KeyPath {
  const segments: (string | number)[] = [];
  for (const match of path.matchAll(/\[(\d+)\]|\[([^\]]*)\]|([^.[\]]+)/g)) {
    if (match[1] !== undefined) segments.push(Number(match[1]));
    else if (match[2] !== undefined) segments.push(match[2]);
    else if (match[3] !== undefined) segments.push(match[3]);
  }
  return segments;
}

/** `livenessProbe.exec.command[2]`: helm's `--set` spelling (a dot in a key is escaped). */
export function keyPathText(path: KeyPath): string {
  return path.reduce<string>((text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : `${text}${text ? '.' : ''}${segment.replace(/\./g, '\\.')}`), '');
}

export function sameKeyPath(a: KeyPath, b: KeyPath): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The node at `path` under `root`, or undefined where the path leaves the tree. */
export function nodeAt(root: Node | null | undefined, path: KeyPath): Node | undefined {
  let node: Node | null | undefined = root;
  for (const segment of path) {
    if (isMap(node) && typeof segment === 'string') node = node.get(segment, true) as Node | undefined;
    else if (isSeq(node) && typeof segment === 'number') node = node.items[segment] as Node | undefined;
    else return undefined;
    if (node === undefined || node === null) return undefined;
  }
  return node ?? undefined;
}

/** The pair whose value is at `path` (for the key's range), when the last segment is a key. */
export function pairAt(root: Node | null | undefined, path: KeyPath): Pair | undefined {
  const parent = nodeAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (!isMap(parent) || typeof last !== 'string') return undefined;
  return parent.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === last) as Pair | undefined;
}

/** A scalar worth following, as the value it renders to; anything else is undefined. */
export function traceable(node: Node | undefined): Traceable | undefined {
  if (!isScalar(node)) return undefined;
  const value = node.value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') return value;
  return undefined;
}

/** Every node of a tree with its path, depth first; `visit` returns false to skip a subtree. */
export function walkTree(root: Node | null | undefined, lines: LineCounter, visit: (entry: TreeNode) => boolean | void): void {
  const go = (node: Node, path: KeyPath, keyRange: Range | undefined): void => {
    if (visit({ path, node, ...(keyRange ? { keyRange } : {}), valueRange: rangeOfNode(node, lines) }) === false) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key) || pair.value === null || typeof pair.value !== 'object') continue;
        go(pair.value as Node, [...path, String(pair.key.value)], rangeOfNode(pair.key as Node, lines));
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        if (item !== null && typeof item === 'object') go(item as Node, [...path, i], undefined);
      });
    }
  };
  if (root) go(root, [], undefined);
}

export function rangeOfNode(node: Node, lines: LineCounter): Range {
  const [start, end] = node.range ?? [0, 0];
  return { start: positionOf(start, lines), end: positionOf(end, lines) };
}

function positionOf(offset: number, lines: LineCounter): Range['start'] {
  const { line, col } = lines.linePos(offset);
  return { line: line - 1, character: col - 1 };
}
