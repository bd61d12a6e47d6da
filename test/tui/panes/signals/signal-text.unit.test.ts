import { describe, expect, it } from 'vitest';
import type { Signal, SignalFacts } from '../../../../src/cache/index.js';
import { signalBuckets, signalNote } from '../../../../src/tui/panes/signals/signal-text.js';

/** A signal's columns do not reach its note (but a pick's legs): its facts do. */
const signal = (facts: SignalFacts, buckets: Signal['buckets'] = []): Signal =>
  ({
    at: 0,
    rank: 0,
    key: 'k',
    estimated: false,
    city_id: 'nyc',
    tz: null,
    market_date: '2026-11-21',
    buckets,
    side: null,
    prices: [],
    stake: null,
    ref: 'r',
    ...facts,
  }) as Signal;

describe('the buckets of a signal', () => {
  it('names a pick’s legs by leg, joined; a single bucket by its label; a test delivery none', () => {
    const legs = [
      { leg: 'A', label: '64-65°F' },
      { leg: 'B', label: '66-67°F' },
    ];
    expect(signalBuckets(signal({ kind: 'pick' }, legs))).toBe('A 64-65°F + B 66-67°F');
    expect(signalBuckets(signal({ kind: 'lock', peak_hour: 15 }, [{ leg: null, label: '30°C' }]))).toBe('30°C');
    expect(signalBuckets(signal({ kind: 'test', message: null }))).toBe('');
  });
});

describe('the note of a signal, in the trader’s words', () => {
  it('insurance: the kill’s reason (or that it is one), the legs of a pick, the pick an addon hedges', () => {
    expect(signalNote(signal({ kind: 'kill', reason: 'running high above both legs' }))).toBe(
      'running high above both legs',
    );
    expect(signalNote(signal({ kind: 'kill', reason: null }))).toBe('kill signal');
    const legs = [
      { leg: 'A', label: '64-65°F' },
      { leg: 'B', label: '66-67°F' },
    ];
    expect(signalNote(signal({ kind: 'pick' }, legs))).toBe('2 legs');
    expect(signalNote(signal({ kind: 'addon', parent_pick_id: '0e1f2a3b-4c5d-4e6f' }))).toBe('hedge of pick 0e1f2a3b');
    expect(signalNote(signal({ kind: 'addon', parent_pick_id: null }))).toBe('hedge of pick ?');
  });

  it('edge trades: the reason; an exit adds its P&L to the cent once the entry is known', () => {
    expect(signalNote(signal({ kind: 'edge-entry', reason: 'edge 0.12' }))).toBe('edge 0.12');
    expect(signalNote(signal({ kind: 'edge-exit', operation: 'SELL', reason: 'edge gone', pnl_usd: -1.5 }))).toBe(
      'SELL P&L -1.50: edge gone',
    );
    expect(signalNote(signal({ kind: 'edge-exit', operation: 'SETTLE', reason: 'settled', pnl_usd: null }))).toBe(
      'SETTLE: settled',
    );
  });

  it('locks: the peak hour; a settled one HIT or MISS with its signed P&L', () => {
    expect(signalNote(signal({ kind: 'lock', peak_hour: 15 }))).toBe('locked at peak hour 15:00');
    expect(signalNote(signal({ kind: 'lock-resolved', hit: true, pnl_usd: 4.5 }))).toBe('HIT +4.50');
    expect(signalNote(signal({ kind: 'lock-resolved', hit: false, pnl_usd: -5 }))).toBe('MISS -5.00');
    expect(signalNote(signal({ kind: 'lock-resolved', hit: false, pnl_usd: 0 }))).toBe('MISS +0.00');
  });

  it('strategy records: the model’s belief in whole percents, the result once settled', () => {
    const svcMax = { model_prob: 0.625, edge: 0.0812 };
    expect(signalNote(signal({ kind: 'svc-max-picks', belief: svcMax, outcome: null, roi: null }))).toBe(
      'p 63% edge 0.081',
    );
    const exact = { model: 'ecmwf_ifs', model_exact_pct: 0.314 };
    expect(signalNote(signal({ kind: 'no24', belief: exact, outcome: 'win', roi: 0.125 }))).toBe(
      'ecmwf_ifs 31% exact · WIN roi 13%',
    );
    expect(signalNote(signal({ kind: 'yescore', belief: exact, outcome: 'loss', roi: -1 }))).toBe(
      'ecmwf_ifs 31% exact · LOSS roi -100%',
    );
  });

  it('a test delivery: its message when it has one', () => {
    expect(signalNote(signal({ kind: 'test', message: 'hello' }))).toBe('webhook test: hello');
    expect(signalNote(signal({ kind: 'test', message: null }))).toBe('webhook test');
  });
});
