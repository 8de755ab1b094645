import { Composer, type CST, type Document, isAlias, LineCounter, type Node, Parser, visit } from 'yaml';
import { lineSpans } from '../text/lines';
import type { Range } from '../text/range';
import { type DocumentChunk, splitDocuments } from './documentChunks';
import { relaxIndentation } from './goYamlLeniency';
import type { ManifestLimits } from './limits';
import { findTemplating, holdsNoObject, isOnlyTemplateControl } from './templating';

/** Where a document uses a template language, making its text not the manifest itself. */
export interface TemplateUse {
  /** `{{ }}` (Helm and other Go templates), `{% %}` (Jinja) or `${ }` (envsubst placeholders). */
  readonly syntax: '{{ }}' | '{% %}' | '${ }';
  /** The first template expression, as written. */
  readonly expression: string;
  /** A Helm chart's template (`helm template` renders it). */
  readonly helm?: boolean;
  readonly range: Range;
}

/** One YAML document of a file, with its position among the file's non-empty documents. */
export interface SourceDocument {
  /** 0-based index among non-empty documents: the `doc` of a finding. */
  readonly index: number;
  readonly range: Range;
  /** Helm or another template language: the text is not the manifest, and is not read. */
  readonly templated?: TemplateUse;
  /** Syntax errors: when present the document is not validated further. */
  readonly errors: readonly YamlProblem[];
  /** Keys set more than once: kubectl keeps the last value of each. */
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

/**
 * What to make of each document while its syntax tree is at hand; the tree is dropped afterwards.
 * A templated document has no tree. `text` is the text the tree's offsets refer to.
 */
export type DocumentReader<T> = (source: SourceDocument, yaml: Document.Parsed | undefined, text: YamlText) => T;

/**
 * Kubernetes decodes manifests with go-yaml v2, a YAML 1.1 reader: `yes`/`no` are booleans,
 * `0755` is octal and `<<` merges. The `yaml` package's 1.1 mode reads them the same way.
 * Duplicate keys are found by `inspectDocument` instead, in linear time.
 */
const YAML_OPTIONS = { version: '1.1', prettyErrors: false, uniqueKeys: false } as const;

/** A document as read from its chunk, before it is counted among the file's documents. */
interface ChunkDocument {
  readonly source: Omit<SourceDocument, 'index'>;
  readonly yaml?: Document.Parsed;
  readonly text: YamlText;
}

/**
 * Reads every document of `text`, handing each to `read` as soon as it is composed, so no more
 * than one syntax tree is alive at a time (a file's worth of them makes the garbage collector's
 * work grow faster than the file). The file is read as kubectl reads it: cut at its `---` lines,
 * each piece on its own. Never throws: syntax errors are values on their document, and a limit
 * stops reading with `limitHit` set.
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

  // go-yaml breaks lines at a lone CR, the `yaml` lexer does not; one character for one keeps
  // every offset (and `countLines` already breaks there).
  const normalized = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
  const chunks = splitDocuments(normalized) ?? [{ text: normalized, offset: 0, firstLine: 0 }];
  const documents: T[] = [];
  let limitHit: YamlFile['limitHit'];
  read: for (const chunk of chunks) {
    for (const document of readChunk(chunk, limits, rangeOf)) {
      if (documents.length >= limits.maxDocuments) {
        limitHit = {
          docIndex: documents.length,
          range: { start: document.source.range.start, end: document.source.range.start },
          message: `only the first ${limits.maxDocuments} documents were checked; this one and the rest were not`,
        };
        break read;
      }
      documents.push(read({ ...document.source, index: documents.length }, document.yaml, document.text));
    }
  }
  return { documents, file: limitHit ? { text, rangeOf, limitHit } : { text, rangeOf } };
}

/** The non-empty documents of one chunk; a templated chunk is one document, not parsed. */
function* readChunk(chunk: DocumentChunk, limits: ManifestLimits, fileRangeOf: YamlText['rangeOf']): Generator<ChunkDocument> {
  let text: YamlText = { text: chunk.text, rangeOf: (start, end) => fileRangeOf(chunk.offset + start, chunk.offset + end) };
  const templating = findTemplating(chunk.text);
  if (templating) {
    if (isOnlyTemplateControl(chunk.text) || holdsNoObject(chunk.text)) return;
    const { offset, expression, syntax, helm } = templating;
    const templated = { syntax, expression, ...(helm ? { helm: true } : {}), range: text.rangeOf(offset, offset + expression.length) };
    yield { source: { range: text.rangeOf(0, chunk.text.length), templated, errors: [], warnings: [] }, text };
    return;
  }
  let tokens = Array.from(new Parser().parse(chunk.text));
  const relaxed = relaxIndentation(chunk.text, tokens);
  if (relaxed) {
    const { toOriginal } = relaxed.relaxed;
    tokens = relaxed.tokens;
    text = { text: relaxed.relaxed.text, rangeOf: (start, end) => fileRangeOf(chunk.offset + toOriginal(start), chunk.offset + toOriginal(end)) };
  }
  const composer = new Composer(YAML_OPTIONS);
  const inspected = new Map<number, { refusal?: YamlProblem; duplicates: YamlProblem[] }>();
  const toDocument = (yaml: Document.Parsed): ChunkDocument | undefined => {
    const [start, , end] = yaml.range;
    const { refusal, duplicates = [] } = inspected.get(start) ?? {};
    if (!refusal && isEmptyDocument(yaml)) return undefined;
    const documentText = text.text.slice(start, end);
    const toProblem = (e: { message: string; pos: [number, number] }): YamlProblem => ({ message: e.message, range: text.rangeOf(e.pos[0], e.pos[1]) });
    const extra = [...(documentText.includes('*') ? unknownAnchors(yaml) : []), ...controlCharacters(documentText, start)].map(toProblem);
    const source = {
      range: text.rangeOf(start, end),
      errors: [...yaml.errors.map(toProblem), ...extra],
      // `yaml`'s own warnings (an unresolved `!tag`, a flow end indicator at its parent's
      // column) are about YAML style: go-yaml takes all of them without a word.
      warnings: duplicates,
      ...(refusal ? { limitHit: refusal } : {}),
    };
    return { source, yaml, text };
  };
  // Each document's CST is inspected before the composer sees it: the composer recurses per
  // nesting level, and `yaml`'s own duplicate-key check is quadratic in a map's size.
  for (const token of tokens) {
    let composed = token;
    if (token.type === 'document') {
      const shape = inspectDocument(token, limits.maxNesting);
      const refusal =
        shape.tooDeepAt === undefined ? undefined : { range: text.rangeOf(shape.tooDeepAt, shape.tooDeepAt + 1), message: `document not checked: it nests deeper than ${limits.maxNesting} levels` };
      if (refusal) composed = { ...token, value: undefined };
      inspected.set(token.offset, { ...(refusal ? { refusal } : {}), duplicates: duplicateProblems(shape.duplicates, text.rangeOf) });
    }
    for (const yaml of composer.next(composed)) {
      const document = toDocument(yaml);
      if (document) yield document;
    }
  }
  for (const yaml of composer.end(false, text.text.length)) {
    const document = toDocument(yaml);
    if (document) yield document;
  }
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
  /** Keys set again later in the same map: go-yaml keeps the last value. */
  readonly duplicates: readonly Duplicate[];
}

interface Duplicate {
  readonly key: string;
  /** The overridden occurrence. */
  readonly at: number;
  readonly length: number;
  /** The occurrence that wins. */
  readonly last: number;
}

/**
 * One walk over a document's CST, with an explicit stack (the CST is built iteratively, so this
 * is safe at any depth): how deep it nests, and which mapping keys repeat.
 */
function inspectDocument(document: CST.Document, maxNesting: number): DocumentShape {
  const duplicates: Duplicate[] = [];
  const stack: { token: CST.Token; depth: number }[] = document.value ? [{ token: document.value, depth: 1 }] : [];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { token, depth } = next;
    if (depth > maxNesting) return { tooDeepAt: (token as { offset: number }).offset, duplicates };
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    const isMap = token.type === 'block-map' || (token.type === 'flow-collection' && token.start.source === '{');
    const seen = isMap ? new Map<string, CST.Token[]>() : undefined;
    for (const item of token.items as { key?: CST.Token | null; value?: CST.Token }[]) {
      if (item.key) {
        stack.push({ token: item.key, depth: depth + 1 });
        const key = seen && plainKey(item.key);
        if (key !== undefined && seen) {
          const occurrences = seen.get(key);
          if (occurrences) occurrences.push(item.key);
          else seen.set(key, [item.key]);
        }
      }
      if (item.value) stack.push({ token: item.value, depth: depth + 1 });
    }
    for (const [key, occurrences] of seen ?? []) {
      const last = occurrences[occurrences.length - 1] as CST.Token & { offset: number };
      for (const overridden of occurrences.slice(0, -1) as (CST.FlowScalar)[]) duplicates.push({ key, at: overridden.offset, length: overridden.source.length, last: last.offset });
    }
  }
  return { duplicates: duplicates.sort((a, b) => a.at - b.at) };
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

/**
 * kubectl and the API server keep the last value of a repeated key and silently drop the
 * others (sigs.k8s.io/yaml reads with go-yaml's non-strict Unmarshal); kustomize, Flux and other
 * yaml.v3 readers refuse the file. Worth a warning on each value that is dropped.
 */
function duplicateProblems(duplicates: readonly Duplicate[], rangeOf: YamlText['rangeOf']): YamlProblem[] {
  return duplicates.map((duplicate) => {
    const range = rangeOf(duplicate.at, duplicate.at + duplicate.length);
    // Counted from here rather than as a line number, which would not survive the editor's
    // reading of one document at a time.
    const below = rangeOf(duplicate.last, duplicate.last).start.line - range.start.line;
    const where = below === 0 ? 'later on this line' : below === 1 ? 'on the next line' : `${below} lines below`;
    return { range, message: `key ${JSON.stringify(duplicate.key)} is set again ${where}: kubectl keeps only the last value and drops this one without a word (kustomize and Flux refuse the file)` };
  });
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
  for (const span of lineSpans(text)) lineCounter.addNewLine(span.start);
  return lineCounter;
}

function positionAt(lineCounter: LineCounter, offset: number) {
  const { line, col } = lineCounter.linePos(offset);
  return { line: line - 1, character: col - 1 };
}
