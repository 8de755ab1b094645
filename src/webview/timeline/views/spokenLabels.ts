/**
 * What a screen reader hears as the timeline changes: the canvas's label (the range in view) and
 * the lane summaries (counts). Both follow the view, but at a pace a listener can follow — a
 * label rewritten every frame would be read again and again.
 */
import type { LaneList } from './laneList';

/** The canvas's label changes at most this often (ms)… */
const CANVAS_LABEL_INTERVAL_MS = 1000;
/** …and the lane summaries at most this often, when the counts changed. */
const LANE_LABELS_INTERVAL_MS = 500;

export class SpokenLabels {
  private canvasLabelAt = -Infinity;
  private laneLabelsAt = 0;
  /** The feed version the lane summaries say. */
  private laneLabelsVersion = -1;

  constructor(
    private readonly canvas: HTMLElement,
    private readonly lanes: LaneList,
  ) {}

  /** The canvas's label, as `label()` makes it, if the last change was long enough ago. */
  updateCanvas(at: number, label: () => string): void {
    if (at - this.canvasLabelAt < CANVAS_LABEL_INTERVAL_MS) return;
    this.canvasLabelAt = at;
    const text = label();
    if (this.canvas.getAttribute('aria-label') !== text) this.canvas.setAttribute('aria-label', text);
  }

  /** The lane summaries, if the model (`version`) changed since they were made and not too recently. */
  updateLanes(at: number, version: number): void {
    if (version === this.laneLabelsVersion || at - this.laneLabelsAt < LANE_LABELS_INTERVAL_MS) return;
    this.laneLabelsAt = at;
    this.laneLabelsVersion = version;
    this.lanes.refreshLabels();
  }

  /** The lane list was just filled from the model at `version`: its summaries are current. */
  lanesFilled(version: number): void {
    this.laneLabelsVersion = version;
  }
}
