import { isMap, isScalar, type Node, type YAMLMap } from 'yaml';
import type { RenderOutcome } from '../failure';
import { type RenderedDocument, renderedDocuments, sameRenderedDocument } from '../renderedDocuments';
import type { Candidate } from './candidates';
import type { ProofMemo } from './proofMemo';
import type { PlacementTarget } from './target';
import type { ValuesLayers } from './valuesLayers';
import { type KeyPath, nodeAt, traceable } from './yamlTree';

/**
 * The experiment that places a finding: render once more with every candidate changed to its
 * sentinel, and see which rendered field took which. A field that now holds candidate 7's
 * sentinel was written by candidate 7 — not by belief in how the template reads, but because
 * changing that place changed that field. All candidates of a chart share one render; when the
 * changed chart does not render (a schema refusing a sentinel, a `fail` it trips, a patch that
 * no longer applies), the candidates are halved and tried again, within a budget of renders.
 */

/** What a proof render changes: values to merge last (`-f`), and template lines to rewrite. */
export interface ProofChanges {
  /** A values object given to helm after every other values file. */
  readonly values: Record<string, unknown>;
  /** Template file (absolute, the user's) → its text with the sentinels written in. */
  readonly templates: ReadonlyMap<string, string>;
}

export type ProofRender = (changes: ProofChanges) => Promise<RenderOutcome<string>>;

/**
 * Renders the halving may spend: enough to isolate one target whose changes break the render
 * (a JSON patch naming a key a rename moved) among n, about 2·log2(n), and a few more.
 */
function renderBudget(targets: number): number {
  return 3 + 2 * Math.ceil(Math.log2(targets + 1));
}

/**
 * Target → the candidate proven to write it, for the targets given; unproven targets are absent.
 * Targets the memo remembers (same candidates, same templates) are not rendered again.
 */
export async function prove(
  asked: readonly { target: PlacementTarget; candidates: readonly Candidate[] }[],
  values: ValuesLayers,
  render: ProofRender,
  memo?: ProofMemo,
): Promise<Map<PlacementTarget, Candidate>> {
  const proven = new Map<PlacementTarget, Candidate>();
  const targets: typeof asked = asked.filter(({ target, candidates }) => {
    const recalled = memo?.recall(target, candidates);
    if (recalled) proven.set(target, recalled);
    return recalled === undefined;
  });
  let budget = renderBudget(targets.length);
  const attempt = async (group: readonly { target: PlacementTarget; candidates: readonly Candidate[] }[]): Promise<void> => {
    const candidates = group.flatMap((g) => g.candidates);
    if (candidates.length === 0 || budget <= 0) return;
    budget -= 1;
    const rendered = await render(changesFor(candidates, values));
    if (rendered.ok) {
      const documents = renderedDocuments(rendered.value);
      for (const { target, candidates: own } of group) {
        const winner = readProof(target, own, documents);
        if (winner) proven.set(target, winner);
        // Remembered against all of the target's candidates (a halving tries some of them), once decided.
        const all = targets.find((t) => t.target === target)?.candidates ?? own;
        if (winner || all.length === own.length) memo?.remember(target, all, winner);
      }
      return;
    }
    if (group.length === 1) {
      // One target's candidates broke the render together: try them in halves.
      const only = group[0] as (typeof group)[number];
      if (only.candidates.length < 2) return;
      const half = Math.ceil(only.candidates.length / 2);
      await attempt([{ target: only.target, candidates: only.candidates.slice(0, half) }]);
      if (!proven.has(only.target)) await attempt([{ target: only.target, candidates: only.candidates.slice(half) }]);
      return;
    }
    const half = Math.ceil(group.length / 2);
    await attempt(group.slice(0, half));
    await attempt(group.slice(half));
  };
  await attempt(targets);
  return proven;
}

export function changesFor(candidates: readonly Candidate[], values: ValuesLayers): ProofChanges {
  const override: Record<string, unknown> = {};
  const lines = new Map<string, { text: string; edits: { line: number; start: number; end: number; text: string }[] }>();
  for (const candidate of candidates) {
    switch (candidate.kind) {
      case 'values-leaf':
        setAt(override, candidate.path, candidate.sentinel, values);
        break;
      case 'values-map':
        setAt(override, [...candidate.path, candidate.sentinelKey], candidate.sentinel, values);
        break;
      case 'template-value':
      case 'template-key': {
        const entry = lines.get(candidate.template.file) ?? { text: candidate.template.text, edits: [] };
        // Two findings may ask about the same line: it is changed once.
        if (entry.edits.some((e) => e.line === candidate.line && e.start === candidate.range.start.character)) break;
        const text = candidate.kind === 'template-value' ? yamlScalar(candidate.sentinel) : candidate.sentinelKey;
        entry.edits.push({ line: candidate.line, start: candidate.range.start.character, end: candidate.range.end.character, text });
        lines.set(candidate.template.file, entry);
        break;
      }
    }
  }
  const templates = new Map<string, string>();
  for (const [file, { text, edits }] of lines) templates.set(file, applyLineEdits(text, edits));
  return { values: override, templates };
}

/** Which candidate's sentinel the target shows in the proof render, if exactly one does. */
function readProof(target: PlacementTarget, candidates: readonly Candidate[], documents: readonly RenderedDocument[]): Candidate | undefined {
  if (target.kind === 'workload') return undefined;
  const doc = documents.find((d) => sameRenderedDocument(d, target.doc));
  if (!doc) return undefined;
  const winners = candidates.filter((candidate) => shows(target, candidate, doc));
  // A probe both rendered from a values map and under a template's literal key shows both
  // proofs: the values map is where its fields are changed, the key only where it is placed.
  const best = Math.min(...winners.map((w) => PREFERENCE[w.kind]));
  const preferred = winners.filter((w) => PREFERENCE[w.kind] === best);
  if (preferred.length === 1) return preferred[0];
  // A probe an overlay's base writes and one patch rewrites shows both keys' proofs: the patch is
  // the overlay's own say on it, and what its build applies last.
  const patches = preferred.filter((w) => w.kind === 'template-key' && w.template.role === 'patch');
  return patches.length === 1 && preferred.every((w) => w.kind === 'template-key') ? patches[0] : undefined;
}

const PREFERENCE: Readonly<Record<Candidate['kind'], number>> = { 'values-leaf': 0, 'values-map': 0, 'template-value': 1, 'template-key': 2 };

function shows(target: Exclude<PlacementTarget, { kind: 'workload' }>, candidate: Candidate, doc: RenderedDocument): boolean {
  switch (candidate.kind) {
    case 'values-leaf':
    case 'template-value':
      return target.kind === 'value' && nodesThroughRenamed(doc.root, target.path).some((node) => traceable(node) === candidate.sentinel);
    case 'values-map':
      return target.kind === 'probe' && nodesThroughRenamed(doc.root, target.path).some((node) => hasKey(node, candidate.sentinelKey));
    case 'template-key':
      // The renamed key stands where the probe's was (in its container), or in the container itself.
      return target.kind === 'probe' ? hasKey(nodeAt(doc.root, target.path.slice(0, -1)), candidate.sentinelKey) : hasKey(nodeAt(doc.root, target.path), candidate.sentinelKey);
  }
}

/**
 * `nodeAt`, where a key a template-key candidate renamed in the same render (`livenessProbe` →
 * `livenessProbePlProof4`) still leads to its value: the other candidates' proofs lie beneath it.
 * Every branch is followed: an overlay's base and its patch both write the probe's key, and with
 * both renamed (or only one) the field may sit under either — the proof is wherever it shows.
 */
function nodesThroughRenamed(root: Node | undefined, path: KeyPath): Node[] {
  let nodes: Node[] = root ? [root] : [];
  for (const segment of path) {
    nodes = nodes.flatMap((node) => {
      if (typeof segment === 'number' || !isMap(node)) {
        const next = nodeAt(node, [segment]);
        return next ? [next] : [];
      }
      const map: YAMLMap = node;
      return map.items
        .filter((pair) => isScalar(pair.key) && (pair.key.value === segment || (typeof pair.key.value === 'string' && pair.key.value.startsWith(`${segment}PlProof`))))
        .flatMap((pair) => (pair.value === null || pair.value === undefined ? [] : [pair.value as Node]));
    });
    if (nodes.length === 0) break;
  }
  return nodes;
}

function hasKey(node: Node | undefined, key: string): boolean {
  return isMap(node) && node.has(key);
}

/**
 * Sets `path` in the override. helm merges maps key by key but replaces lists whole, so a list on
 * the way is copied from the values as they stand and changed in one item.
 */
function setAt(target: Record<string, unknown>, path: KeyPath, value: unknown, values: ValuesLayers): void {
  let here: Record<string, unknown> | unknown[] = target;
  path.forEach((segment, i) => {
    const last = i === path.length - 1;
    const next = path[i + 1];
    if (last) {
      (here as Record<string | number, unknown>)[segment] = value;
      return;
    }
    const existing = (here as Record<string | number, unknown>)[segment];
    if (existing !== undefined && typeof existing === 'object' && existing !== null) {
      here = existing as Record<string, unknown>;
      return;
    }
    const child: Record<string, unknown> | unknown[] = typeof next === 'number' ? currentList(values, path.slice(0, i + 1)) : {};
    (here as Record<string | number, unknown>)[segment] = child;
    here = child;
  });
}

function currentList(values: ValuesLayers, path: KeyPath): unknown[] {
  const written = values.setterOf(path);
  const js = written ? (written.node as { toJSON?: () => unknown }).toJSON?.() : undefined;
  return Array.isArray(js) ? structuredClone(js) : [];
}

/** A sentinel as YAML: numbers bare, strings made only of letters and digits (never quoted). */
function yamlScalar(value: number | string): string {
  return String(value);
}

function applyLineEdits(text: string, edits: readonly { line: number; start: number; end: number; text: string }[]): string {
  const lines = text.split('\n');
  const byLine = [...edits].sort((a, b) => a.line - b.line || b.start - a.start);
  for (const edit of byLine) {
    const line = lines[edit.line];
    if (line === undefined) continue;
    lines[edit.line] = line.slice(0, edit.start) + edit.text + line.slice(edit.end);
  }
  return lines.join('\n');
}
