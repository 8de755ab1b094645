import { availableParallelism } from 'node:os';
import { type Dirent, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CheckedText, type CheckOptions, checkTexts } from '../core/check';
import { checkChart } from '../core/checkChart';
import { checkOverlay } from '../core/checkOverlay';
import type { RenderFailure } from '../core/render/failure';
import { absoluteValuesFiles, Helm } from '../core/render/helm/helm';
import { Kustomize } from '../core/render/kustomize/kustomize';
import { readOverlayGraph } from '../core/render/kustomize/overlayGraph';
import { normaliseRuleIds } from '../core/rules/registry';
import type { Finding } from '../core/rules/types';
import { type NamedSource, sortInputs } from './checkInputs';
import { formatJson } from './format/json';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import { type CliIo, readText } from './io';
import { minorVersionOption, parseDuration, UsageError } from './usage';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

/**
 * `probe-lens check PATH... | -`: manifests as written, Helm charts and kustomize overlays as
 * rendered. Exit 0 no errors, 1 errors found, 2 bad usage, a file that could not be read or a
 * chart that could not be rendered (the others are still checked and reported).
 */
export async function runCheck(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      disable: { type: 'string', multiple: true, default: [] },
      'kubernetes-version': { type: 'string' },
      'expected-startup': { type: 'string' },
      values: { type: 'string', short: 'f', multiple: true, default: [] },
      set: { type: 'string', multiple: true, default: [] },
      'set-string': { type: 'string', multiple: true, default: [] },
      'api-versions': { type: 'string', multiple: true, default: [] },
      release: { type: 'string' },
      namespace: { type: 'string', short: 'n' },
      helm: { type: 'string' },
      kustomize: { type: 'string' },
    },
  });
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  if (positionals.length === 0) throw new UsageError('check needs at least one PATH (a manifest, a chart, an overlay, or - for standard input)');
  const { known, unknown } = normaliseRuleIds((values.disable as string[]).flatMap((list) => list.split(',')));
  if (unknown.length > 0) throw new UsageError(`--disable: unknown rule id ${unknown.map((id) => `"${id}"`).join(', ')} (see 'probe-lens rules')`);
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const expected = values['expected-startup'] === undefined ? undefined : parseDuration(values['expected-startup'], '--expected-startup');
  const options = { disabledRules: new Set(known), minorVersion, ...(expected !== undefined ? { expectedStartupSeconds: expected } : {}) };

  const inputs = sortInputs(positionals, io.cwd);
  const chartFlags = {
    valuesFiles: absoluteValuesFiles(values.values as string[], io.cwd),
    set: values.set as string[],
    setString: values['set-string'] as string[],
    apiVersions: (values['api-versions'] as string[]).flatMap((v) => v.split(',')),
    ...(values.release ? { release: values.release } : {}),
    ...(values.namespace ? { namespace: values.namespace } : {}),
  };
  if (inputs.sources.length === 0 && (chartFlags.valuesFiles.length > 0 || chartFlags.set.length > 0 || chartFlags.setString.length > 0))
    throw new UsageError('--values, --set and --set-string are for charts: name a chart (a folder with Chart.yaml, or a file in it)');
  const helm = new Helm({ path: values.helm ?? 'helm', namedBy: 'pass --helm PATH' });
  const kustomize = new Kustomize({ path: values.kustomize ?? 'kubectl', namedBy: 'pass --kustomize PATH' });

  for (const failure of inputs.failures) io.stderr(`probe-lens: ${failureText(failure, io.cwd)}\n`);
  const rendered = await checkSources(withoutIncludedBases(inputs.sources), { ...options, ...chartFlags, helm, kustomize }, io);
  const helmHint = `Probe Lens renders its chart and checks the output once it can run helm (${values.helm ? `none at ${values.helm}` : 'none on PATH'}; install Helm 3 or 4, or pass --helm PATH)`;
  const plain = checkFiles([...inputs.plain.map((name) => ({ name })), ...rendered.unrendered.map((file) => ({ name: shownPath(file, io.cwd), hint: helmHint }))], options, io);
  const files = [...new Set([...plain.files, ...rendered.files])];
  const findings = onceEach([...plain.findings, ...rendered.findings]);
  // stdout is one report on what was read; with nothing read, there is nothing to report.
  if (files.length > 0) io.stdout(render(format, findings, files, io, [...inputs.failures, ...rendered.failures]));
  return exitCode(findings, plain.unreadable + rendered.failures.length + inputs.failures.length);
}

interface ChartFlags {
  readonly helm: Helm;
  readonly kustomize: Kustomize;
  readonly valuesFiles: readonly string[];
  readonly set: readonly string[];
  readonly setString: readonly string[];
  readonly apiVersions: readonly string[];
  readonly release?: string;
  readonly namespace?: string;
}

interface CheckedSources {
  readonly files: readonly string[];
  readonly findings: readonly Finding[];
  /** The renders that failed, as said on stderr. */
  readonly failures: readonly RenderFailure[];
  /** Template files checked as written, because no helm could render their chart (Y03 says how to turn rendering on). */
  readonly unrendered: readonly string[];
}

/** Renders every chart (up to one per core at a time) and checks each rendering as one set of manifests. */
async function checkSources(sources: readonly NamedSource[], options: Omit<CheckOptions, 'file'> & ChartFlags, io: CliIo): Promise<CheckedSources> {
  const results = await inParallel(sources, availableParallelism(), (named) =>
    named.source.kind === 'chart'
      ? checkChart(named.source.root, { ...options, valuesFiles: [...options.valuesFiles, ...named.valuesFiles] })
      : checkOverlay(named.source.root, options),
  );
  const files: string[] = [];
  const findings: Finding[] = [];
  const unrendered: string[] = [];
  const failures: RenderFailure[] = [];
  const missingSaid = new Set<NamedSource['source']['kind']>();
  results.forEach((result, i) => {
    const named = sources[i] as NamedSource;
    if (result.ok) {
      const shown = result.value.findings.map((f) => ({ ...f, file: shownPath(f.file, io.cwd) }));
      const own = [...new Set(shown.map((f) => f.file))];
      files.push(...(own.length > 0 ? own : [named.name]));
      findings.push(...shown);
      return;
    }
    if (result.failure.kind === 'renderer-missing') {
      if (!missingSaid.has(named.source.kind)) io.stderr(`probe-lens: ${result.failure.message}\n`);
      missingSaid.add(named.source.kind);
      unrendered.push(...(named.source.kind === 'chart' ? templatesOf(named) : overlayResourcesOf(named)));
      return;
    }
    failures.push(result.failure);
    // A failure placed in a file names the file; one that is not says which chart or overlay it is.
    io.stderr(`probe-lens: ${result.failure.file ? '' : `${named.name}: `}${failureText(result.failure, io.cwd)}\n`);
  });
  return { files, findings, failures, unrendered };
}

/**
 * A base that another overlay of the run builds on is checked through that overlay (what is
 * deployed), not again alone: `check deploy/` finds `bases/backend` and `overlays/production`
 * both, and the base's findings would otherwise come twice.
 */
function withoutIncludedBases(sources: readonly NamedSource[]): NamedSource[] {
  const included = new Set<string>();
  for (const named of sources) {
    if (named.source.kind !== 'overlay') continue;
    const graph = readOverlayGraph(named.source.root);
    if (graph.ok) for (const dir of graph.value.directories) if (dir !== resolve(named.source.root)) included.add(dir);
  }
  return sources.filter((named) => named.source.kind !== 'overlay' || !included.has(resolve(named.source.root)));
}

/** The same finding reached twice (a base shared by two overlays, rendered alike in both) is reported once. */
function onceEach(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.file}\u0000${f.rule}\u0000${f.range.start.line}:${f.range.start.character}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Without kubectl, an overlay's resource files are checked as written (its patches are fragments, so not them). */
function overlayResourcesOf(named: NamedSource): string[] {
  const graph = readOverlayGraph(named.source.root);
  return graph.ok ? graph.value.resources.filter((file) => /\.ya?ml$/.test(file)) : [];
}

/** Without helm, a chart's templates are checked as written: each says (Y03) what would render it. */
function templatesOf(named: NamedSource): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 6) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (/\.ya?ml$/.test(entry.name)) found.push(path);
    }
  };
  walk(join(named.source.root, 'templates'), 0);
  return found;
}

async function inParallel<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
  return results;
}

/** `chart/templates/x.yaml:12:3: helm template failed: …`, as compilers write it. */
function failureText(failure: RenderFailure, cwd: string): string {
  if (!failure.file) return failure.message;
  const where = `${shownPath(failure.file, cwd)}${failure.line !== undefined ? `:${failure.line + 1}${failure.character !== undefined ? `:${failure.character + 1}` : ''}` : ''}`;
  return `${where}: ${failure.message}`;
}

function shownPath(file: string, cwd: string): string {
  if (file.endsWith(' (rendered)')) return file;
  const inside = relative(cwd, file);
  return inside && !inside.startsWith('..') ? inside : file;
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
function checkFiles(names: readonly { name: string; hint?: string }[], options: Omit<CheckOptions, 'file'>, io: CliIo): CheckedFiles {
  const texts: CheckedText[] = [];
  let unreadable = 0;
  for (const { name, hint } of names) {
    const read = readText(name, io);
    if (!read.ok) {
      io.stderr(`probe-lens: ${read.message}\n`);
      unreadable += 1;
      continue;
    }
    texts.push({ file: name === '-' ? '<stdin>' : name, text: read.text, ...(hint ? { renderingHint: hint } : {}) });
  }
  return { files: texts.map((t) => t.file), findings: checkTexts(texts, options).flat(), unreadable };
}

/** Input that could not be read or rendered (2) wins over errors found (1). */
function exitCode(findings: readonly Finding[], failures: number): number {
  if (failures > 0) return 2;
  return findings.some((f) => f.severity === 'error') ? 1 : 0;
}

function render(format: Format, findings: readonly Finding[], files: readonly string[], io: CliIo, failures: readonly RenderFailure[]): string {
  switch (format) {
    case 'json':
      return formatJson(findings, files);
    case 'sarif':
      return formatSarif(findings, io.version, io.cwd, failures);
    case 'text':
      return formatText(findings, files, { color: io.color });
  }
}
