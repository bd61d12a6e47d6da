import type { NewAlert, StoredKill } from '../cache/index.js';
import { killProceeds } from '../domain/kill-proceeds.js';
import { type KillSignal, killSummary } from '../domain/kill-signal.js';

const money = (usd: number) => usd.toFixed(2);

/** A price to the cent, or to the tenth of a cent where it has one (a dying leg bids 0.001, not 0.00): 4 decimals at most. */
const priceText = (price: number): string =>
  price.toFixed(Math.min(4, Math.max(2, (String(price).split('.')[1] ?? '').length)));

/**
 * What selling the legs at market brings, as the alert says it after what to do and why: each leg's shares at the
 * venue's YES bid (cache/inbox/leg-bids.ts) and the proceeds, then their total (domain/kill-proceeds.ts): `Sell A 17°C
 * 120 sh at bid 0.03 = 3.60 USD, B 16°C 80 sh at bid 0.05 = 4.00 USD; proceeds 7.60 USD`. A leg without a cached quote
 * says so and is left out of the total, which says so. Nothing when the legs carry no shares (a signal not from a
 * webhook's legs).
 */
export function saleText(signal: KillSignal): string {
  const legs = signal.legs.flatMap((l) =>
    typeof l.shares === 'number' ? [{ ...l, shares: l.shares, bid: l.bid ?? null }] : [],
  );
  if (legs.length === 0) return '';
  const sale = killProceeds(legs);
  // nothing quoted: the shares alone, no total of nothing
  if (sale.unpriced.length === legs.length)
    return `Sell ${sale.legs.map((l) => `${l.leg} ${l.bucket_label} ${Number(l.shares.toFixed(2))} sh`).join(', ')}: no bid cached`;
  const each = sale.legs.map((l) => {
    const held = `${l.leg} ${l.bucket_label} ${Number(l.shares.toFixed(2))} sh`;
    return l.proceeds === null || l.bid === null
      ? `${held}, no bid cached`
      : `${held} at bid ${priceText(l.bid)} = ${money(l.proceeds)} USD`;
  });
  const without = sale.unpriced.length > 0 ? ` (without ${sale.unpriced.join(', ')})` : '';
  return `Sell ${each.join(', ')}; proceeds ${money(sale.total)} USD${without}`;
}

/**
 * A killed pick raises one high alert, its message what the trader must sell: the kill's legs with those of the
 * pick's addons (a hedge leg loses with the legs it hedged), or, for an addon that arrived after its parent's kill,
 * the addon's own legs; then what selling them at the bid brings (`saleText`). The inbox asks this rule for every
 * pick a stored event leaves killed, and stores what it returns in the event's transaction.
 */
export function killAlert(kill: StoredKill): NewAlert | undefined {
  if (kill.alerted) return undefined;
  return {
    severity: 'high',
    kind: 'kill',
    ref: kill.pickId,
    city_id: kill.signal.market.city,
    created_at: kill.receivedAt,
    message: killAlertMessage(kill.signal),
  };
}

/** A kill alert's message (`KILL city date: what to do: legs. why. Sell ...`): the row's, and the notify command's. */
export function killAlertMessage(signal: KillSignal): string {
  const { title, text } = killSummary(signal);
  const sale = saleText(signal);
  return `${title}: ${text}${sale ? `${/[.!?]$/.test(text) ? '' : '.'} ${sale}` : ''}`;
}

/** The rules the inbox applies to what it stores (cache.inbox.intake). */
export const INBOX_ALERT_RULES = { kill: killAlert };
