import { parseArgs } from 'node:util';
import { checkText } from '../core/check';
import { normaliseRuleIds } from '../core/rules/registry';
import type { Finding } from '../core/rules/types';
import { formatJson } from './format/json';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import { type CliIo, readInput } from './io';
import { minorVersionOption, parseDuration, UsageError } from './usage';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

/** `probe-lens check FILE... | -`: exit 0 no errors, 1 errors found, 2 bad usage or unreadable input. */
export function runCheck(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      disable: { type: 'string', multiple: true, default: [] },
      'kubernetes-version': { type: 'string' },
      'expected-startup': { type: 'string' },
    },
  });
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  if (positionals.length === 0) throw new UsageError('check needs at least one FILE (or - for standard input)');
  const { known, unknown } = normaliseRuleIds((values.disable as string[]).flatMap((list) => list.split(',')));
  if (unknown.length > 0) throw new UsageError(`--disable: unknown rule id ${unknown.map((id) => `"${id}"`).join(', ')} (see 'probe-lens rules')`);
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const expected = values['expected-startup'] === undefined ? undefined : parseDuration(values['expected-startup'], '--expected-startup');

  const files = positionals.map((name) => (name === '-' ? '<stdin>' : name));
  const findings: Finding[] = [];
  for (const [index, name] of positionals.entries()) {
    const text = readInput(name, io);
    findings.push(
      ...checkText(text, {
        file: files[index] as string,
        disabledRules: new Set(known),
        minorVersion,
        ...(expected !== undefined ? { expectedStartupSeconds: expected } : {}),
      }),
    );
  }
  io.stdout(render(format, findings, files, io));
  return findings.some((f) => f.severity === 'error') ? 1 : 0;
}

function render(format: Format, findings: readonly Finding[], files: readonly string[], io: CliIo): string {
  switch (format) {
    case 'json':
      return formatJson(findings, files);
    case 'sarif':
      return formatSarif(findings, io.version, io.cwd);
    case 'text':
      return formatText(findings, files, { color: io.color });
  }
}
