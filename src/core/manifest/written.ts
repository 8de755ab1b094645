import type { SourceLocation } from './decode';
import type { ContainerModel, ProbeModel } from './model';
import { comparePositions, containsPosition, type Range } from '../text/range';

/**
 * Where a fix may edit a field: only where the field is written in the probe's or container's
 * own text. A value reached through an alias (`timeoutSeconds: *t`) or a merge key (`<<: *base`)
 * lives in the anchor, and an edit there would change every object that shares it.
 */

/** The probe's own text, from its key to the end of its value; `undefined` when the probe itself is an alias. */
export function probeOwnText(probe: ProbeModel): Range | undefined {
  const value = probe.locate('')?.value;
  if (!value || comparePositions(value.start, probe.keyRange.end) < 0) return undefined;
  return { start: probe.keyRange.start, end: value.end };
}

/** The field's location when its key and value are both written inside the probe's own text. */
export function writtenInProbe(probe: ProbeModel, relative: string): SourceLocation | undefined {
  const own = probeOwnText(probe);
  const field = probe.locate(relative);
  return own && field && writtenWithin(field, own) ? field : undefined;
}

/** The field's location when its key and value are both written inside the container's own text. */
export function writtenInContainer(container: ContainerModel, relative: string): SourceLocation | undefined {
  const field = container.locate(relative);
  return field && writtenWithin(field, container.range) ? field : undefined;
}

/** A keyed field after its key (not an alias, whose value is the anchor's, written earlier), all of it inside `owner`. */
function writtenWithin(field: SourceLocation, owner: Range): boolean {
  const inside = (range: Range) => containsPosition(owner, range.start) && containsPosition(owner, range.end);
  if (field.key && comparePositions(field.value.start, field.key.start) < 0) return false;
  return inside(field.value) && (!field.key || inside(field.key));
}
