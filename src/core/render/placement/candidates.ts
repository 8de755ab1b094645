import { isMap, LineCounter, type Node } from 'yaml';
import type { Range } from '../../text/range';
import { lastKey, type PlacementTarget } from './target';
import type { ValuesLayers, WrittenKey } from './valuesLayers';
import { type KeyPath, keyPathText, nodeAt, type Traceable, traceable, walkTree } from './yamlTree';

/**
 * A place that may have written what a finding is about, each with the change that proves it:
 *  - a values key holding the rendered value: set it to a sentinel, see the field take it;
 *  - a values map rendered whole as the probe (`toYaml .Values.livenessProbe`): add a sentinel key
 *    under it, see the probe gain it (so a field added there lands in the probe);
 *  - a template line writing the value literally: write a sentinel instead;
 *  - a template line writing the probe's or the container's key: rename the key, see it renamed.
 * A candidate is a guess; only a proof (proof.ts) places a finding on it.
 */
export type Candidate = CandidatePlace &
  (
    | { readonly kind: 'values-leaf'; readonly path: KeyPath; readonly sentinel: Traceable }
    | { readonly kind: 'values-map'; readonly path: KeyPath; readonly sentinelKey: string; readonly sentinel: number }
    | { readonly kind: 'template-value'; readonly template: SourceText; readonly line: number; readonly range: Range; readonly sentinel: Traceable }
    | { readonly kind: 'template-key'; readonly template: SourceText; readonly line: number; readonly range: Range; readonly key: string; readonly sentinelKey: string }
  );

interface CandidatePlace {
  readonly id: number;
  /** The place, the same in every render of the chart (`leaf:probe.periodSeconds`, `key:FILE:12`): what a proof is remembered by. */
  readonly place: string;
}

/**
 * A file that writes a rendered document as literal text, with its text (the editor's unsaved
 * text when open): a chart's template, an overlay's resource, or a patch an overlay applies to it.
 */
export interface SourceText {
  readonly role: 'template' | 'resource' | 'patch';
  /** The file as the user names it (absolute). */
  readonly file: string;
  readonly text: string;
}

/**
 * Hands out ids (and so sentinels) unique across one proof render; the same place asked for by
 * two findings gets the same id, so one change serves both.
 */
export class CandidateIds {
  private next = 1;
  private readonly byPlace = new Map<string, number>();
  take(place: string): number {
    const known = this.byPlace.get(place);
    if (known !== undefined) return known;
    const id = this.next++;
    this.byPlace.set(place, id);
    return id;
  }
}

/** Sentinels far apart, so no template arithmetic (`add 1`) turns one into another. */
export function numberSentinel(id: number): number {
  return 7_340_000 + id * 1_000 + 17;
}

export function stringSentinel(id: number): string {
  return `plsentinel${id}x`;
}

export function sentinelFor(original: Traceable, id: number): Traceable {
  return typeof original === 'number' ? numberSentinel(id) : stringSentinel(id);
}

export interface CandidateScope {
  readonly values: ValuesLayers;
  /** The values paths this document's chart reads (a subchart's under its key). */
  readonly prefix: KeyPath;
  /** Values paths that belong to a subchart: not this document's. */
  readonly excluded: readonly KeyPath[];
  /** The file the document is written in: a template, an overlay's resource. */
  readonly template?: SourceText;
  /** Patches that may rewrite it after (an overlay's), in the order applied: a later one wins. */
  readonly patches?: readonly SourceText[];
}

export function candidatesFor(target: PlacementTarget, scope: CandidateScope, ids: CandidateIds): Candidate[] {
  switch (target.kind) {
    case 'value':
      return [...valueLeaves(target, scope, ids), ...templateValues(target, scope, ids)];
    case 'probe':
      return [...valueMaps(target, scope, ids), ...templateKeys(target.key, scope, ids)];
    case 'container':
      // `- name: web`, or `name: mysql` under a `- image: …` that opens the item; a name written
      // at the top (metadata's) is left out: renaming it would only break the patches that target it.
      return templateKeys('name', scope, ids, /^(?:\s*-\s+|\s{4,})/);
    case 'workload':
      return [];
  }
}

function inScope(path: KeyPath, scope: CandidateScope): boolean {
  const starts = (prefix: KeyPath) => prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
  return starts(scope.prefix) && !scope.excluded.some(starts);
}

/** Values keys holding the rendered value, named like the field or read by the template (`.Values.probe.period`). */
function valueLeaves(target: Extract<PlacementTarget, { kind: 'value' }>, scope: CandidateScope, ids: CandidateIds): Candidate[] {
  const read = scope.template ? valuesReadBy(scope.template.text) : new Set<string>();
  const seen = new Set<string>();
  const found: Candidate[] = [];
  for (const written of scope.values.written()) {
    if (!inScope(written.path, scope) || traceable(written.node) !== target.value) continue;
    const local = keyPathText(written.path.slice(scope.prefix.length));
    const named = lastKey(written.path) === target.key;
    if (!named && !read.has(local)) continue;
    const text = keyPathText(written.path);
    if (seen.has(text)) continue;
    seen.add(text);
    const place = `leaf:${text}`;
    const id = ids.take(place);
    found.push({ id, place, kind: 'values-leaf', path: written.path, sentinel: sentinelFor(target.value, id) });
  }
  return found;
}

/** Values maps that could be the probe itself: named like it, or holding nothing the probe lacks. */
function valueMaps(target: Extract<PlacementTarget, { kind: 'probe' }>, scope: CandidateScope, ids: CandidateIds): Candidate[] {
  const rendered = nodeAt(target.doc.root, target.path);
  const seen = new Set<string>();
  const found: Candidate[] = [];
  for (const written of scope.values.written()) {
    if (!inScope(written.path, scope) || !isMap(written.node) || written.node.items.length === 0) continue;
    if (lastKey(written.path) !== target.key && !holdsOnlyWhatRendered(written, rendered)) continue;
    const text = keyPathText(written.path);
    if (seen.has(text)) continue;
    seen.add(text);
    const place = `map:${text}`;
    const id = ids.take(place);
    found.push({ id, place, kind: 'values-map', path: written.path, sentinelKey: `probeLensProof${id}`, sentinel: numberSentinel(id) });
  }
  return found;
}

/** Every leaf of the values map appears, equal, at the same place in the rendered probe. */
function holdsOnlyWhatRendered(written: WrittenKey, rendered: Node | undefined): boolean {
  if (!isMap(rendered)) return false;
  let leaves = 0;
  let all = true;
  walkTree(written.node, new LineCounter(), (entry) => {
    const value = traceable(entry.node);
    if (value === undefined) return;
    leaves += 1;
    if (traceable(nodeAt(rendered, entry.path)) !== value) all = false;
  });
  return all && leaves > 0;
}

const LITERAL_LINE = /^(\s*(?:-\s+)*)(["']?)([A-Za-z_][\w.-]*)\2(\s*:[ \t]+)(.*?)\s*(?:\s#.*)?$/;

/** Lines writing the field literally (`periodSeconds: 10`), never a line with `{{`, in the document's file and its patches. */
function templateValues(target: Extract<PlacementTarget, { kind: 'value' }>, scope: CandidateScope, ids: CandidateIds): Candidate[] {
  const found: Candidate[] = [];
  for (const source of sourcesOf(scope)) {
    source.text.split('\n').forEach((raw, line) => {
      const text = raw.replace(/\r$/, '');
      if (text.includes('{{')) return;
      const match = LITERAL_LINE.exec(text);
      if (!match || match[3] !== target.key) return;
      const literal = match[5] as string;
      if (literalValue(literal) !== target.value) return;
      const start = (match[1] as string).length + (match[2] as string).length * 2 + (match[3] as string).length + (match[4] as string).length;
      const place = `value:${source.file}:${line}`;
      const id = ids.take(place);
      found.push({ id, place, kind: 'template-value', template: source, line, range: { start: { line, character: start }, end: { line, character: start + literal.length } }, sentinel: sentinelFor(target.value, id) });
    });
  }
  return found;
}

/** Lines writing `key:` (the probe's, or a container's `- name:`), for a rename. */
function templateKeys(key: string, scope: CandidateScope, ids: CandidateIds, lead: RegExp = /^\s*(?:-\s+)?/): Candidate[] {
  const found: Candidate[] = [];
  for (const source of sourcesOf(scope)) {
    source.text.split('\n').forEach((text, line) => {
      const match = new RegExp(`${lead.source}${key}(?=\\s*:)`).exec(text);
      if (!match || /\{\{/.test(text.slice(0, match.index + match[0].length))) return;
      const start = match[0].length - key.length;
      const place = `key:${source.file}:${line}`;
      const id = ids.take(place);
      found.push({ id, place, kind: 'template-key', template: source, line, range: { start: { line, character: start }, end: { line, character: start + key.length } }, key, sentinelKey: `${key}PlProof${id}` });
    });
  }
  return found;
}

function sourcesOf(scope: CandidateScope): SourceText[] {
  return [...(scope.template ? [scope.template] : []), ...(scope.patches ?? [])];
}

/** `10`, `"10"`, `/healthz`, `'http'` → what YAML reads (numbers stay numbers unless quoted). */
export function literalValue(literal: string): Traceable | undefined {
  if (literal === '' || literal.startsWith('[') || literal.startsWith('{') || literal.startsWith('&') || literal.startsWith('*') || literal.startsWith('|') || literal.startsWith('>')) return undefined;
  const quoted = /^"(.*)"$|^'(.*)'$/.exec(literal);
  if (quoted) return (quoted[1] ?? quoted[2] ?? '').trim() === '' ? undefined : (quoted[1] ?? (quoted[2] as string).replace(/''/g, "'"));
  if (/^[-+]?\d+$/.test(literal)) return Number(literal);
  if (/^(?:true|false|yes|no|on|off|null|~)$/i.test(literal)) return undefined;
  return literal;
}

/** `.Values.livenessProbe.periodSeconds` and the like, as local key paths (`livenessProbe.periodSeconds`). */
function valuesReadBy(template: string): Set<string> {
  const found = new Set<string>();
  for (const match of template.matchAll(/\$?\.Values((?:\.[A-Za-z_]\w*)+)/g)) found.add((match[1] as string).slice(1));
  return found;
}
