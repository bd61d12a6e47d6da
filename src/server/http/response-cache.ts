/**
 * Bodies of list answers, reused while the store has not changed. Monitors poll the same queries over and over;
 * between world ticks the answer is the same bytes. The version must change on every write to the store (see
 * ApiReads.dataVersion), so a cached body is never stale.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { version: string; body: string }>();

  constructor(
    private readonly maxEntries = 512,
    private readonly maxBodyChars = 4_000_000,
  ) {}

  get(key: string, version: string, build: () => string): string {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) return hit.body;
    const body = build();
    if (body.length <= this.maxBodyChars) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { version, body });
    }
    return body;
  }
}
