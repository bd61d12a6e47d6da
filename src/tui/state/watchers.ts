/**
 * A store's watchers (React's `subscribe`), and what the store listens to while it has any: `listen` is called at
 * the first watcher and what it returns at the last, so a store no pane shows listens to nothing (a scope of a pane's
 * store, a feed strip: each to the change hub).
 */
export class Watchers {
  private readonly watchers = new Set<() => void>();
  private unlisten: (() => void) | undefined;

  constructor(private readonly listen: () => () => void) {}

  subscribe = (watcher: () => void): (() => void) => {
    this.watchers.add(watcher);
    this.unlisten ??= this.listen();
    return () => {
      this.watchers.delete(watcher);
      if (this.watchers.size === 0) this.stop();
    };
  };

  /** Tells each watcher that the store changed. */
  notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  /** Stops listening (the monitor ends); the next watcher listens again. */
  stop(): void {
    this.unlisten?.();
    this.unlisten = undefined;
  }
}
