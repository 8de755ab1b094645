/**
 * A timeline of several runs one above the other (issue 12 §3: a recording and its replay with
 * an edited manifest), on one time axis. The events of each run come one run after the other, and
 * each section says how many are its own; lanes of a section have ids prefixed with its name, so
 * the same pod in two runs is two lanes. A model without sections is the usual one, ids unprefixed.
 */

export interface ModelSection {
  /** Short, for lane ids and tooltips: `recorded`, `replayed`. */
  readonly name: string;
  /** What its heading says: `replayed with the edited manifest`. */
  readonly title: string;
  /** How many of the events, after those of the sections before it, are its own. */
  readonly events: number;
}

/** A store lane key (`laneKeys.ts`) in a section: `replayed|pod:web`; unchanged outside sections. */
export function sectionLaneKey(section: string | undefined, key: string): string {
  return section === undefined ? key : `${section}|${key}`;
}

/** Which section the events belong to, as they are counted in. */
export class SectionCursor {
  private index = -1;
  /** The event count at which the current section ends. */
  private endsAt = 0;

  constructor(private readonly sections: readonly ModelSection[]) {
    this.seek(0);
  }

  /** The section of the event numbered `count` (0-based), events being seen in order; the last section takes any beyond. */
  sectionOf(count: number): ModelSection | undefined {
    this.seek(count);
    return this.sections[this.index];
  }

  private seek(count: number): void {
    while (count >= this.endsAt && this.index < this.sections.length - 1) {
      this.index++;
      this.endsAt += (this.sections[this.index] as ModelSection).events;
    }
  }
}
