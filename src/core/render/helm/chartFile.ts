import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Range } from '../../text/range';

/** What Chart.yaml says that rendering needs: the chart's name (helm's paths start with it) and its dependencies. */
export interface ChartFile {
  readonly root: string;
  readonly name: string;
  readonly dependencies: readonly ChartDependency[];
}

export interface ChartDependency {
  readonly name: string;
  /** The key its values sit under in the parent's values (`alias`, else `name`). */
  readonly valuesKey: string;
  readonly repository?: string;
  /** Where the entry is written in Chart.yaml (its `name:` value). */
  readonly range: Range;
}

/** Chart.yaml read leniently: helm itself reports what is wrong with it; this only needs names. */
export function readChartFile(root: string): ChartFile {
  const path = join(root, 'Chart.yaml');
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { root, name: '', dependencies: [] };
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const contents = doc.contents;
  const nameNode = isMap(contents) ? contents.get('name', true) : undefined;
  const name = isScalar(nameNode) ? String(nameNode.value) : '';
  const deps = isMap(contents) ? contents.get('dependencies', true) : undefined;
  const dependencies: ChartDependency[] = [];
  for (const item of isSeq(deps) ? deps.items : []) {
    if (!isMap(item)) continue;
    const depName = item.get('name', true);
    if (!isScalar(depName) || typeof depName.value !== 'string') continue;
    const alias = item.get('alias');
    const repository = item.get('repository');
    const [start, end] = depName.range ?? [0, 0];
    const from = lines.linePos(start);
    const to = lines.linePos(end);
    dependencies.push({
      name: depName.value,
      valuesKey: typeof alias === 'string' && alias !== '' ? alias : depName.value,
      ...(typeof repository === 'string' ? { repository } : {}),
      range: { start: { line: from.line - 1, character: from.col - 1 }, end: { line: to.line - 1, character: to.col - 1 } },
    });
  }
  return { root, name, dependencies };
}

/**
 * A chart's files as helm names them (`web/templates/deployment.yaml`, a subchart's
 * `web/charts/redis/templates/…`) → the file on disk. A subchart's folder in charts/ may be
 * named otherwise than the chart: the Chart.yaml under it says.
 */
export function chartPathToFile(chart: ChartFile, helmPath: string): string | undefined {
  const parts = helmPath.split('/');
  if (parts[0] !== chart.name || parts.length < 2) return undefined;
  return resolveIn(chart.root, parts.slice(1));
}

function resolveIn(root: string, parts: readonly string[]): string {
  if (parts[0] !== 'charts' || parts.length < 3) return join(root, ...parts);
  const subName = parts[1] as string;
  const subRoot = subchartRoot(root, subName) ?? join(root, 'charts', subName);
  return resolveIn(subRoot, parts.slice(2));
}

export function subchartRoot(root: string, name: string): string | undefined {
  const direct = join(root, 'charts', name);
  if (readChartFile(direct).name === name) return direct;
  let entries: string[];
  try {
    entries = readdirSync(join(root, 'charts'));
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const candidate = join(root, 'charts', entry);
    if (readChartFile(candidate).name === name) return candidate;
  }
  return undefined;
}
