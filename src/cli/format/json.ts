import type { Finding } from '../../core/rules/types';

export const JSON_SCHEMA_VERSION = 1;

/** The finding schema of docs/design.md §3, in a versioned envelope; nothing else on stdout. */
export function formatJson(findings: readonly Finding[], files: readonly string[]): string {
  const count = (severity: Finding['severity']) => findings.filter((f) => f.severity === severity).length;
  const body = {
    schemaVersion: JSON_SCHEMA_VERSION,
    files,
    summary: { errors: count('error'), warnings: count('warning'), infos: count('info') },
    findings: findings.map(({ rule, severity, kind, message, file, doc, path, container, object, range, rendered }) => ({
      rule,
      severity,
      ...(kind ? { kind } : {}),
      message,
      file,
      doc,
      path,
      ...(object ? { object } : {}),
      ...(container ? { container } : {}),
      range,
      ...(rendered ? { rendered } : {}),
    })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
