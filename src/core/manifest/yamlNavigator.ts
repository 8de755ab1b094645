import { type Document, isAlias, isMap, isScalar, isSeq, type Node, type Scalar, visit, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Range } from '../text/range';
import type { ManifestLimits } from './limits';
import type { YamlText } from './yamlFile';

export type ValueNode = Scalar | YAMLMap | YAMLSeq;

export interface MapEntry {
  readonly key: string;
  readonly keyRange: Range;
  /** `null` for `key:` with nothing after it. */
  readonly value: ValueNode | null;
}

/** Visits left for the whole file: many small alias bombs must not add up to a long wait. */
export interface FileBudget {
  remaining: number;
}

/**
 * Walks one document's nodes as Kubernetes sees them: aliases replaced by their anchors and `<<`
 * merge keys expanded. Every node it hands out is counted; past the document's budget (an alias
 * bomb, a self-referencing alias) it hands out nothing more and remembers where that happened.
 */
export class YamlNavigator {
  private anchors: Map<string, { offset: number; node: ValueNode }[]> | undefined;
  private visits = 0;
  private exhausted: { range: Range; reason: string } | undefined;

  constructor(
    private readonly file: YamlText,
    private readonly doc: Document.Parsed,
    private readonly limits: ManifestLimits,
    private readonly budget: FileBudget,
  ) {}

  /** Set once a limit was hit: everything decoded after that point is incomplete. */
  get limitHit(): { range: Range; reason: string } | undefined {
    return this.exhausted;
  }

  get root(): ValueNode | null {
    return this.resolve(this.doc.contents, 0);
  }

  /** The node's text, without the line break and indentation a block collection ends with. */
  rangeOf(node: Node): Range {
    const [start, valueEnd] = node.range ?? [0, 0];
    const text = this.file.text;
    let end = valueEnd;
    while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
    return this.file.rangeOf(start, end);
  }

  /** The node an alias stands for (or the node itself), `null` when out of budget or absent. */
  resolve(node: unknown, depth: number): ValueNode | null {
    if (node === null || node === undefined || !this.spend(node as Node, depth)) return null;
    if (isAlias(node)) {
      const target = this.anchorFor(node.source, node.range?.[0] ?? 0);
      return target === null ? null : this.resolve(target, depth + 1);
    }
    return node as ValueNode;
  }

  /**
   * A map's entries as go-yaml v2 builds them: pairs and merges applied in document order, the
   * last write of a key winning (a repeated key, or a `<<` after an explicit key, overrides it);
   * in a `<<: [*a, *b]` list the earlier source wins. Entries keep the order keys first appeared.
   */
  entries(map: YAMLMap, depth: number): MapEntry[] {
    const entries = new Map<string, MapEntry>();
    for (const pair of map.items) {
      const keyNode = pair.key as Node | null;
      if (isMergeKey(keyNode)) {
        for (const source of this.mergeSources(pair.value, depth + 1).reverse()) {
          for (const entry of this.entries(source, depth + 1)) entries.set(entry.key, entry);
        }
        continue;
      }
      const key = keyText(keyNode);
      if (key === undefined || !this.spend(keyNode as Node, depth)) continue;
      entries.set(key, { key, keyRange: this.rangeOf(keyNode as Node), value: this.resolve(pair.value, depth + 1) });
    }
    return [...entries.values()];
  }

  items(seq: YAMLSeq, depth: number): (ValueNode | null)[] {
    return seq.items.map((item) => this.resolve(item, depth + 1));
  }

  /** Looks up one key of a map (its last write, as `entries` says), without decoding the others. */
  get(node: ValueNode | null, key: string, depth: number): MapEntry | undefined {
    if (!isMap(node)) return undefined;
    for (let i = node.items.length - 1; i >= 0; i--) {
      const keyNode = (node.items[i] as { key: unknown }).key as Node | null;
      if (isMergeKey(keyNode)) return this.entries(node, depth).find((e) => e.key === key);
      if (keyText(keyNode) === key) {
        if (!this.spend(keyNode as Node, depth)) return undefined;
        return { key, keyRange: this.rangeOf(keyNode as Node), value: this.resolve((node.items[i] as { value: unknown }).value, depth + 1) };
      }
    }
    return undefined;
  }

  private mergeSources(value: unknown, depth: number): YAMLMap[] {
    const resolved = this.resolve(value, depth);
    if (isMap(resolved)) return [resolved];
    if (isSeq(resolved)) return this.items(resolved, depth).filter((n): n is YAMLMap => isMap(n));
    return [];
  }

  private spend(node: Node, depth: number): boolean {
    if (this.exhausted) return false;
    this.visits++;
    if (--this.budget.remaining < 0) {
      this.exhausted = {
        range: this.rangeOf(node),
        reason: `file not fully checked: more than ${this.limits.maxNodeVisitsPerFile} nodes visited once aliases are expanded (alias bombs?); this document and the rest were not checked`,
      };
      return false;
    }
    if (this.visits > this.limits.maxNodeVisitsPerDocument) {
      this.exhausted = {
        range: this.rangeOf(node),
        reason: `document not fully checked: more than ${this.limits.maxNodeVisitsPerDocument} nodes once aliases are expanded (an alias bomb?)`,
      };
      return false;
    }
    if (depth > this.limits.maxDepth) {
      this.exhausted = {
        range: this.rangeOf(node),
        reason: `document not fully checked: nesting deeper than ${this.limits.maxDepth} levels (a self-referencing alias?)`,
      };
      return false;
    }
    return true;
  }

  /** YAML resolves an alias to the last anchor of that name before it. */
  private anchorFor(name: string, offset: number): ValueNode | null {
    if (!this.anchors) this.anchors = collectAnchors(this.doc);
    let found: ValueNode | null = null;
    for (const anchor of this.anchors.get(name) ?? []) {
      if (anchor.offset >= offset) break;
      found = anchor.node;
    }
    return found;
  }
}

function collectAnchors(doc: Document.Parsed): Map<string, { offset: number; node: ValueNode }[]> {
  const anchors = new Map<string, { offset: number; node: ValueNode }[]>();
  visit(doc, (_key, node) => {
    // A pair without a value (`{name, image}`) is visited with a null node.
    if (node === null || typeof node !== 'object') return;
    const anchored = node as Partial<ValueNode>;
    if (typeof anchored.anchor === 'string' && (isScalar(node) || isMap(node) || isSeq(node))) {
      const list = anchors.get(anchored.anchor) ?? [];
      list.push({ offset: node.range?.[0] ?? 0, node });
      anchors.set(anchored.anchor, list);
    }
  });
  return anchors;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** In YAML 1.1 mode the `yaml` package reads `<<` as a merge-key symbol. */
function isMergeKey(key: Node | null): boolean {
  return isScalar(key) && (typeof key.value === 'symbol' || (key.value === '<<' && key.type === 'PLAIN'));
}

/** Keys as sigs.k8s.io/yaml turns them into JSON object keys. */
function keyText(key: Node | null): string | undefined {
  if (!isScalar(key)) return undefined;
  const value = key.value;
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return key.source ?? undefined;
}
