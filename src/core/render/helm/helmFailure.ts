import { join, relative, resolve } from 'node:path';
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
  if (/values don't meet the specifications/.test(errorLine)) {
    const detail = text.split('\n').filter((l) => /^- /.test(l)).map((l) => l.slice(2)).join('; ');
    return { kind: 'render-error', message: `helm template failed: the values do not meet the chart's values.schema.json${detail ? `: ${detail}` : ''}`, file: join(chart.root, 'values.yaml'), line: 0 };
  }
  return { kind: 'render-error', message: `helm template failed: ${errorLine || 'no message (exit status non-zero)'}`, file: join(chart.root, 'Chart.yaml'), line: 0 };
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter((l) => !/^Use --debug/.test(l)).pop() ?? '';
}
