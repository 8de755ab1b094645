import { Composer, type Document, isAlias, LineCounter, type Node, Parser, visit } from 'yaml';
import type { Range } from '../text/range';
import { DEFAULT_LIMITS, type ManifestLimits } from './limits';

/** One YAML document of a file, with its position among the file's non-empty documents. */
export interface SourceDocument {
  /** 0-based index among non-empty documents: the `doc` of a finding. */
  readonly index: number;
  readonly yaml: Document.Parsed;
  readonly range: Range;
  /** Helm or another template language: `{{ … }}` makes the text not the manifest. */
  readonly templated: boolean;
  /** Syntax errors: when present the document is not validated further. */
  readonly errors: readonly YamlProblem[];
  readonly warnings: readonly YamlProblem[];
}

export interface YamlProblem {
  readonly message: string;
  readonly range: Range;
}

export interface YamlFile {
  readonly text: string;
  readonly documents: readonly SourceDocument[];
  /** A limit that stopped reading the file early (Y02), if any. */
  readonly limitHit?: YamlProblem & { readonly docIndex: number };
  rangeOf(start: number, end: number): Range;
}

/**
 * Kubernetes decodes manifests with go-yaml v2, a YAML 1.1 reader: `yes`/`no` are booleans,
 * `0755` is octal and `<<` merges. The `yaml` package's 1.1 mode reads them the same way.
 */
const YAML_OPTIONS = { version: '1.1', prettyErrors: false, uniqueKeys: true } as const;

const TEMPLATE_EXPRESSION = /\{\{[\s\S]*?\}\}/;

/**
 * Reads every document of `text`. Never throws: syntax errors are values on their document,
 * and a limit stops reading with `limitHit` set.
 */
export function readYamlFile(text: string, limits: ManifestLimits = DEFAULT_LIMITS): YamlFile {
  const lineCounter = countLines(text);
  const rangeOf = (start: number, end: number): Range => ({
    start: positionAt(lineCounter, start),
    end: positionAt(lineCounter, Math.max(start, end)),
  });
  if (text.length > limits.maxFileChars) {
    const megabytes = (n: number) => (n / (1024 * 1024)).toFixed(1);
    return {
      text,
      documents: [],
      rangeOf,
      limitHit: {
        docIndex: 0,
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        message: `file not checked: ${megabytes(text.length)} MB is more than the ${megabytes(limits.maxFileChars)} MB Probe Lens reads`,
      },
    };
  }

  const deep = deepNestingAt(text, limits.maxNesting);
  if (deep >= 0) {
    return {
      text,
      documents: [],
      rangeOf,
      limitHit: { docIndex: 0, range: rangeOf(deep, deep + 1), message: `file not checked: its nesting can go deeper than ${limits.maxNesting} levels here` },
    };
  }

  const documents: SourceDocument[] = [];
  let limitHit: YamlFile['limitHit'];
  const parser = new Parser();
  const composer = new Composer(YAML_OPTIONS);

  const accept = (yaml: Document.Parsed): boolean => {
    if (isEmptyDocument(yaml)) return true;
    const [start, , end] = yaml.range;
    if (documents.length >= limits.maxDocuments) {
      limitHit = {
        docIndex: documents.length,
        range: rangeOf(start, start),
        message: `only the first ${limits.maxDocuments} documents were checked; this one and the rest were not`,
      };
      return false;
    }
    const templated = TEMPLATE_EXPRESSION.test(text.slice(start, end));
    const toProblem = (e: { message: string; pos: [number, number] }): YamlProblem => ({
      message: e.message,
      range: rangeOf(e.pos[0], e.pos[1]),
    });
    const source = text.slice(start, end);
    const aliasErrors = source.includes('*') ? unknownAnchors(yaml) : [];
    documents.push({
      index: documents.length,
      yaml,
      range: rangeOf(start, end),
      templated,
      errors: [...yaml.errors, ...aliasErrors].map(toProblem),
      warnings: yaml.warnings.map(toProblem),
    });
    return true;
  };

  read: {
    for (const token of parser.parse(text)) {
      for (const yaml of composer.next(token)) if (!accept(yaml)) break read;
    }
    for (const yaml of composer.end(false, text.length)) if (!accept(yaml)) break read;
  }
  return limitHit ? { text, documents, rangeOf, limitHit } : { text, documents, rangeOf };
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

const SPACE = 32;
const DASH = 45;
const HASH = 35;
const QUOTES = new Set([34, 39]);
const OPENERS = new Set([91, 123]);
const CLOSERS = new Set([93, 125]);
/** A quote opens a quoted scalar only where a token can start: after a break, a blank, `,` `:` `[` `{`. */
const BEFORE_QUOTE = new Set([10, 13, SPACE, 9, 44, 58, 91, 123]);

/**
 * Where the text could nest deeper than `limit`, or -1. Every nesting level needs a column of
 * indentation (a `- ` counts as indentation) or an open bracket, so their sum bounds the depth. One
 * linear pass, without recursion; quoted text and comments are skipped so their brackets don't count.
 */
export function deepNestingAt(text: string, limit: number): number {
  let flow = 0;
  let columns = 0;
  let atLineStart = true;
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      atLineStart = true;
      columns = 0;
      continue;
    }
    if (quote !== 0) {
      if (c === 92 && quote === 34) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (atLineStart) {
      if (c === SPACE) {
        columns++;
      } else if (c === DASH && text.charCodeAt(i + 1) === SPACE) {
        columns += 2;
        i++;
      } else atLineStart = false;
      if (atLineStart) {
        if (columns + flow > limit) return i;
        continue;
      }
    }
    if (c === HASH && (i === 0 || text.charCodeAt(i - 1) === SPACE)) {
      while (i + 1 < text.length && text.charCodeAt(i + 1) !== 10 && text.charCodeAt(i + 1) !== 13) i++;
    } else if (OPENERS.has(c)) {
      if (++flow + columns > limit) return i;
    } else if (CLOSERS.has(c)) {
      flow = Math.max(0, flow - 1);
    } else if (QUOTES.has(c) && (i === 0 || BEFORE_QUOTE.has(text.charCodeAt(i - 1)))) {
      quote = c;
    }
  }
  return -1;
}

function positionAt(lineCounter: LineCounter, offset: number) {
  const { line, col } = lineCounter.linePos(offset);
  return { line: line - 1, character: col - 1 };
}
