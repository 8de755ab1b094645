import type { ProbeModel, SourceLocation } from '../manifest';
import type { TextEdit } from '../text/edits';
import { comparePositions, type Position, type Range, shiftRange } from '../text/range';
import { lineBreakOf, splitLines } from '../text/lines';
import { probeOwnText, writtenInProbe } from '../manifest/written';
import { appendToMap } from '../manifest/yamlText';

/**
 * Edits that set a probe's whole-number fields (timeoutSeconds, failureThreshold, …): a value is
 * replaced where it is written in the probe itself, and a field the probe does not write is
 * appended to the probe's own map, in its block or flow style. A value reached through an alias
 * or a merge key is left alone: it lives in the anchor, shared with every object that uses it.
 */

/** Where a fix works: the file's lines, its line break, and what places the model's chunk-relative ranges in the file. */
export interface FieldEditContext {
  readonly lines: readonly string[];
  readonly lineBreak: string;
  readonly place: (range: Range) => Range;
}

export function fieldEditContext(text: string, lineOffset = 0): FieldEditContext {
  return { lines: splitLines(text), lineBreak: lineBreakOf(text), place: (range) => shiftRange(range, lineOffset) };
}

export type ProbeFieldEdits = { readonly ok: true; readonly edits: readonly TextEdit[] } | { readonly ok: false; readonly reason: string };

/**
 * The edits that give `probe` these field values, or why there are none: one replacement per
 * field written in the probe, and one insertion holding every field it does not write.
 */
export function probeFieldEdits(context: FieldEditContext, probe: ProbeModel, values: readonly (readonly [field: string, value: number])[]): ProbeFieldEdits {
  const edits: TextEdit[] = [];
  const missing: string[] = [];
  for (const [field, value] of values) {
    const written = writtenInProbe(probe, field);
    if (written) {
      edits.push(replaceValue(context, written, String(value)));
      continue;
    }
    if (probe.locate(field)) return { ok: false, reason: `${field} of the ${probeKey(probe)} comes from an alias or merge key: changing it there would change every object that shares it` };
    missing.push(`${field}: ${value}`);
  }
  if (missing.length === 0) return { ok: true, edits };
  const own = probeOwnText(probe);
  const map = probe.locate('')?.value;
  if (!own || !map) return { ok: false, reason: `the ${probeKey(probe)} is an alias: its fields are written in the anchor, which other objects share` };
  edits.push(appendToMap(context.lines, context.lineBreak, context.place(map), lastEntryEnd(probe, context.place), missing));
  return { ok: true, edits };
}

/**
 * One field set to `value`: replaced where written in the probe, else a new entry of the probe's
 * map; `undefined` where it cannot be (an alias, a merge key).
 */
export function probeFieldEdit(context: FieldEditContext, probe: ProbeModel, field: string, value: number): TextEdit | undefined {
  const result = probeFieldEdits(context, probe, [[field, value]]);
  return result.ok && result.edits.length === 1 ? result.edits[0] : undefined;
}

/** Where the probe map's last written field ends (of the fields the model knows; a misspelt one after it stays after). */
export function lastEntryEnd(probe: ProbeModel, place: (range: Range) => Range): Position | undefined {
  const ends = Object.keys(probe.spec).flatMap((field) => {
    const value = writtenInProbe(probe, field)?.value;
    return value ? [place(value).end] : [];
  });
  return ends.sort(comparePositions).pop();
}

/**
 * A written value replaced. A key with no value (`timeoutSeconds:`, which decodes as not set) has
 * no value node of its own: the number goes after its colon, with a space, or `key:2` would read
 * as one plain scalar.
 */
function replaceValue(context: FieldEditContext, written: SourceLocation, newText: string): TextEdit {
  const value = context.place(written.value);
  const key = written.key && context.place(written.key);
  const noValueNode = written.isNull && (comparePositions(value.start, value.end) === 0 || (key !== undefined && comparePositions(value.start, key.start) === 0));
  if (!noValueNode || !key) return { range: value, newText };
  const line = context.lines[key.end.line] ?? '';
  const colon = line.indexOf(':', key.end.character);
  const after = { line: key.end.line, character: colon < 0 ? line.length : colon + 1 };
  return { range: { start: after, end: after }, newText: ` ${newText}` };
}

function probeKey(probe: ProbeModel): string {
  return `${probe.type}Probe of container "${probe.container.name}"`;
}
