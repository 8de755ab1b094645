/**
 * Runs `action` at most once per `intervalMs`, some time after the first `poke()` since the last
 * run: a session emits events by the thousand, its views redraw a few times a second. Its one
 * timer goes with `dispose()`.
 */
export class Throttle {
  private timer: NodeJS.Timeout | undefined;
  private lastRun = -Infinity;
  private disposed = false;

  constructor(
    private readonly intervalMs: number,
    private readonly action: () => void,
  ) {}

  poke(): void {
    if (this.timer !== undefined || this.disposed) return;
    const wait = Math.max(0, this.lastRun + this.intervalMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastRun = performance.now();
      this.action();
    }, wait);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
