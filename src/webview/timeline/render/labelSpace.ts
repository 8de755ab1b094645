/**
 * Where a band's name may be written in a row: after whatever is already written at its start (a
 * restart's `↻2 shop/api/2`, a `tunnel down` note) and before whatever comes next, or not at all —
 * two labels never overlap. Pure: node tests import it.
 */

/** Space between a label and the band's edge or another label (CSS px). */
const PAD = 4;
/** A band narrower than this (after what is taken) gets no name. */
const MIN_ROOM = 24;

export class LabelSpace {
  /** Taken [from, to) ranges, as pairs. */
  private taken = new Float64Array(64);
  private count = 0;

  /** A new row: nothing written yet. */
  clear(): void {
    this.count = 0;
  }

  /** Marks `[from, to)` (CSS px) as written. */
  take(from: number, to: number): void {
    if (this.count * 2 + 2 > this.taken.length) {
      const bigger = new Float64Array(this.taken.length * 2);
      bigger.set(this.taken);
      this.taken = bigger;
    }
    this.taken[this.count * 2] = from;
    this.taken[this.count * 2 + 1] = to;
    this.count++;
  }

  /**
   * Where a label `width` px wide starts in a band from `x0` to `x1`, on a canvas `limit` px wide:
   * `PAD` in from the band's (visible) start, moved past anything taken there, and ending `PAD`
   * before the next taken range or the band's end. `undefined` if it does not fit.
   */
  place(x0: number, x1: number, width: number, limit: number): number | undefined {
    let left = Math.max(x0, 0) + PAD;
    let right = x1;
    const taken = this.taken;
    for (let i = 0; i < this.count; i++) {
      const from = taken[2 * i] as number;
      const to = taken[2 * i + 1] as number;
      // Taken where the label would start: it starts after. Taken further on: it ends before.
      // Ranges are taken in order along the row; out of order, the worst is a label left out
      // (`right` ends up before `left`), never one written over another.
      if (from < left + PAD && to > left - PAD) left = to + 2 * PAD;
      else if (from >= left && from < right) right = Math.min(right, from - PAD);
    }
    const room = Math.min(right, limit) - left - PAD;
    if (room < MIN_ROOM || width > room) return undefined;
    return left;
  }
}
