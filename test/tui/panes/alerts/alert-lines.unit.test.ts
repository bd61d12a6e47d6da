import { describe, expect, it } from 'vitest';
import type { AlertItem } from '../../../../src/tui/panes/alerts/alert-items.js';
import { alertLine, fitMessage } from '../../../../src/tui/panes/alerts/alert-lines.js';

// the dying-bucket alert the rules write (alerts/market-alerts.ts), for a bucket held by two records
const DYING =
  'nyc 2026-11-24: held bucket 54-55°F died, METAR high so far 57.2°F settles at 57°F or more; YES 28 shares, ' +
  '15.00 USD staked (svc-max-picks 2, fusion-lock lock-24)';

const item = (message: string): AlertItem => ({
  segment: 4,
  id: 7,
  marker: '!! DEAD',
  tone: 'alarm',
  when: '2026-11-24T21:00:00Z',
  message,
  city: 'nyc',
  stored: null,
});
const text = (width: number) =>
  alertLine(item(DYING), (id) => (id === 'nyc' ? 'New York City' : id), width)
    .map((s) => s.text)
    .join('');

describe("an alert's row", () => {
  it('keeps the whole message where it fits', () => {
    // 2 (cursor) + 26 before the message; the named message is 172 characters
    expect(text(2 + 26 + 172).slice(26)).toBe(
      'New York City 2026-11-24: held bucket 54-55°F died, METAR high so far 57.2°F settles at 57°F or more; YES 28 ' +
        'shares, 15.00 USD staked (svc-max-picks 2, fusion-lock lock-24)',
    );
    // narrower, who held it goes first (137 characters)
    expect(text(2 + 26 + 137).slice(26)).toBe(
      'New York City 2026-11-24: held bucket 54-55°F died, METAR high so far 57.2°F settles at 57°F or more; YES 28 ' +
        'shares, 15.00 USD staked (…)',
    );
  });

  it('at 160 columns ends at a word, nothing cut mid-word', () => {
    // 132 columns for the message: 'YES 28 shares, 15.00 USD' and the … are the last that fit
    const row = text(160);
    expect(row.slice(26)).toBe(
      'New York City 2026-11-24: held bucket 54-55°F died, METAR high so far 57.2°F settles at 57°F or more; YES 28 ' +
        'shares, 15.00 USD…',
    );
    expect(row.length).toBeLessThanOrEqual(160 - 2);
  });

  it('narrower, ends at a word with …', () => {
    expect(fitMessage('paris 2026-11-20: METAR high so far 12.0°C is above every model', 30)).toBe(
      // 29 characters kept at most, then back to the last space
      'paris 2026-11-20: METAR high…',
    );
    expect(fitMessage('short (kept)', 12)).toBe('short (kept)');
  });
});
