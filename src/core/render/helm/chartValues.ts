import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readValuesLayer, type ValuesLayer, ValuesLayers } from '../placement/valuesLayers';
import type { KeyPath } from '../placement/yamlTree';
import type { ReadText } from '../files';
import { type ChartFile, readChartFile } from './chartFile';

/** A chart and its directory subcharts, each with the key its values sit under in the top chart's. */
export interface ChartNode {
  readonly chart: ChartFile;
  /** The name helm gives it in template paths and values: its alias in the parent's Chart.yaml, else its name. */
  readonly helmName: string;
  /** Empty for the top chart; `['redis']` for its subchart, `['redis', 'metrics']` below that. */
  readonly prefix: KeyPath;
  readonly subcharts: readonly ChartNode[];
}

/**
 * Subcharts as helm loads them: every folder in charts/ with a Chart.yaml, declared in
 * Chart.yaml or not (a packaged `.tgz` has no lines to point at, and is left out).
 */
export function chartTree(root: string, prefix: KeyPath = [], helmName?: string, depth = 0): ChartNode {
  const chart = readChartFile(root);
  const subcharts: ChartNode[] = [];
  if (depth < 4) {
    for (const subRoot of subchartFolders(root)) {
      const sub = readChartFile(subRoot);
      const declared = chart.dependencies.find((d) => d.name === sub.name);
      const key = declared?.valuesKey ?? sub.name;
      subcharts.push(chartTree(subRoot, [...prefix, key], key, depth + 1));
    }
  }
  return { chart, helmName: helmName ?? chart.name, prefix, subcharts };
}

function subchartFolders(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, 'charts'), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory() || e.isSymbolicLink())
    .map((e) => join(root, 'charts', e.name))
    .filter((dir) => readChartFile(dir).name !== '')
    .sort();
}

/**
 * The values a render of `tree` sees, in helm's order: the deepest subchart's values.yaml first
 * (under its key), up to the chart's own, then each `-f` file (later wins).
 */
export function chartValues(tree: ChartNode, valuesFiles: readonly string[], read: ReadText): ValuesLayers {
  const layers: ValuesLayer[] = [];
  const addChart = (node: ChartNode): void => {
    for (const sub of node.subcharts) addChart(sub);
    const file = join(node.chart.root, 'values.yaml');
    const text = read(file);
    if (text !== undefined) layers.push(readValuesLayer(file, text, node.prefix));
  };
  addChart(tree);
  for (const file of valuesFiles) {
    const text = read(file);
    if (text !== undefined) layers.push(readValuesLayer(file, text));
  }
  return new ValuesLayers(layers);
}

/** The chart node whose templates helm names with `helmPath` (`web/charts/redis/templates/…`). */
export function chartOfTemplate(tree: ChartNode, helmPath: string): { node: ChartNode; relative: string } | undefined {
  const parts = helmPath.split('/');
  if (parts[0] !== tree.helmName) return undefined;
  let node = tree;
  let rest = parts.slice(1);
  while (rest[0] === 'charts' && rest.length > 2) {
    const sub = node.subcharts.find((s) => s.helmName === rest[1]);
    if (!sub) return undefined;
    node = sub;
    rest = rest.slice(2);
  }
  return { node, relative: rest.join('/') };
}

/** The values paths of subcharts: not read by the chart above them. */
export function subchartPrefixes(node: ChartNode): KeyPath[] {
  return node.subcharts.map((s) => s.prefix);
}
