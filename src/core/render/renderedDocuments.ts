import { isMap, isScalar, type Node } from 'yaml';
import { DEFAULT_LIMITS } from '../manifest/limits';
import { readYamlFile } from '../manifest/yamlFile';
import type { Range } from '../text/range';

/**
 * A renderer's output cut into its documents, numbered as the checker numbers them (a
 * finding's `doc`), each with the template helm says it came from (`# Source:`) and an identity
 * that survives a second render with other values: (source, kind, n-th of that kind there).
 */
export interface RenderedDocument {
  readonly index: number;
  readonly root: Node | undefined;
  readonly range: Range;
  /** `web/templates/deployment.yaml`, from helm's `# Source:` comment; kustomize writes none. */
  readonly source?: string;
  readonly kind?: string;
  readonly name?: string;
  /** Which document of this kind from this source it is (0 for the first). */
  readonly ordinal: number;
  /** Offsets of the output → positions in it. */
  rangeOf(start: number, end: number): Range;
}

const SOURCE_COMMENT = /^# Source: (.+?)\s*$/;

export function renderedDocuments(text: string): RenderedDocument[] {
  const sources = sourceLines(text);
  const counts = new Map<string, number>();
  const { documents } = readYamlFile(text, DEFAULT_LIMITS, (source, yaml, file) => {
    const root = (yaml?.contents ?? undefined) as Node | undefined;
    const origin = sourceBefore(sources, source.range.start.line);
    const kind = scalarField(root, 'kind');
    const name = isMap(root) ? scalarField(root.get('metadata', true) as Node | undefined, 'name') : undefined;
    const identity = `${origin ?? ''}\u0000${kind ?? ''}`;
    const ordinal = counts.get(identity) ?? 0;
    counts.set(identity, ordinal + 1);
    return {
      index: source.index,
      root,
      range: source.range,
      ...(origin ? { source: origin } : {}),
      ...(kind ? { kind } : {}),
      ...(name ? { name } : {}),
      ordinal,
      rangeOf: (start: number, end: number) => file.rangeOf(start, end),
    };
  });
  return documents;
}

/** The same document in another render of the same chart. */
export function sameRenderedDocument(a: RenderedDocument, b: RenderedDocument): boolean {
  return a.source === b.source && a.kind === b.kind && a.ordinal === b.ordinal;
}

/** 0-based line → the template named there, for every `# Source:` line. */
function sourceLines(text: string): { line: number; source: string }[] {
  const found: { line: number; source: string }[] = [];
  let line = 0;
  for (let at = 0; at < text.length; line++) {
    const end = text.indexOf('\n', at);
    const stop = end < 0 ? text.length : end;
    if (text.startsWith('# Source: ', at)) {
      const match = SOURCE_COMMENT.exec(text.slice(at, stop));
      if (match) found.push({ line, source: match[1] as string });
    }
    at = stop + 1;
  }
  return found;
}

/**
 * helm writes `---`, then `# Source: …`, then the document. The document's range may start at
 * the `---`, the comment or its first key: the last Source line up to two lines after its start.
 */
function sourceBefore(sources: readonly { line: number; source: string }[], line: number): string | undefined {
  let found: string | undefined;
  for (const s of sources) {
    if (s.line > line + 2) break;
    found = s.source;
  }
  return found;
}

function scalarField(node: Node | undefined, key: string): string | undefined {
  if (!isMap(node)) return undefined;
  const value = node.get(key, true);
  return isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
}
