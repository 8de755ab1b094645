import type { Disposable } from './disposable';

/**
 * Time, injected (design.md §5): the engine never reads the system clock or sets a timer
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

  schedule(delayMs: number, callback: () => void): Disposable {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    return { dispose: () => clearTimeout(handle) };
  }
}

class VirtualTimer implements Disposable {
  constructor(
    readonly at: number,
    readonly seq: number,
    public callback: (() => void) | undefined,
  ) {}

  dispose(): void {
    this.callback = undefined;
  }
}

/**
 * A deterministic clock: timers fire in (time, scheduling order) and only when the clock is
 * advanced. Time stands still while a callback runs, so callbacks see the instant they were due.
 */
export class VirtualClock implements Clock {
  private current = 0;
  private seq = 0;
  private readonly heap: VirtualTimer[] = [];

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  schedule(delayMs: number, callback: () => void): Disposable {
    const timer = new VirtualTimer(this.current + Math.max(0, delayMs), this.seq++, callback);
    this.push(timer);
    return timer;
  }

  /** Fires every timer due up to `until` (inclusive) and leaves the clock there. */
  advanceTo(until: number): void {
    for (;;) {
      const next = this.heap[0];
      if (next === undefined || next.at > until) break;
      this.pop();
      const callback = next.callback;
      if (callback === undefined) continue;
      next.callback = undefined;
      this.current = next.at;
      callback();
    }
    this.current = Math.max(this.current, until);
  }

  advanceBy(deltaMs: number): void {
    this.advanceTo(this.current + deltaMs);
  }

  /** Timers still waiting (cancelled ones excluded), for tests that assert nothing is left. */
  get pendingTimers(): number {
    return this.heap.filter((t) => t.callback !== undefined).length;
  }

  private push(timer: VirtualTimer): void {
    const heap = this.heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(timer, heap[parent] as VirtualTimer)) break;
      heap[i] = heap[parent] as VirtualTimer;
      i = parent;
    }
    heap[i] = timer;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop() as VirtualTimer;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && earlier(heap[right] as VirtualTimer, heap[left] as VirtualTimer) ? right : left;
      if (!earlier(heap[child] as VirtualTimer, last)) break;
      heap[i] = heap[child] as VirtualTimer;
      i = child;
    }
    heap[i] = last;
  }
}

function earlier(a: VirtualTimer, b: VirtualTimer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
