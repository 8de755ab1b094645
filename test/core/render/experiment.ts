import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { type RenderedDocument, renderedDocuments, sameRenderedDocument } from '../../../src/core/render/renderedDocuments';
import { nodeAt, parseFieldPath } from '../../../src/core/render/placement/yamlTree';
import type { Finding } from '../../../src/core/rules/types';
import { scratchDir } from '../../helpers/scratch';

/**
 * The experiment that checks a placement, independent of the sentinel proof that made it: in a
 * copy of the chart, change the text at the finding's place (a value to another value, a key to
 * another name), render with the real helm, and compare the rendered field before and after.
 * `others` lists every other rendered field that changed (a key that also sets another field,
 * or a change of control flow): "only it" holds when it is empty.
 */
export interface ExperimentOutcome {
  readonly changed: boolean;
  readonly others: readonly string[];
  readonly detail: string;
}

export async function experiment(helm: string, root: string, finding: Finding, options: { valuesFiles?: readonly string[]; set?: readonly string[] } = {}): Promise<ExperimentOutcome> {
  if (!finding.rendered || finding.rendered.placed === 'workload') return { changed: false, others: [], detail: 'not placed on a proven place' };
  const copy = join(scratchDir('probe-lens-experiment-'), 'chart');
  cpSync(root, copy, { recursive: true });
  const inChart = !relative(root, finding.file).startsWith('..');
  const valuesFiles = (options.valuesFiles ?? []).map((f) => (relative(root, f).startsWith('..') ? f : join(copy, relative(root, f))));
  let target = inChart ? join(copy, relative(root, finding.file)) : finding.file;
  if (!inChart) {
    // An -f file outside the chart: changed in a copy of its own.
    const outside = join(scratchDir('probe-lens-experiment-values-'), 'values.yaml');
    cpSync(finding.file, outside);
    valuesFiles.splice(valuesFiles.indexOf(finding.file), 1, outside);
    target = outside;
  }
  return changeAndCompare(finding, target, () => render(helm, copy, valuesFiles, options.set ?? []));
}

/** The same experiment on an overlay: `tree` (holding the overlay and all it builds on) is copied whole, then built with `kubectl kustomize`. */
export async function overlayExperiment(kubectl: string, tree: string, overlay: string, finding: Finding): Promise<ExperimentOutcome> {
  if (!finding.rendered || finding.rendered.placed === 'workload') return { changed: false, others: [], detail: 'not placed on a proven place' };
  const copy = join(scratchDir('probe-lens-experiment-'), 'tree');
  cpSync(tree, copy, { recursive: true });
  const build = () => renderedDocuments(execFileSync(kubectl, ['kustomize', join(copy, relative(tree, overlay))], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
  return changeAndCompare(finding, join(copy, relative(tree, finding.file)), build);
}

/** Renders, changes the text at the finding's place in `target`, renders again, and compares. */
function changeAndCompare(finding: Finding, target: string, renderNow: () => RenderedDocument[]): ExperimentOutcome {
  const rendered = finding.rendered as NonNullable<Finding['rendered']>;
  const before = renderNow();
  const text = readFileSync(target, 'utf8');
  const lines = text.split('\n');
  const line = lines[finding.range.start.line] ?? '';
  const old = line.slice(finding.range.start.character, finding.range.end.line === finding.range.start.line ? finding.range.end.character : line.length);
  const isKey = /^[A-Za-z_][\w-]*$/.test(old) && line.slice(finding.range.end.character).trimStart().startsWith(':');
  const replacement = isKey ? `${old}Experiment` : /^-?\d+$/.test(old) ? String(Number(old) === 4243 ? 4244 : 4243) : 'probelensexperiment';
  lines[finding.range.start.line] = line.slice(0, finding.range.start.character) + replacement + line.slice(finding.range.start.character + old.length);
  writeFileSync(target, lines.join('\n'));
  const after = renderNow();

  const path = parseFieldPath(rendered.path);
  const beforeDoc = before.find((d) => d.index === rendered.doc);
  const afterDoc = beforeDoc ? after.find((d) => sameRenderedDocument(d, beforeDoc)) : undefined;
  if (!beforeDoc || !afterDoc) return { changed: false, others: [], detail: 'the document is gone from the second render' };
  const was = snapshot(nodeAt(beforeDoc.root, path));
  const now = snapshot(nodeAt(afterDoc.root, path));
  const changed = isKey ? was !== now : now === replacement;
  let others = otherChanges(before, after, rendered.doc, rendered.path);
  if (others.length > 0) {
    // What differs between two renders of the unchanged text (a random password, its checksum)
    // is the chart's, not the change's.
    writeFileSync(target, text);
    const noise = new Set(otherChanges(before, renderNow(), rendered.doc, rendered.path));
    others = others.filter((key) => !noise.has(key));
  }
  return { changed, others, detail: `${old} → ${replacement}: ${rendered.path} was ${was}, is ${now}` };
}

function render(helm: string, root: string, valuesFiles: readonly string[], set: readonly string[]): RenderedDocument[] {
  const args = ['template', 'release-name', root, '--kube-version', 'v1.33.0', ...valuesFiles.flatMap((f) => ['--values', f]), ...set.flatMap((s) => ['--set', s])];
  return renderedDocuments(execFileSync(helm, args, { encoding: 'utf8', env: { ...process.env, HELM_NO_PLUGINS: '1' }, maxBuffer: 64 * 1024 * 1024 }));
}

function snapshot(node: Node | undefined): string {
  if (node === undefined) return 'absent';
  if (isScalar(node)) return String(node.value);
  return JSON.stringify((node as { toJSON(): unknown }).toJSON());
}

/** Rendered leaves (document/path → value) that differ between the renders, other than the finding's own field and what lies under it. */
function otherChanges(before: readonly RenderedDocument[], after: readonly RenderedDocument[], doc: number, path: string): string[] {
  const leaves = (docs: readonly RenderedDocument[]) => {
    const found = new Map<string, string>();
    for (const d of docs) flatten(d.root, `${d.source}#${d.kind}#${d.ordinal}|`, found);
    return found;
  };
  const own = before.find((d) => d.index === doc);
  const ownPrefix = own ? `${own.source}#${own.kind}#${own.ordinal}|${path}` : '';
  const a = leaves(before);
  const b = leaves(after);
  const changed: string[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (ownPrefix && key.startsWith(ownPrefix)) continue;
    if (a.get(key) !== b.get(key)) changed.push(key);
  }
  return changed;
}

function flatten(node: Node | undefined, at: string, into: Map<string, string>, depth = 0): void {
  if (node === undefined || depth > 40) return;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      // `|` ends the document's name (a helm source holds slashes); field paths join with dots, as findings write them.
      flatten(pair.value as Node | undefined, `${at}${at.endsWith('|') ? '' : '.'}${key}`, into, depth + 1);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => flatten(item as Node, `${at}[${i}]`, into, depth + 1));
  } else if (isScalar(node)) into.set(at, String(node.value));
}
