import { describe, expect, it } from 'vitest';
import type { Signal, SignalFacts } from '../../../../src/cache/index.js';
import { signalColumns, signalLine } from '../../../../src/tui/panes/signals/signal-columns.js';

const signal = (facts: SignalFacts): Signal =>
  ({
    at: Date.parse('2026-11-21T14:20:00Z'),
    rank: 0,
    key: 'k',
    estimated: false,
    city_id: 'paris',
    tz: 'Europe/Paris',
    market_date: '2026-11-21',
    buckets: [{ leg: 'A', label: '13°C' }],
    side: 'YES',
    prices: [],
    stake: 10,
    ref: 'r',
    ...facts,
  }) as Signal;

const kill = signal({ kind: 'kill', reason: 'running high above both legs' });
const lock = signal({ kind: 'lock', peak_hour: 15 });
const name = () => 'Paris';

/** Each cell's text with its style: what the terminal draws it in. */
const styled = (s: Signal, width: number) =>
  signalLine(s, signalColumns(width, name), width).map((g) => [g.text.trim(), g.tone, g.bold]);

describe('the colours of a signal row', () => {
  it('a kill in alarm and bold, the time muted, the rest plain: every column at 140, and narrowed at 80', () => {
    const wide = styled(kill, 140);
    expect(wide[0]).toEqual(['11-21 14:20Z', 'muted', undefined]);
    expect(wide[4]).toEqual(['!! KILL', 'alarm', true]);
    expect(wide[2]).toEqual(['Paris', undefined, undefined]);
    // at 80 the kind's column is a narrower copy (12): it keeps its colours
    const narrow = styled(kill, 80);
    expect(narrow[0]).toEqual(['11-21 14:20Z', 'muted', undefined]);
    expect(narrow[3]).toEqual(['!! KILL', 'alarm', true]);
    expect(narrow[4]).toEqual(['YES A 13°C', undefined, undefined]);
  });

  it('another kind in its own tone, not bold: a lock in accent', () => {
    expect(styled(lock, 80)[3]).toEqual(['LOCK', 'accent', false]);
  });
});
