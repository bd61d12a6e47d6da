import { VersionedMemo } from '../store/versioned-memo.js';

/**
 * Bodies of list answers, reused while the store has not changed. Monitors poll the same queries over and over;
 * between world ticks the answer is the same bytes.
 *
 * Dropped whenever the store's version moves (store/versioned-memo.ts): kept until 512 places were full, dead bodies
 * grew the demo's service by 2 to 3 MB a minute (its world writes every few seconds and the monitor's cursors move
 * with it) and held the pages of its 30-day history fill, hundreds of kilobytes each: the demo peaked at 414 to 429
 * MB, and at 318 once they went. Within one version at most `maxChars` are kept.
 */
export class ResponseCache extends VersionedMemo<string> {
  constructor(maxChars = 16_000_000) {
    super(maxChars, (body) => body.length);
  }

  /** How many bodies and characters are kept (for the tests: what the cache holds is bounded). */
  get held(): { bodies: number; chars: number } {
    const { values, weight } = this.holding;
    return { bodies: values, chars: weight };
  }
}
