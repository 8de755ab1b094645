import { parseArgs } from 'node:util';
import { RULE_DOCS } from '../core/rules/docs';
import { RULE_INFO, type RuleInfo } from '../core/rules/registry';
import { rulesMarkdown } from './format/ruleDocs';
import type { CliIo } from './io';
import { UsageError } from './usage';

/** `probe-lens rules [--format text|markdown|json]`: the rule registry, and its documentation. */
export function runRules(argv: readonly string[], io: CliIo): number {
  const { values } = parseArgs({ args: [...argv], options: { format: { type: 'string', default: 'text' } } });
  const rules = Array.from(RULE_INFO.values());
  switch (values.format) {
    case 'json':
      io.stdout(`${JSON.stringify({ schemaVersion: 1, rules: rules.map((rule) => ({ ...rule, doc: RULE_DOCS.get(rule.id) })) }, null, 2)}\n`);
      return 0;
    case 'markdown':
      io.stdout(rulesMarkdown(rules));
      return 0;
    case 'text':
      io.stdout(rules.map((r) => `${r.id.padEnd(4)} ${severities(r).padEnd(15)} ${r.title}`).join('\n') + '\n');
      return 0;
    default:
      throw new UsageError(`--format must be text, markdown or json, not "${values.format}"`);
  }
}

/** `error`, or `error/warning` for a rule that reports either. */
function severities(rule: RuleInfo): string {
  return rule.alsoReports ? `${rule.severity}/${rule.alsoReports.severity}` : rule.severity;
}
