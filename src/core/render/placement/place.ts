import type { Fix, Finding, RenderedLocation } from '../../rules/types';
import type { Range } from '../../text/range';
import type { RenderedDocument } from '../renderedDocuments';
import { type Candidate, CandidateIds, candidatesFor, type CandidateScope, type SourceText } from './candidates';
import { type ProofRender, prove } from './proof';
import type { ProofMemo } from './proofMemo';
import { type PlacementTarget, targetOf } from './target';
import type { ValuesLayers } from './valuesLayers';
import { keyPathText, nodeAt } from './yamlTree';

/**
 * Places each finding on a rendered chart where the user fixes it: the values key or template
 * text a proof render showed to write the field, the probe's or container's line for a field it
 * lacks, else the workload's line in its template with the rendered text quoted. Never a line
 * that was not proven, other than the workload's own.
 */
export interface PlacementInput {
  /** Findings on the rendered output (`doc`, `path`, `range` in it). */
  readonly findings: readonly Finding[];
  readonly renderedText: string;
  readonly documents: readonly RenderedDocument[];
  readonly values: ValuesLayers;
  /** What a document's chart reads, and its template; undefined when the document has no template to place on. */
  scopeOf(doc: RenderedDocument): Omit<CandidateScope, 'values'> | undefined;
  readonly render: ProofRender;
  /** What the user edits, in the fallback's sentence: "the chart", "the overlay". */
  readonly sourceNoun: 'chart' | 'overlay';
  /** Proofs of earlier renders of the same chart or overlay (the editor's), already in this render's context. */
  readonly memo?: ProofMemo;
}

export async function placeFindings(input: PlacementInput): Promise<Finding[]> {
  const ids = new CandidateIds();
  const asked = input.findings.map((finding) => {
    const doc = input.documents.find((d) => d.index === finding.doc);
    const scope = doc ? input.scopeOf(doc) : undefined;
    if (!doc || !scope) return { finding, doc, scope, target: undefined, candidates: [] as Candidate[] };
    const target = targetOf(doc, finding.path);
    return { finding, doc, scope, target, candidates: candidatesFor(target, { ...scope, values: input.values }, ids) };
  });
  const proven = await prove(
    asked.flatMap((a) => (a.target && a.candidates.length > 0 ? [{ target: a.target, candidates: a.candidates }] : [])),
    input.values,
    input.render,
    input.memo,
  );
  return asked.map(({ finding, doc, scope, target }) => {
    if (!doc || !scope?.template || !target) return finding;
    const winner = proven.get(target);
    return winner ? provenPlace(finding, doc, target, winner, input.values) : workloadPlace(finding, doc, scope.template, input.renderedText, input.sourceNoun);
  });
}

function rendered(finding: Finding, doc: RenderedDocument, placed: RenderedLocation['placed'], valuesKey?: string): RenderedLocation {
  return { doc: finding.doc, ...(doc.source ? { source: doc.source } : {}), path: finding.path, range: finding.range, placed, ...(valuesKey ? { valuesKey } : {}) };
}

function provenPlace(finding: Finding, doc: RenderedDocument, target: PlacementTarget, winner: Candidate, values: ValuesLayers): Finding {
  switch (winner.kind) {
    case 'values-leaf':
    case 'values-map': {
      const written = values.setterOf(winner.path);
      if (!written) return finding;
      const range = winner.kind === 'values-map' ? (written.keyRange ?? written.valueRange) : written.valueRange;
      const valuesKey = keyPathText(winner.path);
      return {
        ...finding,
        file: written.layer.file,
        doc: documentIndexAt(written.layer.text, range.start.line),
        range,
        rendered: rendered(finding, doc, 'values', valuesKey),
        ...movedFixes(finding, doc, target, winner.kind === 'values-leaf' ? range : undefined),
      };
    }
    case 'template-value':
    case 'template-key':
      return {
        ...finding,
        file: winner.template.file,
        doc: documentIndexAt(winner.template.text, winner.range.start.line),
        range: winner.range,
        rendered: rendered(finding, doc, winner.template.role),
        ...movedFixes(finding, doc, target, winner.kind === 'template-value' ? winner.range : undefined),
      };
  }
}

/**
 * A fix that rewrites the rendered value (successThreshold 2 → 1) rewrites the proven place
 * instead; any other fix edits rendered text no one keeps, so it is dropped rather than offered.
 */
function movedFixes(finding: Finding, doc: RenderedDocument, target: PlacementTarget, to: Range | undefined): Pick<Finding, 'fixes'> {
  if (!finding.fixes || !to || target.kind !== 'value') return {};
  const node = nodeAt(doc.root, target.path);
  if (!node?.range) return {};
  const valueRange = doc.rangeOf(node.range[0], node.range[1]);
  const moved: Fix[] = [];
  for (const fix of finding.fixes) {
    const [edit] = fix.edits;
    if (fix.edits.length !== 1 || !edit || !sameRange(edit.range, valueRange)) continue;
    moved.push({ title: fix.title, edits: [{ range: to, newText: edit.newText }] });
  }
  return moved.length > 0 ? { fixes: moved } : {};
}

/** No place proven: the workload's `kind:` line in its file, and what was rendered, quoted. */
function workloadPlace(finding: Finding, doc: RenderedDocument, template: SourceText, renderedText: string, sourceNoun: PlacementInput['sourceNoun']): Finding {
  const line = kindLine(template.text, doc);
  const snippet = (renderedText.split('\n')[finding.range.start.line] ?? '').trim();
  const { fixes: _dropped, ...rest } = finding;
  return {
    ...rest,
    file: template.file,
    doc: documentIndexAt(template.text, line),
    range: { start: { line, character: 0 }, end: { line, character: (template.text.split('\n')[line] ?? '').replace(/\r$/, '').length } },
    message: `${finding.message} (rendered as \`${snippet}\` at ${finding.path}; the place in the ${sourceNoun} that writes it could not be proven)`,
    rendered: rendered(finding, doc, 'workload'),
  };
}

/**
 * The template's line `kind: Deployment` for the document (the n-th such line for the n-th
 * document); else its only `kind:` line, however written (`kind: {{ .Values.kind }}`); else its first line.
 */
function kindLine(text: string, doc: RenderedDocument): number {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const matches: number[] = [];
  const anyKind: number[] = [];
  lines.forEach((line, i) => {
    if (doc.kind && new RegExp(`^kind:\\s*["']?${doc.kind}["']?\\s*(?:#.*)?$`).test(line)) matches.push(i);
    if (/^kind:/.test(line)) anyKind.push(i);
  });
  return matches[doc.ordinal] ?? matches[0] ?? (anyKind.length === 1 ? (anyKind[0] as number) : 0);
}

/**
 * Which of the file's non-empty documents holds `line` (a finding's `doc` names the document in
 * its own file): documents split at `---` lines, those with only comments and blanks not counted.
 */
export function documentIndexAt(text: string, line: number): number {
  let index = 0;
  let current = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && i <= line; i++) {
    const raw = (lines[i] as string).replace(/\r$/, '');
    if (/^---(?:\s|$)/.test(raw)) {
      if (i === line) break;
      if (current) index += 1;
      current = raw.slice(3).trim() !== '' && !raw.slice(3).trim().startsWith('#');
      continue;
    }
    if (raw.trim() !== '' && !raw.trim().startsWith('#')) current = true;
  }
  return index;
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
