import type { CityAsset } from '../../contract/assets.js';
import { isoUtc, localDate } from '../../domain/city-time.js';
import type { WorldContext } from './context.js';
import type { Venue } from './market.js';
import { dayAfter } from './skill-window.js';
import { markOpenRecords } from './strategies.js';

const VENUES: { venue: Venue; table: 'mkta_buckets_history' | 'mktb_buckets_history' }[] = [
  { venue: 'mkta', table: 'mkta_buckets_history' },
  { venue: 'mktb', table: 'mktb_buckets_history' },
];

/**
 * Every half hour: every bucket's price on both venues for each market listed then (today's, and from 10:00 local
 * tomorrow's too: DESIGN 5, a trader prices tomorrow in the evening), and today's open records marked to market.
 */
export function snapshotMarkets(ctx: WorldContext, city: CityAsset, ms: number): void {
  const today = localDate(ms, city.tz);
  const tomorrow = dayAfter(today);
  snapshotMarket(ctx, city, today, ms);
  if (ctx.markets.listed(city, tomorrow, ms)) snapshotMarket(ctx, city, tomorrow, ms);
  markOpenRecords(ctx, city, today, ms);
}

function snapshotMarket(ctx: WorldContext, city: CityAsset, date: string, ms: number): void {
  const at = isoUtc(ms);
  const event = ctx.markets.event(city, date);
  for (const { venue, table } of VENUES) {
    for (const quote of ctx.markets.quotes(venue, city, date, ms)) {
      ctx.store.insertHistorical(table, at, {
        city_id: city.city_id,
        local_date: date,
        event_slug: event.eventSlug,
        snapshot_at: at,
        bucket_slug: quote.bucket.slug,
        bucket_label: quote.bucket.label,
        yes_price: quote.yes,
        no_price: quote.no,
      });
    }
  }
}
