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
  const lineCounter = new LineCounter();
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

  const documents: SourceDocument[] = [];
  let limitHit: YamlFile['limitHit'];
  const parser = new Parser(lineCounter.addNewLine);
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

function positionAt(lineCounter: LineCounter, offset: number) {
  const { line, col } = lineCounter.linePos(offset);
  return { line: line - 1, character: col - 1 };
}
