import { describe, expect, it } from 'vitest';
import { describeFilter, filterText, parseHistoryFilter } from '../../../../src/tui/panes/history/history-filter.js';

const CITIES = ['nyc', 'london', 'paris', 'berlin'];

describe('History filter', () => {
  it('reads a city and a date, or a range, in any order', () => {
    expect(parseHistoryFilter('nyc 2026-11-01..2026-11-20', CITIES)).toEqual({
      filter: { cityId: 'nyc', since: '2026-11-01', until: '2026-11-20' },
    });
    expect(parseHistoryFilter('  2026-11-05   paris ', CITIES)).toEqual({
      filter: { cityId: 'paris', since: '2026-11-05', until: '2026-11-05' },
    });
  });

  it('takes open ranges and ISO instants', () => {
    expect(parseHistoryFilter('2026-11-01..', CITIES)).toEqual({ filter: { since: '2026-11-01' } });
    expect(parseHistoryFilter('..2026-11-20', CITIES)).toEqual({ filter: { until: '2026-11-20' } });
    expect(parseHistoryFilter('2026-11-01T06:00:00Z..', CITIES)).toEqual({
      filter: { since: '2026-11-01T06:00:00Z' },
    });
  });

  it('clears with empty text', () => {
    expect(parseHistoryFilter('   ', CITIES)).toEqual({ filter: {} });
  });

  it('refuses what is neither a city nor a date, a backwards range, and a token with two ranges', () => {
    expect(parseHistoryFilter('tokyo', CITIES)).toEqual({
      error: "'tokyo' is neither a city id (nyc, london, paris, …) nor a date",
    });
    expect(parseHistoryFilter('2026-11-20..2026-11-01', CITIES)).toEqual({ error: '2026-11-20 is after 2026-11-01' });
    // instants compare as instants: 12:00+01:00 is 11:00Z, before 11:30Z, though its text sorts after
    expect(parseHistoryFilter('2026-11-20T12:00+01:00..2026-11-20T11:30Z', CITIES)).toEqual({
      filter: { since: '2026-11-20T12:00+01:00', until: '2026-11-20T11:30Z' },
    });
    expect(parseHistoryFilter('2026-11-20T10:00-05:00..2026-11-20T14:00Z', CITIES)).toEqual({
      error: '2026-11-20T10:00-05:00 is after 2026-11-20T14:00Z',
    });
    expect(parseHistoryFilter('2026-11', CITIES)).toEqual({
      error: "'2026-11' is neither a city id (nyc, london, paris, …) nor a date",
    });
    expect(parseHistoryFilter('2026-11-01..2026-11-02..2026-11-03', CITIES)).toEqual({
      error: "'2026-11-01..2026-11-02..2026-11-03' is neither a city nor a date range",
    });
  });

  it('describes a filter for the pane header and writes it back as the prompt text', () => {
    const filter = { cityId: 'nyc', since: '2026-11-01' };
    expect(describeFilter(filter)).toBe('city nyc · 2026-11-01..…');
    expect(describeFilter({})).toBe('no filter');
    expect(filterText(filter)).toBe('nyc 2026-11-01..');
    expect(parseHistoryFilter(filterText(filter), CITIES)).toEqual({ filter });
  });
});
