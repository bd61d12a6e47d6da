/** One bucket's price at one mkta snapshot (from `mkta_buckets_history`). */
export interface BucketQuote {
  local_date: string;
  bucket_slug: string;
  bucket_label: string;
  yes_price: number;
  no_price: number;
  snapshot_at: string;
}

/**
 * The newest quotes of one city's markets, by (market date, bucket slug) and by (market date, bucket label): edge
 * trades name their bucket by label only.
 */
export class QuoteBook {
  private readonly bySlug = new Map<string, BucketQuote>();
  private readonly byLabel = new Map<string, BucketQuote>();

  /** `quotes` newest first: the first quote of a bucket is its latest. */
  constructor(readonly quotes: readonly BucketQuote[]) {
    for (const q of quotes) {
      const slug = `${q.local_date}|${q.bucket_slug}`;
      if (!this.bySlug.has(slug)) this.bySlug.set(slug, q);
      const label = `${q.local_date}|${q.bucket_label}`;
      if (!this.byLabel.has(label)) this.byLabel.set(label, q);
    }
  }

  bySlugOf(date: string, slug: string): BucketQuote | undefined {
    return this.bySlug.get(`${date}|${slug}`);
  }

  byLabelOf(date: string, label: string): BucketQuote | undefined {
    return this.byLabel.get(`${date}|${label}`);
  }
}
