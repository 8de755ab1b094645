/**
 * When the timeline is drawn: at most once an animation frame, however many changes ask for it
 * (a burst of messages, a wheel spin), and — for a moving `now` — again after a delay.
 */
export class FrameScheduler {
  private requested = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly onFrame: () => void) {}

  /** Draws at the next animation frame (once, however often asked before it). */
  request(): void {
    if (this.requested) return;
    this.requested = true;
    requestAnimationFrame(() => {
      this.requested = false;
      this.onFrame();
    });
  }

  /** Draws in `delayMs`, unless a delayed frame is already waiting. */
  requestAfter(delayMs: number): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.request();
    }, delayMs);
  }
}
