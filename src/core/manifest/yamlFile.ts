import { Composer, type CST, type Document, isAlias, LineCounter, type Node, Parser, visit } from 'yaml';
import type { Range } from '../text/range';
import type { ManifestLimits } from './limits';

/** One YAML document of a file, with its position among the file's non-empty documents. */
export interface SourceDocument {
  /** 0-based index among non-empty documents: the `doc` of a finding. */
  readonly index: number;
  readonly range: Range;
  /** Helm or another template language: `{{ … }}` makes the text not the manifest. */
  readonly templated: boolean;
  /** Syntax errors: when present the document is not validated further. */
  readonly errors: readonly YamlProblem[];
  readonly warnings: readonly YamlProblem[];
  /** The document was not parsed at all: a limit was hit before composing it (Y02). */
  readonly limitHit?: YamlProblem;
}

export interface YamlProblem {
  readonly message: string;
  readonly range: Range;
}

/** The text being read, and how to turn its offsets into positions. */
export interface YamlText {
  readonly text: string;
  rangeOf(start: number, end: number): Range;
}

export interface YamlFile extends YamlText {
  /** A limit that stopped reading the file early (Y02), if any. */
  readonly limitHit?: YamlProblem & { readonly docIndex: number };
}

/** What to make of each document while its syntax tree is at hand; the tree is dropped afterwards. */
export type DocumentReader<T> = (source: SourceDocument, yaml: Document.Parsed, file: YamlText) => T;

/**
 * Kubernetes decodes manifests with go-yaml v2, a YAML 1.1 reader: `yes`/`no` are booleans,
 * `0755` is octal and `<<` merges. The `yaml` package's 1.1 mode reads them the same way.
 * Duplicate keys are found by `inspectDocument` instead, in linear time.
 */
const YAML_OPTIONS = { version: '1.1', prettyErrors: false, uniqueKeys: false } as const;

const TEMPLATE_EXPRESSION = /\{\{[\s\S]*?\}\}/;

/**
 * Reads every document of `text`, handing each to `read` as soon as it is composed, so no more
 * than one syntax tree is alive at a time (a file's worth of them makes the garbage collector's
 * work grow faster than the file). Never throws: syntax errors are values on their document, and
 * a limit stops reading with `limitHit` set.
 */
export function readYamlFile<T>(text: string, limits: ManifestLimits, read: DocumentReader<T>): { file: YamlFile; documents: T[] } {
  const lineCounter = countLines(text);
  const clamp = (offset: number) => Math.min(Math.max(0, offset), text.length);
  const rangeOf = (start: number, end: number): Range => ({
    start: positionAt(lineCounter, clamp(start)),
    end: positionAt(lineCounter, clamp(Math.max(start, end))),
  });
  if (text.length > limits.maxFileChars) {
    const megabytes = (n: number) => (n / (1024 * 1024)).toFixed(1);
    return {
      documents: [],
      file: {
        text,
        rangeOf,
        limitHit: {
          docIndex: 0,
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          message: `file not checked: ${megabytes(text.length)} MB is more than the ${megabytes(limits.maxFileChars)} MB Probe Lens reads`,
        },
      },
    };
  }

  const documents: T[] = [];
  const source: YamlText = { text, rangeOf };
  let limitHit: YamlFile['limitHit'];
  const parser = new Parser();
  const composer = new Composer(YAML_OPTIONS);

  const accept = (yaml: Document.Parsed): boolean => {
    const [start, , end] = yaml.range;
    const refusal = refused.get(start);
    if (!refusal && isEmptyDocument(yaml)) return true;
    if (documents.length >= limits.maxDocuments) {
      limitHit = {
        docIndex: documents.length,
        range: rangeOf(start, start),
        message: `only the first ${limits.maxDocuments} documents were checked; this one and the rest were not`,
      };
      return false;
    }
    const documentText = text.slice(start, end);
    const templated = TEMPLATE_EXPRESSION.test(documentText);
    const toProblem = (e: { message: string; pos: [number, number] }): YamlProblem => ({ message: e.message, range: rangeOf(e.pos[0], e.pos[1]) });
    const extra = [...(documentText.includes('*') ? unknownAnchors(yaml) : []), ...controlCharacters(documentText, start)].map(toProblem);
    const document: SourceDocument = {
      index: documents.length,
      range: rangeOf(start, end),
      templated,
      errors: [...yaml.errors.map(toProblem), ...extra, ...(duplicateKeys.get(start) ?? [])],
      warnings: yaml.warnings.map(toProblem),
      ...(refusal ? { limitHit: refusal } : {}),
    };
    documents.push(read(document, yaml, source));
    return true;
  };

  // Each document's CST is inspected before the composer sees it: the composer recurses per
  // nesting level, and `yaml`'s own duplicate-key check is quadratic in a map's size.
  const refused = new Map<number, YamlProblem>();
  const duplicateKeys = new Map<number, YamlProblem[]>();
  read: {
    for (const token of parser.parse(text)) {
      let composed = token;
      if (token.type === 'document') {
        const shape = inspectDocument(token, limits.maxNesting);
        if (shape.tooDeepAt !== undefined) {
          refused.set(token.offset, { range: rangeOf(shape.tooDeepAt, shape.tooDeepAt + 1), message: `document not checked: it nests deeper than ${limits.maxNesting} levels` });
          composed = { ...token, value: undefined };
        }
        if (shape.duplicates.length > 0) duplicateKeys.set(token.offset, shape.duplicates.map((d) => duplicateProblem(d, rangeOf)));
      }
      for (const yaml of composer.next(composed)) if (!accept(yaml)) break read;
    }
    for (const yaml of composer.end(false, text.length)) if (!accept(yaml)) break read;
  }
  return { documents, file: limitHit ? { text, rangeOf, limitHit } : { text, rangeOf } };
}

/**
 * go-yaml refuses an alias whose anchor is not defined before it (`unknown anchor 'x'
 * referenced`); the `yaml` package only notices when converting to JS, which Probe Lens avoids.
 */
function unknownAnchors(yaml: Document.Parsed): { message: string; pos: [number, number] }[] {
  const anchors = new Map<string, number>();
  const errors: { message: string; pos: [number, number] }[] = [];
  visit(yaml, (_key, node) => {
    // A pair without a value (`{name, image}`) is visited with a null node.
    if (node === null || typeof node !== 'object') return;
    const start = (node as Node).range?.[0] ?? 0;
    if (isAlias(node)) {
      const defined = anchors.get(node.source);
      if (defined === undefined || defined > start) errors.push({ message: `unknown anchor '${node.source}' referenced`, pos: [start, (node.range?.[1] ?? start)] });
      return;
    }
    const anchor = (node as { anchor?: unknown }).anchor;
    if (typeof anchor === 'string' && !anchors.has(anchor)) anchors.set(anchor, start);
  });
  return errors;
}

interface DocumentShape {
  /** Offset of a node nested deeper than the limit, if any. */
  readonly tooDeepAt?: number;
  readonly duplicates: readonly { readonly key: string; readonly at: number; readonly length: number; readonly first: number }[];
}

/**
 * One walk over a document's CST, with an explicit stack (the CST is built iteratively, so this
 * is safe at any depth): how deep it nests, and which mapping keys repeat (go-yaml refuses those).
 */
function inspectDocument(document: CST.Document, maxNesting: number): DocumentShape {
  const duplicates: { key: string; at: number; length: number; first: number }[] = [];
  const stack: { token: CST.Token; depth: number }[] = document.value ? [{ token: document.value, depth: 1 }] : [];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { token, depth } = next;
    if (depth > maxNesting) return { tooDeepAt: (token as { offset: number }).offset, duplicates };
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    const isMap = token.type === 'block-map' || (token.type === 'flow-collection' && token.start.source === '{');
    const seen = isMap ? new Map<string, number>() : undefined;
    for (const item of token.items as { key?: CST.Token | null; value?: CST.Token }[]) {
      if (item.key) {
        stack.push({ token: item.key, depth: depth + 1 });
        const key = seen && plainKey(item.key);
        if (key !== undefined && seen) {
          const first = seen.get(key);
          if (first === undefined) seen.set(key, item.key.offset);
          else duplicates.push({ key, at: item.key.offset, length: (item.key as CST.FlowScalar).source.length, first });
        }
      }
      if (item.value) stack.push({ token: item.value, depth: depth + 1 });
    }
  }
  return { duplicates };
}

/** A scalar key's value, for duplicate detection; complex keys, aliases and merges are left out. */
function plainKey(token: CST.Token): string | undefined {
  switch (token.type) {
    case 'scalar':
      return token.source === '<<' ? undefined : token.source;
    case 'single-quoted-scalar':
      return token.source.slice(1, -1).replace(/''/g, "'");
    case 'double-quoted-scalar':
      try {
        return JSON.parse(token.source) as string;
      } catch {
        return token.source.slice(1, -1);
      }
    default:
      return undefined;
  }
}

function duplicateProblem(duplicate: DocumentShape['duplicates'][number], rangeOf: YamlFile['rangeOf']): YamlProblem {
  const firstLine = rangeOf(duplicate.first, duplicate.first).start.line + 1;
  return { range: rangeOf(duplicate.at, duplicate.at + duplicate.length), message: `key ${JSON.stringify(duplicate.key)} already set in map (first on line ${firstLine})` };
}

const CONTROL_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** go-yaml refuses control characters other than tab and line breaks anywhere in the text. */
function controlCharacters(source: string, start: number): { message: string; pos: [number, number] }[] {
  const match = CONTROL_CHARACTER.exec(source);
  if (!match) return [];
  const code = match[0].charCodeAt(0).toString(16).padStart(4, '0');
  return [{ message: `control characters are not allowed (U+${code})`, pos: [start + match.index, start + match.index + 1] }];
}

/** kubectl skips documents that hold nothing (`---` runs, comment-only documents, `~`). */
function isEmptyDocument(yaml: Document.Parsed): boolean {
  if (yaml.errors.length > 0) return false;
  const contents = yaml.contents as { value?: unknown; items?: unknown } | null;
  return contents === null || (contents.items === undefined && contents.value === null);
}

/**
 * Line starts from the text itself, breaking at `\n`, `\r\n` and a lone `\r` as editors do. (The
 * parser's own newline callback misses the breaks inside a multi-line error token, which would
 * shift every later position.)
 */
function countLines(text: string): LineCounter {
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) lineCounter.addNewLine(i + 1);
  }
  return lineCounter;
}

function positionAt(lineCounter: LineCounter, offset: number) {
  const { line, col } = lineCounter.linePos(offset);
  return { line: line - 1, character: col - 1 };
}
