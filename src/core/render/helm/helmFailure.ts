import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import type { RenderFailure } from '../failure';
import { type ChartFile, chartPathToFile } from './chartFile';

/**
 * helm's last word on a failed `helm template`, placed where the user fixes it. Helm 3 and 4
 * write the same shapes (checked against both):
 *   Error: parse error at (web/templates/deployment.yaml:47): unexpected "}" in operand
 *   Error: execution error at (web/templates/deployment.yaml:42:30): image.tag is required
 *   Error: template: web/templates/x.yaml:12:20: executing "…" at <.Values.a.b>: nil pointer …
 *   Error: YAML parse error on web/templates/deployment.yaml: error converting YAML to JSON: yaml: line 29: …
 *   Error: An error occurred while checking for chart dependencies. You may need to run `helm dependency build` … missing in charts/ directory: redis
 *   Error: failed to parse values-prod.yaml: … yaml: line 3: …
 *   Error: values don't meet the specifications of the schema(s) in the following chart(s): …
 *   Error: cannot load values.yaml: … yaml: line 162: did not find expected node content
 *   Error: open /c/web/templates/loop/loop/…/loop: too many levels of symbolic links
 */
export function helmFailure(stderr: string, chart: ChartFile, cwd: string): RenderFailure {
  const text = stderr.replace(/\r/g, '');
  const errorLine = /^Error: (.*)$/m.exec(text)?.[1]?.trim() ?? lastLine(text);
  const located = /(?:parse|execution) error at \(([^():]+):(\d+)(?::(\d+))?\): (.*)$/.exec(errorLine) ?? /template: ([^\s:]+):(\d+)(?::(\d+))?: (.*)$/.exec(errorLine);
  if (located) {
    const file = chartPathToFile(chart, located[1] as string);
    return {
      kind: 'render-error',
      message: `helm template failed: ${located[4]}`,
      ...(file ? { file, line: Number(located[2]) - 1, ...(located[3] ? { character: Number(located[3]) - 1 } : {}) } : {}),
    };
  }
  const yamlError = /^YAML parse error on ([^\s:]+): (?:error converting YAML to JSON: )?(.*)$/.exec(errorLine);
  if (yamlError) {
    const file = chartPathToFile(chart, yamlError[1] as string);
    // The line is the rendered document's, not the template's: say so rather than point at it.
    return { kind: 'render-error', message: `helm template failed: the template renders YAML that does not read (${yamlError[2]}, in the rendered document)`, ...(file ? { file, line: 0 } : {}) };
  }
  const missing = /missing in charts\/ directory: (.+)$/.exec(errorLine);
  if (missing) {
    const names = (missing[1] as string).split(',').map((n) => n.trim());
    const dependency = chart.dependencies.find((d) => names.includes(d.name));
    return {
      kind: 'dependency-missing',
      message: `the chart's dependenc${names.length === 1 ? 'y' : 'ies'} ${names.map((n) => `"${n}"`).join(', ')} ${names.length === 1 ? 'is' : 'are'} declared in Chart.yaml but not in charts/: run \`helm dependency build ${relative(cwd, chart.root) || '.'}\` (Probe Lens renders offline and never fetches charts)`,
      file: join(chart.root, 'Chart.yaml'),
      line: dependency?.range.start.line ?? 0,
      character: dependency?.range.start.character ?? 0,
    };
  }
  const values = /^failed to parse ([^:]+): (?:cannot unmarshal yaml document: )?(?:error converting YAML to JSON: )?(.*)$/.exec(errorLine);
  if (values) {
    const line = /line (\d+)/.exec(values[2] as string)?.[1];
    return { kind: 'render-error', message: `helm template failed: a values file does not read as YAML: ${values[2]}`, file: resolve(cwd, values[1] as string), line: line ? Number(line) - 1 : 0 };
  }
  const chartValues = /^cannot load values\.yaml: (?:cannot unmarshal yaml document: )?(?:error converting YAML to JSON: )?(.*)$/.exec(errorLine);
  if (chartValues) return brokenChartValues(chart.root, chartValues[1] as string);
  const loop = /^(?:open|lstat|stat|readdir) (.+): too many levels of symbolic links$/.exec(errorLine);
  if (loop) {
    const link = loopingLink(chart.root, loop[1] as string);
    return {
      kind: 'unreadable',
      message: `the chart holds a symbolic link loop${link ? ` (${relative(chart.root, link)} points back at a folder that holds it)` : ''}: helm cannot read its files`,
      file: link ?? join(chart.root, 'Chart.yaml'),
      line: 0,
    };
  }
  if (/values don't meet the specifications/.test(errorLine)) {
    const detail = text.split('\n').filter((l) => /^- /.test(l)).map((l) => l.slice(2)).join('; ');
    return { kind: 'render-error', message: `helm template failed: the values do not meet the chart's values.schema.json${detail ? `: ${detail}` : ''}`, file: join(chart.root, 'values.yaml'), line: 0 };
  }
  return { kind: 'render-error', message: `helm template failed: ${errorLine || 'no message (exit status non-zero)'}`, file: join(chart.root, 'Chart.yaml'), line: 0 };
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter((l) => !/^Use --debug/.test(l)).pop() ?? '';
}

/**
 * helm says "cannot load values.yaml" without naming the chart: the chart's own or a subchart's.
 * The first values.yaml that does not read, chart first, is the one; its line is helm's when it is
 * the chart's own (helm counts as the YAML reader does), else the reader's.
 */
function brokenChartValues(root: string, helmWords: string): RenderFailure {
  const helmLine = /line (\d+)/.exec(helmWords)?.[1];
  for (const file of valuesFilesOf(root, 0)) {
    const problem = firstYamlProblem(file);
    if (problem === undefined) continue;
    const line = file === join(root, 'values.yaml') && helmLine ? Number(helmLine) - 1 : problem;
    return { kind: 'render-error', message: `helm template failed: the chart's values.yaml does not read as YAML: ${helmWords}`, file, line };
  }
  return { kind: 'render-error', message: `helm template failed: a chart's values.yaml does not read as YAML: ${helmWords}`, file: join(root, 'values.yaml'), line: helmLine ? Number(helmLine) - 1 : 0 };
}

function* valuesFilesOf(root: string, depth: number): Generator<string> {
  yield join(root, 'values.yaml');
  if (depth > 6) return;
  let entries: string[] = [];
  try {
    entries = readdirSync(join(root, 'charts'));
  } catch {
    return;
  }
  for (const entry of entries.sort()) yield* valuesFilesOf(join(root, 'charts', entry), depth + 1);
}

/** The 0-based line of a file's first YAML error, or undefined when it reads (or is absent). */
function firstYamlProblem(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = new LineCounter();
  const error = parseAllDocuments(text, { lineCounter: lines, version: '1.1' })
    .flatMap((doc) => ('errors' in doc ? doc.errors : []))
    .at(0);
  return error ? (error.linePos?.[0].line ?? 1) - 1 : undefined;
}

/**
 * The link in `path` (helm's ever-longer path through the loop) that leads back to a folder
 * holding it: the first symbolic link whose target is the folder it sits in or one above.
 */
function loopingLink(root: string, path: string): string | undefined {
  const inside = relative(root, path).split(sep);
  let at = root;
  for (const part of inside) {
    at = join(at, part);
    try {
      if (!lstatSync(at).isSymbolicLink()) continue;
      const target = realpathSync(at);
      const folder = realpathSync(dirname(at));
      if (folder === target || folder.startsWith(`${target}${sep}`)) return at;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
