import { isAbsolute, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { buildHistory } from '../core/history/history';
import { manifestPodNames, measureRecording } from '../core/history/measure';
import { type RecommendationReport, recommend } from '../core/recommend/recommend';
import { dataText, recommendationTitle } from '../core/recommend/recommendText';
import { unifiedDiff } from '../core/text/unifiedDiff';
import { type CliIo, readInput } from './io';
import { requirePlayable } from './manifestInput';
import { readRecording } from './recordingFile';
import { minorVersionOption, UsageError } from './usage';

export const RECOMMEND_SCHEMA_VERSION = 1;

/**
 * `probe-lens recommend FILE --from RECORDING.jsonl [--format patch|json]`: probe values measured
 * from a recording. `patch` (default) is the reasoning as `#` lines, then a unified diff of FILE
 * that `git apply` and `patch -p1` take; `json` the measurements, recommendations and what the
 * data was too thin for. Exit 0 with or without recommendations (none: said on stderr), 2 on bad
 * input.
 */
export function runRecommend(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      format: { type: 'string', default: 'patch' },
      'kubernetes-version': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('recommend needs exactly one FILE: the manifest to recommend values for');
  if (values.from === undefined) throw new UsageError('recommend needs --from RECORDING.jsonl: a recording of the app (probe-lens simulate|run FILE --format jsonl, or a timeline export)');
  if (values.format !== 'patch' && values.format !== 'json') throw new UsageError(`--format must be patch or json, not "${values.format}"`);
  const file = positionals[0] as string;
  if (file === '-') throw new UsageError('recommend needs FILE as a file: the patch names it');
  const minorVersion = minorVersionOption(values['kubernetes-version']);
  const text = readInput(file, io);
  requirePlayable(file, text, minorVersion, 'to recommend values for');
  const recording = readRecording(values.from, io);
  const history = buildHistory(recording.header, recording.events);
  const measurements = measureRecording(history);
  if (measurements.length === 0) throw new UsageError(`${recording.name}: no probe attempts to measure`);
  const report = recommend({ text, file, measurements, kills: history.kills, manifestPods: manifestPodNames(recording.events), minorVersion });
  for (const note of report.unmatched) io.stderr(`probe-lens: note: ${recording.name}: ${note}\n`);
  if (report.matched === 0) {
    throw new UsageError(`${recording.name}: none of its pods and containers are in ${file}: was it recorded from another manifest?`);
  }
  // Absent figures are null, so every measurement has the same keys.
  if (values.format === 'json') io.stdout(`${JSON.stringify(reportJson(report), (_key, value: unknown) => (value === undefined ? null : value), 2)}\n`);
  else if (report.recommendations.length > 0) io.stdout(patchText(report, text, diffName(file, io.cwd)));
  if (report.recommendations.length === 0) {
    const why = [
      ...(report.dropped.length > 0 ? ['what the measurements call for cannot be written without tripping a rule or an anchor'] : []),
      ...(report.notEnoughData.length > 0 ? ['some figures rest on too little data'] : []),
    ];
    io.stderr(`probe-lens: no recommendations for ${file} (measured ${dataText(report.measurements)}): ${why.length > 0 ? why.join('; ') : 'its values fit what was measured'}\n`);
    if (values.format === 'patch') for (const line of [...thinLines(report), ...droppedLines(report)]) io.stderr(`probe-lens: ${line}\n`);
  }
  return 0;
}

function reportJson(report: RecommendationReport) {
  return {
    schemaVersion: RECOMMEND_SCHEMA_VERSION,
    measurements: report.measurements,
    recommendations: report.recommendations.map(({ pod, container, probe, field, from, to, reason, changes }) => ({ pod, container, probe, field, from, to, reason, changes })),
    notEnoughData: report.notEnoughData,
    dropped: report.dropped,
    unmatched: report.unmatched,
  };
}

/** The reasoning, then the diff: `patch` and `git apply` skip what comes before the first `---`. */
function patchText(report: RecommendationReport, text: string, name: string): string {
  const comments = reasoningLines(report).map((line) => (line === '' ? '#' : `# ${line}`));
  return `${comments.join('\n')}\n${unifiedDiff(`a/${name}`, `b/${name}`, text, report.edits)}`;
}

function reasoningLines(report: RecommendationReport): string[] {
  const lines = [`probe-lens recommend: measured ${dataText(report.measurements)}`];
  for (const r of report.recommendations) lines.push('', `${r.pod}/${r.container} ${recommendationTitle(r)}`, `  why: ${r.reason}`, `  changes: ${r.changes}`);
  const thin = thinLines(report);
  const dropped = droppedLines(report);
  if (thin.length > 0 || dropped.length > 0) lines.push('', ...thin, ...dropped);
  lines.push('');
  return lines;
}

function thinLines(report: RecommendationReport): string[] {
  return report.notEnoughData.map((n) => `not enough data: ${n.pod}/${n.container}${n.probe ? ` ${n.probe}Probe` : ''} (${n.figure}): ${n.reason}`);
}

function droppedLines(report: RecommendationReport): string[] {
  return report.dropped.map((d) => {
    const what = d.field === 'startupProbe' ? `a startupProbe to add${d.to === null ? '' : ` (budget ${d.to} s)`}` : `${d.probe}Probe.${d.field}${d.to === null ? '' : ` ${d.to}`}`;
    return `not recommended: ${d.pod}/${d.container} ${what}: ${d.reason}`;
  });
}

/** FILE as the diff names it: relative to the working directory when inside it (what `patch -p1` there finds). */
function diffName(file: string, cwd: string): string {
  const path = relative(cwd, resolve(cwd, file));
  const inside = path !== '' && !path.startsWith('..') && !isAbsolute(path);
  return (inside ? path : file).split(sep).join('/');
}
