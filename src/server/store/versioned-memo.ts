/**
 * Values worked out from the store, kept while it has not changed: `version` must move on every write to it (see
 * ApiReads.dataVersion), so a kept value is never stale. The version is the whole store's, so once it moves no value
 * kept under an older one can be asked for again: they are all dropped then. Within one version at most `budget` is
 * kept, each value weighing what `weigh` says; past it a value is worked out and not kept.
 */
export class VersionedMemo<V> {
  private readonly entries = new Map<string, V>();
  private version: string | null = null;
  private kept = 0;

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: string, version: string, build: () => V): V {
    if (version !== this.version) {
      this.entries.clear();
      this.kept = 0;
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = build();
    const weight = this.weigh(value);
    if (this.kept + weight <= this.budget) {
      this.entries.set(key, value);
      this.kept += weight;
    }
    return value;
  }

  /** How many values are kept and what they weigh (for the tests: what the memo holds is bounded). */
  get holding(): { values: number; weight: number } {
    return { values: this.entries.size, weight: this.kept };
  }
}
