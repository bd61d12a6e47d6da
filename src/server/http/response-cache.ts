import { VersionedMemo } from '../store/versioned-memo.js';

/**
 * Bodies of list answers, reused while the store has not changed. Monitors poll the same queries over and over;
 * between world ticks the answer is the same bytes.
 *
 * Dropped whenever the store's version moves (store/versioned-memo.ts): the demo's world writes every few seconds, so
 * bodies kept past that only grew the service (docs/benchmarks.md, the demo's growth). Within one version at most
 * `maxChars` are kept.
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
