import { type CST, Parser } from 'yaml';

/**
 * go-yaml (libyaml's scanner), which kubectl and the API server read manifests with, does not
 * look at indentation inside a quoted scalar or a flow collection: a multi-line
 * `description: '…` whose closing line sits at the key's column, or a `[…]` whose items wrap to
 * column 0, is read as if it were indented. YAML 1.2 and the `yaml` package require those lines
 * to be indented past their parent, and report a missing closing quote or bracket instead.
 *
 * Leading white space on those lines is never part of the value (flow folding strips it), so
 * indenting them changes nothing kubectl would read. `relaxIndentation` does exactly that for
 * the constructs the `yaml` lexer cut short, and keeps a map back to the original offsets.
 */
export interface RelaxedText {
  /** The text to parse. */
  readonly text: string;
  /** An offset in `text` as an offset in the original (inside added spaces: where they were added). */
  toOriginal(offset: number): number;
}

interface Insertion {
  /** Offset in the original text (a line start). */
  readonly at: number;
  readonly count: number;
}

/** A rare third round would mean a construct the repair does not understand; stop there. */
const MAX_ROUNDS = 3;

/** Characters the repair may scan, per character of the text: linear, whatever the input. */
const SCAN_BUDGET_PER_CHAR = 4;

/**
 * The text as go-yaml reads it, indentation-wise. `tokens` are the parser's tokens for `text`
 * (handed in so the common case, nothing cut short, costs no second parse). Returns `undefined`
 * when nothing needed indenting.
 */
export function relaxIndentation(text: string, tokens: readonly CST.Token[]): { relaxed: RelaxedText; tokens: CST.Token[] } | undefined {
  let cut = cutShortConstructs(tokens);
  if (cut.length === 0) return undefined;
  const needs = new Map<number, number>();
  let relaxed: RelaxedText = identity(text);
  let relaxedTokens: CST.Token[] = [];
  // Scanning for a construct's real end is bounded by what is left of this budget: nested
  // brackets that never close (a run of `[`) would otherwise make every one of them scan to the
  // end of the text. Past it, the rest keep the errors `yaml` gave them.
  const budget = { chars: SCAN_BUDGET_PER_CHAR * text.length };
  for (let round = 0; round < MAX_ROUNDS && cut.length > 0; round++) {
    let grew = false;
    let covered = -1;
    for (const cutAt of cut) {
      const start = relaxed.toOriginal(cutAt);
      // Inside a construct already taken care of: its lines are covered.
      if (start < covered) continue;
      const end = constructEnd(text, start, budget);
      if (end === undefined) continue;
      covered = end;
      grew = requireIndentation(text, start, end, needs) || grew;
    }
    if (!grew) break;
    relaxed = pad(text, needs);
    relaxedTokens = Array.from(new Parser().parse(relaxed.text));
    cut = cutShortConstructs(relaxedTokens);
  }
  return needs.size === 0 ? undefined : { relaxed, tokens: relaxedTokens };
}

/**
 * Offsets of quoted scalars without their closing quote and flow collections without their
 * bracket. An explicit stack, as any walk of a CST must have: nesting is the input's to choose.
 */
function cutShortConstructs(tokens: readonly CST.Token[]): number[] {
  const starts: number[] = [];
  const stack: CST.Token[] = [];
  for (const token of tokens) if (token.type === 'document' && token.value) stack.push(token.value);
  for (let token = stack.pop(); token !== undefined; token = stack.pop()) {
    switch (token.type) {
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        if (!isClosed(token.source)) starts.push(token.offset);
        break;
      case 'flow-collection':
      case 'block-map':
      case 'block-seq':
        if (token.type === 'flow-collection' && token.end[0]?.source !== (token.start.source === '[' ? ']' : '}')) starts.push(token.start.offset);
        for (const item of token.items as { key?: CST.Token | null; value?: CST.Token }[]) {
          if (item.key) stack.push(item.key);
          if (item.value) stack.push(item.value);
        }
        break;
    }
  }
  return starts.sort((a, b) => a - b);
}

function isClosed(source: string): boolean {
  const quote = source[0] as "'" | '"';
  return source.length >= 2 && closingQuote(source, 1, quote) === source.length - 1;
}

/**
 * Records that every non-blank line after the construct's first, up to its real end, must be
 * indented at least to the column the construct opens at (more than `yaml` needs, and harmless).
 * False when nothing new was required.
 */
function requireIndentation(text: string, start: number, end: number, needs: Map<number, number>): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const column = start - lineStart;
  let grew = false;
  for (let nl = text.indexOf('\n', start); nl !== -1 && nl < end; nl = text.indexOf('\n', nl + 1)) {
    const line = nl + 1;
    if (isBlankLine(text, line) || (needs.get(line) ?? 0) >= column) continue;
    needs.set(line, column);
    grew = true;
  }
  return grew;
}

/**
 * The offset just past the closing quote or bracket of the construct at `start`, ignoring
 * indentation; undefined when it has none (a genuine error) or the scan budget ran out.
 */
function constructEnd(text: string, start: number, budget: { chars: number }): number | undefined {
  if (budget.chars <= 0) return undefined;
  const open = text[start];
  const end = open === "'" || open === '"' ? closingQuote(text, start + 1, open, start + 1 + budget.chars) : flowEnd(text, start, start + budget.chars);
  budget.chars -= (end ?? text.length) - start;
  return open === "'" || open === '"' ? (end === undefined ? undefined : end + 1) : end;
}

/** Bracket matching in flow context: quoted scalars and comments skipped, plain scalars cannot hold brackets. */
function flowEnd(text: string, start: number, limit: number): number | undefined {
  let depth = 0;
  let nodeStart = true;
  for (let i = start; i < text.length && i < limit; i++) {
    const c = text[i] as string;
    if (c === '[' || c === '{') {
      depth++;
      nodeStart = true;
    } else if (c === ']' || c === '}') {
      if (--depth === 0) return i + 1;
    } else if ((c === "'" || c === '"') && nodeStart) {
      const close = closingQuote(text, i + 1, c, limit);
      if (close === undefined) return undefined;
      i = close;
      nodeStart = false;
    } else if (c === '#' && /\s/.test(text[i - 1] ?? ' ')) {
      const nl = text.indexOf('\n', i);
      if (nl === -1) return undefined;
      i = nl;
    } else if (c === ',' || c === ':' || c === '?') {
      nodeStart = true;
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') {
      nodeStart = false;
    }
  }
  return undefined;
}

/** The quote closing a quoted scalar whose content starts at `i` (`''` and `\"` are escapes), before `limit`. */
function closingQuote(text: string, i: number, quote: "'" | '"', limit = text.length): number | undefined {
  for (; i < text.length && i < limit; i++) {
    const c = text[i];
    if (quote === '"' && c === '\\') i++;
    else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return undefined;
}

function isBlankLine(text: string, line: number): boolean {
  for (let i = line; i < text.length && text[i] !== '\n'; i++) if (text[i] !== ' ' && text[i] !== '\t' && text[i] !== '\r') return false;
  return true;
}

function pad(text: string, needs: ReadonlyMap<number, number>): RelaxedText {
  const insertions: Insertion[] = [];
  const parts: string[] = [];
  let copied = 0;
  for (const [line, column] of [...needs].sort((a, b) => a[0] - b[0])) {
    let indent = 0;
    while (text[line + indent] === ' ') indent++;
    if (indent >= column) continue;
    parts.push(text.slice(copied, line), ' '.repeat(column - indent));
    insertions.push({ at: line, count: column - indent });
    copied = line;
  }
  parts.push(text.slice(copied));
  return { text: parts.join(''), toOriginal: originalOffsets(insertions) };
}

/** Maps offsets of the padded text back: a binary search over where the spaces went in. */
function originalOffsets(insertions: readonly Insertion[]): (offset: number) => number {
  const paddedStarts: number[] = [];
  const addedBefore: number[] = [];
  let added = 0;
  for (const { at, count } of insertions) {
    paddedStarts.push(at + added);
    addedBefore.push(added);
    added += count;
  }
  return (offset) => {
    let low = 0;
    let high = insertions.length - 1;
    let k = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((paddedStarts[mid] as number) <= offset) {
        k = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (k < 0) return offset;
    const insertion = insertions[k] as Insertion;
    const into = offset - (paddedStarts[k] as number);
    return into < insertion.count ? insertion.at : offset - (addedBefore[k] as number) - insertion.count;
  };
}

function identity(text: string): RelaxedText {
  return { text, toOriginal: (offset) => offset };
}
