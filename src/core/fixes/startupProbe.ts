import { livenessKillSeconds, MIN_STARTUP_BUDGET_SECONDS } from '../rules/timing/formulas';
import type { ContainerModel, ProbeModel } from '../manifest';
import type { TextEdit } from '../text/edits';
import { type Range, shiftRange } from '../text/range';
import { lineBreakOf, splitLines } from '../text/lines';
import { writtenInContainer } from '../manifest/written';
import { insertAt, isFlowAt, linesAfter, textOf } from '../manifest/yamlText';

/** The startupProbe that was derived, and the edit that adds it. */
export interface DerivedStartupProbe {
  readonly edit: TextEdit;
  readonly failureThreshold: number;
  readonly periodSeconds: number;
  /** Copied from liveness only when it is not the default 1 s. */
  readonly timeoutSeconds?: number;
  /** `B_start = f × p` of the new probe: the budget asked for, rounded up to whole periods. */
  readonly budgetSeconds: number;
}

export type StartupProbeDerivation = { readonly ok: true; readonly probe: DerivedStartupProbe } | { readonly ok: false; readonly reason: string };

/**
 * `failureThreshold` for a startup budget: §C `B_start = d + f × p` must reach the budget, so
 * `f = ⌈(budget − d) / p⌉`, and at least 1 (the API's minimum).
 */
export function startupFailureThreshold(budgetSeconds: number, periodSeconds: number, initialDelaySeconds = 0): number {
  return Math.max(1, Math.ceil((budgetSeconds - initialDelaySeconds) / periodSeconds));
}

/** Why no startupProbe can be derived for this container; `undefined` when one can. */
export function startupProbeObstacle(container: ContainerModel): string | undefined {
  const liveness = container.probe('liveness');
  if (!liveness) return `container "${container.name}" has no livenessProbe to derive a startupProbe from`;
  if (container.probe('startup')) return `container "${container.name}" already has a startupProbe`;
  if (!liveness.effective.handler) return `the livenessProbe of container "${container.name}" has no handler to copy`;
  if (liveness.effective.periodSeconds < 1) return `the livenessProbe of container "${container.name}" has an invalid periodSeconds`;
  if (!writtenInContainer(container, 'livenessProbe')) return `the livenessProbe of container "${container.name}" comes from an alias or merge key: add the startupProbe where it is written`;
  return undefined;
}

/** Why a budget is not worth a startupProbe (L11 would flag the result); `undefined` when it is. */
export function startupBudgetProblem(liveness: ProbeModel, budgetSeconds: number): string | undefined {
  if (!Number.isFinite(budgetSeconds) || budgetSeconds <= 0) return 'the budget must be a positive number of seconds';
  if (budgetSeconds < MIN_STARTUP_BUDGET_SECONDS) return `a budget under ${MIN_STARTUP_BUDGET_SECONDS} s leaves a slow start no room`;
  const kill = livenessKillSeconds(liveness.effective);
  if (budgetSeconds <= kill) return `liveness alone already allows ${kill} s: a budget of ${budgetSeconds} s would protect nothing`;
  return undefined;
}

/**
 * A startupProbe for `container` that gives the app `budgetSeconds` to start: the liveness
 * probe's handler copied as written (named ports, headers, comments and all), its period, and the
 * failureThreshold that makes `f × p` reach the budget. It has no initialDelaySeconds: probing
 * from the start lets a fast start end the startup phase early, and the budget holds without it.
 *
 * Positions in the container model are chunk-relative; `lineOffset` turns them into lines of
 * `text`, the whole file, and the edit is in file positions. `timeoutSeconds`, when given, is the
 * new probe's own (a measured one: recommend.ts) instead of liveness's.
 */
export function deriveStartupProbe(container: ContainerModel, text: string, budgetSeconds: number, lineOffset = 0, timeoutSeconds?: number): StartupProbeDerivation {
  const obstacle = startupProbeObstacle(container);
  if (obstacle) return { ok: false, reason: obstacle };
  const liveness = container.probe('liveness') as ProbeModel;
  const problem = startupBudgetProblem(liveness, budgetSeconds);
  if (problem) return { ok: false, reason: problem };

  const lines = splitLines(text);
  const source = probeSource(liveness, container, lineOffset);
  const periodSeconds = liveness.effective.periodSeconds;
  const failureThreshold = startupFailureThreshold(budgetSeconds, periodSeconds);
  // The same endpoint answers as slowly while starting; a startup attempt that times out fails.
  const timeout = timeoutSeconds ?? liveness.effective.timeoutSeconds;
  const fields: [string, number][] = [
    ['failureThreshold', failureThreshold],
    ['periodSeconds', periodSeconds],
    ...(timeout > 1 ? [['timeoutSeconds', timeout] as [string, number]] : []),
  ];
  const lineBreak = lineBreakOf(text);
  const edit = isFlowAt(lines, source.container.start) ? flowInsertion(lines, lineBreak, source, fields) : blockInsertion(lines, lineBreak, source, fields);
  return { ok: true, probe: { edit, failureThreshold, periodSeconds, ...(timeout > 1 ? { timeoutSeconds: timeout } : {}), budgetSeconds: failureThreshold * periodSeconds } };
}

/** Where the liveness probe and its handler are written, in file positions. */
interface ProbeSource {
  readonly container: Range;
  readonly key: Range;
  readonly value: Range;
  readonly handlerKey: Range;
  readonly handlerValue: Range;
}

function probeSource(liveness: ProbeModel, container: ContainerModel, lineOffset: number): ProbeSource {
  const probe = liveness.locate('');
  const handler = liveness.locate(liveness.effective.handler?.type ?? '');
  if (!probe?.key || !handler?.key) throw new Error(`${liveness.path}: a decoded probe and handler always have locations`);
  return {
    container: shiftRange(container.range, lineOffset),
    key: shiftRange(probe.key, lineOffset),
    value: shiftRange(probe.value, lineOffset),
    handlerKey: shiftRange(handler.key, lineOffset),
    handlerValue: shiftRange(handler.value, lineOffset),
  };
}

/** The handler's text from its key to the end of its value, one entry per line. */
function handlerLines(lines: readonly string[], source: ProbeSource): string[] {
  return textOf(lines, { start: source.handlerKey.start, end: source.handlerValue.end }).text.split('\n');
}

/**
 * A block-style `startupProbe:` on new lines after the liveness probe's last line, its key
 * aligned with `livenessProbe` and its fields with liveness's own fields (2 deeper when liveness
 * is a flow map). The handler keeps its lines; continuation lines move with its key, and stay
 * deeper than it, as a multi-line flow value must.
 */
function blockInsertion(lines: readonly string[], lineBreak: string, source: ProbeSource, fields: readonly [string, number][]): TextEdit {
  const keyColumn = source.key.start.character;
  const probeIsBlock = source.value.start.line > source.key.start.line;
  const fieldColumn = probeIsBlock ? source.value.start.character : keyColumn + 2;
  const shift = fieldColumn - source.handlerKey.start.character;
  const [first = '', ...rest] = handlerLines(lines, source);
  const pad = (n: number) => ' '.repeat(n);
  const block = [
    `${pad(keyColumn)}startupProbe:`,
    `${pad(fieldColumn)}${first}`,
    ...rest.map((line) => reindent(line, shift, fieldColumn + 1)),
    ...fields.map(([name, value]) => `${pad(fieldColumn)}${name}: ${value}`),
  ];
  return linesAfter(lines, lineBreak, source.value.end.line, block);
}

/** Inside a flow-style container (`{name: web, livenessProbe: {…}}`) only a flow entry fits. */
function flowInsertion(lines: readonly string[], lineBreak: string, source: ProbeSource, fields: readonly [string, number][]): TextEdit {
  const handler = handlerLines(lines, source).join(lineBreak);
  const entries = [handler, ...fields.map(([name, value]) => `${name}: ${value}`)].join(', ');
  return insertAt(source.value.end, `, startupProbe: {${entries}}`);
}

/** Moves a line by `shift` columns of leading spaces, but not left of `minimum`; blank lines stay blank. */
function reindent(line: string, shift: number, minimum: number): string {
  const content = line.trimStart();
  if (content === '') return '';
  const indentation = line.length - content.length;
  return ' '.repeat(Math.max(indentation + shift, minimum)) + content;
}

const BUDGET_UNITS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, min: 60, h: 3600 };

/** A budget as a person types it: `90`, `90s`, `90 s`, `2m`, `1.5 min`, `1h`; `undefined` if it is none of those. */
export function parseBudgetSeconds(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|min|h)?$/i.exec(text.trim());
  if (!match) return undefined;
  const unit = BUDGET_UNITS[(match[2] ?? '').toLowerCase()] as number;
  // Whole seconds, rounded up (the budget must not come out shorter than asked) once float noise
  // is gone: 1.1 × 60 is 66.00000000000001.
  return Math.ceil(Math.round(Number(match[1]) * unit * 1000) / 1000);
}
