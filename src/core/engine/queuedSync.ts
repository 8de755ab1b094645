import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';

/**
 * K1: result updates (and exits) reach a pod's sync asynchronously, as through the kubelet's
 * channels: however many arrive in one turn, one sync runs, on the next. Nothing runs once disposed.
 */
export class QueuedSync implements Disposable {
  private timer: Disposable | undefined;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly sync: () => void,
  ) {}

  queue(): void {
    if (this.timer || this.disposed) return;
    this.timer = this.clock.schedule(0, () => {
      this.timer = undefined;
      this.sync();
    });
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.dispose();
    this.timer = undefined;
  }
}
