import { parseArgs } from 'node:util';
import { type CheckOptions, checkTexts } from '../core/check';
import { normaliseRuleIds } from '../core/rules/registry';
import type { Finding } from '../core/rules/types';
import { formatJson } from './format/json';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import { type CliIo, readText } from './io';
import { minorVersionOption, parseDuration, UsageError } from './usage';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

/** `probe-lens check FILE... | -`: exit 0 no errors, 1 errors found, 2 bad usage or a file that could not be read. */
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

  const options = { disabledRules: new Set(known), minorVersion, ...(expected !== undefined ? { expectedStartupSeconds: expected } : {}) };
  const checked = checkFiles(positionals, options, io);
  // stdout is one report on the files read; with none read, there is nothing to report.
  if (checked.files.length > 0) io.stdout(render(format, checked.findings, checked.files, io));
  return exitCode(checked);
}

interface CheckedFiles {
  /** The files read, as findings name them. */
  readonly files: readonly string[];
  readonly findings: readonly Finding[];
  readonly unreadable: number;
}

/**
 * Checks every file that can be read, as one set of manifests (a Service in one file counts for
 * a Job in another); each file that cannot be read is reported on stderr.
 */
function checkFiles(names: readonly string[], options: Omit<CheckOptions, 'file'>, io: CliIo): CheckedFiles {
  const texts: { file: string; text: string }[] = [];
  let unreadable = 0;
  for (const name of names) {
    const read = readText(name, io);
    if (!read.ok) {
      io.stderr(`probe-lens: ${read.message}\n`);
      unreadable += 1;
      continue;
    }
    texts.push({ file: name === '-' ? '<stdin>' : name, text: read.text });
  }
  return { files: texts.map((t) => t.file), findings: checkTexts(texts, options).flat(), unreadable };
}

/** A file that could not be read (2) wins over errors found (1). */
function exitCode({ unreadable, findings }: CheckedFiles): number {
  if (unreadable > 0) return 2;
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
