import { apiLine, type Problem, presentFindings } from '../../core/rules/present';
import type { Finding, Severity } from '../../core/rules/types';

export interface TextStyle {
  readonly color: boolean;
}

const COLORS: Readonly<Record<Severity | 'dim' | 'bold', [number, number]>> = {
  error: [31, 39],
  warning: [33, 39],
  info: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
};

/**
 * For people, as the editor shows them: problems grouped by file, each at `line:column` (1-based,
 * as editors show them), in plain words; under an API server error, its exact text.
 */
export function formatText(findings: readonly Finding[], files: readonly string[], style: TextStyle): string {
  const paint = (kind: keyof typeof COLORS, text: string) => (style.color ? `\x1b[${COLORS[kind][0]}m${text}\x1b[${COLORS[kind][1]}m` : text);
  const lines: string[] = [];
  const problems = presentFindings(findings);
  for (const file of files) {
    const inFile = problems.filter((p) => p.primary.file === file);
    if (inFile.length === 0) continue;
    lines.push(paint('bold', file));
    const width = Math.max(...inFile.map((p) => location(p.primary).length));
    for (const { primary, headline, apiText } of inFile) {
      const where = location(primary).padEnd(width);
      lines.push(`  ${paint('dim', where)}  ${paint(primary.severity, primary.severity.padEnd(7))}  ${primary.rule.padEnd(3)}  ${headline}`);
      if (apiText) lines.push(`  ${' '.repeat(width + 16)}  ${paint('dim', apiLine(apiText))}`);
    }
    lines.push('');
  }
  lines.push(summary(problems, files.length, paint));
  return `${lines.join('\n')}\n`;
}

function location(finding: Finding): string {
  return `${finding.range.start.line + 1}:${finding.range.start.character + 1}`;
}

function summary(problems: readonly Problem[], fileCount: number, paint: (kind: keyof typeof COLORS, text: string) => string): string {
  const count = (severity: Severity) => problems.filter((p) => p.primary.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const files = plural(fileCount, 'file');
  if (problems.length === 0) return `${paint('bold', '✔')} no problems in ${files}`;
  const parts = [plural(count('error'), 'error'), plural(count('warning'), 'warning'), `${count('info')} info`];
  const mark = count('error') > 0 ? paint('error', '✖') : paint('warning', '!');
  return `${mark} ${parts.join(', ')} in ${files}`;
}
