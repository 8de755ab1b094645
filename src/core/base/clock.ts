import type { Disposable } from './disposable';

/**
 * Time, injected (docs/design.md §5): the engine never reads the system clock or sets a timer
 * itself, so the same code runs on the wall clock and, in simulations and tests, on a virtual
 * one that runs a day of probing in milliseconds.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale; only differences mean anything. */
  now(): number;
  /** Runs `callback` once, `delayMs` from now (at once, after the current task, for 0). */
  schedule(delayMs: number, callback: () => void): Disposable;
}

export class RealClock implements Clock {
  now(): number {
    return performance.now();
  }

  /**
   * Never before `delayMs` has passed on `now()`: Node counts a timer from the event loop's cached
   * time, which lags behind `performance.now()` while a turn is busy, so a timer set late in a turn
   * fires early by that lag. A worker's tick that came early saw itself short of the period's end
   * and ticked again at once: two probes in one period. An early timer waits out the rest.
   */
  schedule(delayMs: number, callback: () => void): Disposable {
    const due = performance.now() + Math.max(0, delayMs);
    const fire = () => {
      const left = due - performance.now();
      if (left > 0) handle = setTimeout(fire, left);
      else callback();
    };
    let handle = setTimeout(fire, Math.max(0, delayMs));
    return { dispose: () => clearTimeout(handle) };
  }
}

class VirtualTimer implements Disposable {
  constructor(public callback: (() => void) | undefined) {}

  dispose(): void {
    this.callback = undefined;
  }
}

/** Virtual time moves in steps of 1/1024 ms: exactly representable, so its sums and differences are exact. */
const TICKS_PER_MS = 1024;

/**
 * Virtual instants on the clock's grid. The editor plays a simulation in steps of real time ×
 * speed, so instants like 92996.81719405686 ms come up; off a grid, `now + (t − now)` need not be
 * `t`, and code that schedules "at the end of this period" (a worker's next tick, the end of a
 * back-off) would find itself a hair early, and schedule again at the same instant, forever. On a
 * binary grid (below 2^53 ticks, some 280 years) that arithmetic is exact.
 */
function onGrid(ms: number): number {
  return Math.round(ms * TICKS_PER_MS) / TICKS_PER_MS;
}

/**
 * A deterministic clock: timers fire in (time, scheduling order) and only when the clock is
 * advanced. Time stands still while a callback runs, so callbacks see the instant they were due.
 * Timers due at the same instant share a bucket (a FIFO), and only distinct instants go through
 * the heap: probe workers on the same period tick together, so a simulation of thousands of
 * them pays for a few heap operations per instant rather than per timer.
 */
export class VirtualClock implements Clock {
  private current = 0;
  private readonly buckets = new Map<number, VirtualTimer[]>();
  /** Distinct due instants, a binary min-heap. */
  private readonly instants: number[] = [];

  constructor(start = 0) {
    this.current = onGrid(start);
  }

  now(): number {
    return this.current;
  }

  schedule(delayMs: number, callback: () => void): Disposable {
    const at = onGrid(this.current + Math.max(0, delayMs));
    const timer = new VirtualTimer(callback);
    const bucket = this.buckets.get(at);
    if (bucket) bucket.push(timer);
    else {
      this.buckets.set(at, [timer]);
      this.push(at);
    }
    return timer;
  }

  /** Fires every timer due up to `until` (inclusive) and leaves the clock there. */
  advanceTo(until: number): void {
    until = onGrid(until);
    for (;;) {
      const at = this.instants[0];
      if (at === undefined || at > until) break;
      this.current = at;
      const bucket = this.buckets.get(at) as VirtualTimer[];
      // A callback may schedule more at this same instant: they join the end of this bucket.
      for (let i = 0; i < bucket.length; i++) {
        const timer = bucket[i] as VirtualTimer;
        const callback = timer.callback;
        if (callback === undefined) continue;
        timer.callback = undefined;
        callback();
      }
      this.buckets.delete(at);
      this.pop();
    }
    this.current = Math.max(this.current, until);
  }

  advanceBy(deltaMs: number): void {
    this.advanceTo(this.current + deltaMs);
  }

  /**
   * When the next timer still waiting is due (`undefined`: none is): where a simulation stepped
   * "to the next event" goes. Instants whose timers were all cancelled are dropped on the way.
   */
  nextDueAt(): number | undefined {
    for (;;) {
      const at = this.instants[0];
      if (at === undefined) return undefined;
      const bucket = this.buckets.get(at) as VirtualTimer[];
      if (bucket.some((timer) => timer.callback !== undefined)) return at;
      this.buckets.delete(at);
      this.pop();
    }
  }

  /** Timers still waiting (cancelled ones excluded), for tests that assert nothing is left. */
  get pendingTimers(): number {
    let pending = 0;
    for (const bucket of this.buckets.values()) for (const timer of bucket) if (timer.callback !== undefined) pending++;
    return pending;
  }

  private push(at: number): void {
    const heap = this.instants;
    heap.push(at);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as number) <= at) break;
      heap[i] = heap[parent] as number;
      i = parent;
    }
    heap[i] = at;
  }

  private pop(): void {
    const heap = this.instants;
    const last = heap.pop() as number;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && (heap[right] as number) < (heap[left] as number) ? right : left;
      if ((heap[child] as number) >= last) break;
      heap[i] = heap[child] as number;
      i = child;
    }
    heap[i] = last;
  }
}
