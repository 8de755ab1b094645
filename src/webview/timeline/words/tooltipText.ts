/** A tooltip as the timeline shows it: a title, then a few lines. */
export interface Tooltip {
  readonly title: string;
  readonly lines: readonly string[];
}
