/**
 * Bodies of list answers, reused while the store has not changed. Monitors poll the same queries over and over;
 * between world ticks the answer is the same bytes. The version must change on every write to the store (see
 * ApiReads.dataVersion), so a cached body is never stale.
 *
 * The version is the whole store's, so once it moves no body kept under an older one can be asked for again: they are
 * all dropped then. Kept until 512 places were full, dead bodies grew the demo's service by 2 to 3 MB a minute (its
 * world writes every few seconds and the monitor's cursors move with it) and held the pages of its 30-day history
 * fill, hundreds of kilobytes each: the demo peaked at 414 to 429 MB, and at 318 once they went. Within one version
 * at most `maxChars` are kept.
 */
export class ResponseCache {
  private readonly entries = new Map<string, string>();
  private version: string | null = null;
  private keptChars = 0;

  constructor(private readonly maxChars = 16_000_000) {}

  get(key: string, version: string, build: () => string): string {
    if (version !== this.version) {
      this.entries.clear();
      this.keptChars = 0;
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const body = build();
    if (this.keptChars + body.length <= this.maxChars) {
      this.entries.set(key, body);
      this.keptChars += body.length;
    }
    return body;
  }

  /** How many bodies and characters are kept (for the tests: what the cache holds is bounded). */
  get held(): { bodies: number; chars: number } {
    return { bodies: this.entries.size, chars: this.keptChars };
  }
}
