/** Everything that starts something returns one of these (design.md §5). */
export interface Disposable {
  dispose(): void;
}

export const NO_OP: Disposable = { dispose() {} };

/** Collects disposables and disposes them once, in reverse order. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.reverse()) item.dispose();
    this.items = [];
  }
}
