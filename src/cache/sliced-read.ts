/**
 * A read of the cache worked out in steps: each `yield` is a point where it may stop for the event loop, so a key or
 * a frame never waits behind the whole read (13 cities of the board, ten sources of the feed, a book of positions,
 * time travel's alert rules a step at a time). The one runner of such reads: the board, the feed, the alerts' replay
 * and the panes' stores all run theirs here, at once (`readNow`) or a slice at a time (`readSliced`).
 */
export type SlicedRead<T> = Generator<void, T, void>;

/**
 * How long a run of steps holds the event loop before it lets keys and frames through: well under a 60 Hz frame,
 * so a key that comes meanwhile is answered within a frame.
 */
export const SLICE_MS = 4;

/** Runs a read to its end at once: its result is needed now (a key's commit, a test). */
export function readNow<T>(read: SlicedRead<T>): T {
  for (;;) {
    const step = read.next();
    if (step.done) return step.value;
  }
}

export interface Running {
  cancel(): void;
}

/**
 * Runs a read in the background, SLICE_MS of steps at a time between turns of the event loop, then hands its result
 * to `done` (or its error to `failed`). `cancel` stops it at its next step; neither is called then.
 */
export function readSliced<T>(
  read: SlicedRead<T>,
  done: (value: T) => void,
  failed: (error: unknown) => void,
): Running {
  let cancelled = false;
  let timer: NodeJS.Immediate | undefined;
  const slice = () => {
    timer = undefined;
    const until = performance.now() + SLICE_MS;
    try {
      while (!cancelled) {
        const step = read.next();
        if (step.done) {
          done(step.value);
          return;
        }
        if (performance.now() >= until) break;
      }
    } catch (error) {
      if (!cancelled) failed(error);
      return;
    }
    if (!cancelled) timer = setImmediate(slice);
  };
  timer = setImmediate(slice);
  return {
    cancel() {
      cancelled = true;
      if (timer) clearImmediate(timer);
      timer = undefined;
      read.return(undefined as never);
    },
  };
}
