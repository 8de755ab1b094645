/**
 * Is a document's text a template (Helm, Jinja) rather than the manifest itself? Decided on the
 * text between its `---` lines, before any YAML is read: a template is rarely valid YAML, and
 * where the reader stops at the first syntax error a later `{{` would never be seen.
 *
 * `{{` is only a template where YAML would read it as structure: outside quoted scalars, block
 * scalars and comments (`{{- if .Values.x }}` on a line of its own, `name: {{ .Values.name }}`).
 * Inside strings it is usually the app's own template language (a Prometheus alert's
 * `'{{ $labels.instance }} is down'`, a ConfigMap holding a Go template, a `sed "s/{{ID}}/…/"`
 * in a container argument), and the manifest is applied as written — unless a quoted string
 * names one of Helm's own objects (`"{{ .Values.image }}"`), which only a chart does. A block
 * scalar is left alone even then: a literal ConfigMap may carry a chart-like template for its
 * app (Istio's sidecar injector reads `.Values` in its own template).
 *
 * A template is only worth a word when it renders a Kubernetes object: text without a `kind:`
 * of its own (a chart's values.yaml) holds none.
 */

export interface Templating {
  /** Offset of the first template expression that makes the text a template. */
  readonly offset: number;
  /** `{{ … }}` (Helm and other Go templates) or `{% … %}` (Jinja). */
  readonly syntax: '{{ }}' | '{% %}';
  /** The expression, as written (up to its line's end). */
  readonly expression: string;
  /** Helm's own objects or calls appear somewhere: `helm template` renders it. */
  readonly helm: boolean;
}

/** Helm's built-in objects and the template calls only a chart makes, wherever they are. */
const HELM_EXPRESSION = /\{\{-?[^}]*?(?:\$?\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|\b(?:include|tpl)\s+["(.$])/;

export function findTemplating(text: string): Templating | undefined {
  if (!text.includes('{{') && !text.includes('{%')) return undefined;
  const offset = templateOffset(text);
  if (offset === undefined) return undefined;
  const jinja = text.startsWith('{%', offset);
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(offset, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
  const close = line.indexOf(jinja ? '%}' : '}}');
  return { offset, syntax: jinja ? '{% %}' : '{{ }}', expression: close < 0 ? line : line.slice(0, close + 2), helm: HELM_EXPRESSION.test(text) };
}

/** A line `kind: …` at the top level: the text is (or renders) a Kubernetes object. */
const TOP_LEVEL_KIND = /^(?:kind|"kind")\s*:/m;

/** True when the text names no top-level `kind`: no Kubernetes object, whatever it templates. */
export function holdsNoObject(text: string): boolean {
  return !TOP_LEVEL_KIND.test(text);
}

/**
 * Template actions that render nothing (`{{- if … }}`, `{{ end }}`, `{{/* … *\/}}`,
 * `{{ $x := … }}`): a piece of text made only of these and comments holds no document.
 */
const SILENT_ACTION = /\{\{-?\s*(?:(?:if|else|end|range|with|define)\b|\/\*|\$[\w.]*\s*:?=)[^]*?\}\}|\{%-?[^]*?%\}/g;

/** True when the text holds nothing but comments and template actions that render nothing. */
export function isOnlyTemplateControl(text: string): boolean {
  const rest = text
    .replace(/^---(?=\s|$)/, '')
    .replace(SILENT_ACTION, '')
    .replace(/(^|\s)#.*$/gm, '');
  return rest.trim() === '';
}

/**
 * The first `{{` or `{%` outside quoted scalars, block scalars and comments, or the first Helm
 * expression inside a quoted scalar, scanning line by line with just enough of YAML's lexical
 * rules: a quote opens a quoted scalar only where a node starts (after indentation, `- `, `: `,
 * `[`, `{`, `,` or node properties), and a block scalar runs while its lines are indented past
 * the line that opened it.
 */
function templateOffset(text: string): number | undefined {
  const scan = new LineScanner(text);
  for (let lineStart = 0; lineStart < text.length; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const found = scan.line(lineStart, lineEnd);
    if (found !== undefined) return found;
    lineStart = lineEnd + 1;
  }
  return undefined;
}

class LineScanner {
  /** Inside a quoted scalar that continues on the next line. */
  private openQuote: "'" | '"' | undefined;
  /** Inside a block scalar: lines indented more than this are its content. */
  private blockParentIndent: number | undefined;

  constructor(private readonly text: string) {}

  line(start: number, end: number): number | undefined {
    const text = this.text;
    let i = start;
    if (this.openQuote) {
      const close = closingQuote(text, i, end, this.openQuote);
      const helm = helmExpressionIn(text, i, close ?? end);
      if (helm !== undefined) return helm;
      if (close === undefined) return undefined;
      this.openQuote = undefined;
      i = close + 1;
      return this.rest(i, end, false, start);
    }
    const indent = leadingSpaces(text, start, end);
    if (this.blockParentIndent !== undefined) {
      if (start + indent >= end || isBlankLine(text, start, end) || indent > this.blockParentIndent) return undefined;
      this.blockParentIndent = undefined;
    }
    i = start + indent;
    let parentIndent = indent;
    // Sequence entries (`- - key: value`): the node starts after the last dash.
    while (text.charCodeAt(i) === DASH && isSpaceOrEnd(text, i + 1, end)) {
      parentIndent = i - start;
      i = skipSpaces(text, i + 1, end);
    }
    return this.rest(i, end, true, start, parentIndent);
  }

  /** Scans a line from `i`; `nodeStart` says whether a node may begin here. */
  private rest(i: number, end: number, nodeStart: boolean, lineStart: number, blockParentIndent = 0): number | undefined {
    const text = this.text;
    let keyColumn = i - lineStart;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === TAB) {
        i++;
        continue;
      }
      if (c === HASH && (i === lineStart || isSpaceCode(text.charCodeAt(i - 1)))) return undefined;
      if (c === OPEN_BRACE && isTemplateAction(text, i, end)) return i;
      if (nodeStart && (c === SINGLE_QUOTE || c === DOUBLE_QUOTE)) {
        const quote = c === SINGLE_QUOTE ? "'" : '"';
        const close = closingQuote(text, i + 1, end, quote);
        const helm = helmExpressionIn(text, i + 1, close ?? end);
        if (helm !== undefined) return helm;
        if (close === undefined) {
          this.openQuote = quote;
          return undefined;
        }
        i = close + 1;
        nodeStart = false;
        continue;
      }
      if (nodeStart && (c === PIPE || c === GREATER) && BLOCK_HEADER.test(text.slice(i, end))) {
        // `key: |` belongs to the key's column; `- |` to the dash's.
        this.blockParentIndent = keyColumn < i - lineStart ? keyColumn : blockParentIndent;
        return undefined;
      }
      if (nodeStart && (c === AMPERSAND || c === BANG)) {
        while (i < end && !isSpaceCode(text.charCodeAt(i))) i++;
        continue;
      }
      if (c === OPEN_BRACKET || c === OPEN_BRACE || c === COMMA) {
        nodeStart = true;
        i++;
        continue;
      }
      if ((c === COLON || c === QUESTION) && isSpaceOrEnd(text, i + 1, end)) {
        nodeStart = true;
        i++;
        continue;
      }
      if (nodeStart) keyColumn = i - lineStart;
      nodeStart = false;
      i++;
    }
    return undefined;
  }
}

/** Offset of a Helm expression in `text[start, end)`, if any. */
function helmExpressionIn(text: string, start: number, end: number): number | undefined {
  const slice = text.slice(start, end);
  if (!slice.includes('{{')) return undefined;
  const match = HELM_EXPRESSION.exec(slice);
  return match ? start + match.index : undefined;
}

/** `{{ … }}` or `{% … %}` closed on the same line: a run of `{` alone is YAML's (or garbage). */
function isTemplateAction(text: string, i: number, end: number): boolean {
  const next = text.charCodeAt(i + 1);
  if (next !== OPEN_BRACE && next !== PERCENT) return false;
  const close = text.indexOf(next === OPEN_BRACE ? '}}' : '%}', i + 2);
  return close !== -1 && close < end;
}

/** `|`, `>`, with chomping and indentation indicators, then only a comment. */
const BLOCK_HEADER = /^[|>][-+1-9]{0,2}[ \t]*(?:#.*)?\r?$/;

/** Index of the quote that closes a quoted scalar, searching from `i` up to `end`. */
function closingQuote(text: string, i: number, end: number, quote: "'" | '"'): number | undefined {
  for (; i < end; i++) {
    const c = text[i];
    if (quote === '"' && c === '\\') {
      i++;
      continue;
    }
    if (c !== quote) continue;
    if (quote === "'" && text[i + 1] === "'") {
      i++;
      continue;
    }
    return i;
  }
  return undefined;
}

function leadingSpaces(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  return i - start;
}

function skipSpaces(text: string, i: number, end: number): number {
  while (i < end && isSpaceCode(text.charCodeAt(i))) i++;
  return i;
}

function isBlankLine(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpaceCode(text.charCodeAt(i)) && text.charCodeAt(i) !== CR) return false;
  return true;
}

function isSpaceOrEnd(text: string, i: number, end: number): boolean {
  return i >= end || isSpaceCode(text.charCodeAt(i)) || text.charCodeAt(i) === CR;
}

function isSpaceCode(c: number): boolean {
  return c === SPACE || c === TAB;
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const DASH = 0x2d;
const HASH = 0x23;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUESTION = 0x3f;
const PERCENT = 0x25;
const PIPE = 0x7c;
const GREATER = 0x3e;
const AMPERSAND = 0x26;
const BANG = 0x21;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
