/** A stretch of time with one value; `end` is `undefined` while it lasts (up to `TimelineModel.end`). */
export interface Span<V> {
  readonly start: number;
  end: number | undefined;
  readonly value: V;
}

/** Opens a span with `value` at `t` unless the open one already has it. */
export function changeSpan<V>(spans: Span<V>[], t: number, value: V, same: (a: V, b: V) => boolean): void {
  const last = spans[spans.length - 1];
  if (last && last.end === undefined) {
    if (same(last.value, value)) return;
    last.end = t;
  }
  spans.push({ start: t, end: undefined, value });
}
