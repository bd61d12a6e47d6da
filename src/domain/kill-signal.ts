/** What a kill signal tells a trader, shared by the alert row and the desktop notification. */
export interface KillSignal {
  market: { city: string; market_date: string };
  /**
   * The legs to sell; a webhook's legs carry their slug and shares, and the cache adds the venue's YES bid of each
   * (cache/inbox/leg-bids.ts; null: no quote cached), so the kill alert says what selling brings.
   */
  legs: readonly { leg: string; bucket_label: string; bucket_slug?: string; shares?: number; bid?: number | null }[];
  kill: { sell_at_market: boolean; reason: string } | null;
}

/** Title says where; the text starts with what to do (SELL AT MARKET when the signal says so), legs, then why. */
export function killSummary(signal: KillSignal): { title: string; text: string } {
  const legs = signal.legs.map((leg) => `${leg.leg} ${leg.bucket_label}`).join(', ');
  const action = signal.kill?.sell_at_market ? 'SELL AT MARKET' : 'Exit';
  return {
    title: `KILL ${signal.market.city} ${signal.market.market_date}`,
    text: `${action}: legs ${legs}. ${signal.kill?.reason ?? ''}`.trim(),
  };
}
