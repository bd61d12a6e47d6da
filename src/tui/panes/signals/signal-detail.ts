import type { Signal, SignalPayload } from '../../../cache/index.js';
import type { InsuranceEvent } from '../../../contract/events.js';
import type { CityName } from '../../../domain/city-names.js';
import { prettyJson } from '../../format/json-lines.js';
import { price, usd } from '../../format/numbers.js';
import { wrap } from '../../format/text.js';
import { localDayClock, offsetLabel, utcStamp } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';
import { KIND_LABEL } from './signal-columns.js';
import { signalBuckets, signalNote } from './signal-text.js';

/** The full story of one signal: when, where, the legs, the reasoning, and what arrived, byte for byte. */
export function signalDetail(s: Signal, payloads: SignalPayload[], width: number, name: CityName): Line[] {
  const out: Line[] = [];
  const city = name(s.city_id);
  const when = `${utcStamp(s.at)} · ${localDayClock(s.at, s.tz)} ${offsetLabel(s.at, s.tz)} (${city})`;
  out.push(
    line(seg(`${KIND_LABEL[s.kind]} `, s.kind === 'kill' ? 'alarm' : 'accent', true), `${city} ${s.market_date}`),
  );
  out.push(
    line(seg('time     ', 'muted'), when, s.estimated ? seg('  (from the market rules, not reported)', 'muted') : ''),
  );
  out.push(line(seg('bucket   ', 'muted'), `${s.side ?? ''} ${signalBuckets(s)}`));
  out.push(line(seg('price    ', 'muted'), s.prices.length ? s.prices.map(price).join(' / ') : 'sell at market'));
  out.push(line(seg('stake    ', 'muted'), usd(s.stake)));
  out.push(line(seg('ref      ', 'muted'), s.ref));
  const event = insuranceEvent(payloads);
  if (event) {
    out.push([], line(seg('LEGS', 'accent', true)));
    out.push(line(seg('  leg  bucket            low   high  price   stake   shares  slippage', 'muted')));
    for (const l of event.legs) {
      const bounds =
        `${l.bucket_low === -999 ? 'open' : l.bucket_low}`.padEnd(6) +
        `${l.bucket_high === 999 ? 'open' : l.bucket_high}`.padEnd(6);
      out.push(
        line(
          `  ${l.leg.padEnd(4)} ${l.bucket_label.padEnd(17)} ${bounds}${price(l.snapshot_price).padEnd(8)}${usd(l.stake_usd).padEnd(8)}${l.shares.toFixed(2).padEnd(8)}${l.max_slippage_bps} bps`,
        ),
      );
    }
    if (event.kill)
      out.push([], line(seg('KILL ', 'alarm', true), event.kill.sell_at_market ? 'sell at market' : 'exit'));
  }
  out.push([], line(seg('REASONING', 'accent', true)));
  for (const text of wrap(signalNote(s), Math.max(20, width - 4))) out.push(line(`  ${text}`));
  for (const p of payloads) {
    out.push([], line(seg(`RAW PAYLOAD (${p.label})`, 'accent', true)));
    for (const text of prettyJson(p.text)) out.push(line(seg(`  ${text}`, 'muted')));
  }
  return out;
}

function insuranceEvent(payloads: SignalPayload[]): InsuranceEvent | undefined {
  for (const p of payloads) {
    try {
      const parsed = JSON.parse(p.text) as Partial<InsuranceEvent>;
      if (Array.isArray(parsed.legs)) return parsed as InsuranceEvent;
    } catch {
      // not JSON: shown raw below
    }
  }
  return undefined;
}
