import { afterAll, describe, expect, it, vi } from 'vitest';
import { type BrowseFilter, type Cache, readNow } from '../../../../src/cache/index.js';
import { HISTORY_STORE, type SummaryParams } from '../../../../src/tui/panes/history/history-summaries.js';
import { memoryCaches, NYC } from '../../../helpers/cache-builder.js';

const caches = memoryCaches();
afterAll(() => caches.close());

const ALL: BrowseFilter = {};
const NYC_ONLY: BrowseFilter = { cityId: 'nyc' };

function params(over: Partial<SummaryParams> = {}): SummaryParams {
  return {
    filter: ALL,
    open: true,
    settlement: {},
    edgeMin: 5,
    nowMs: Date.parse('2026-11-21T15:00:00Z'),
    versions: { summary: 1, record: 1, calibration: 1, book: 1 },
    ...over,
  };
}

/** The summaries' read of one scope over an empty cache, and how often each part's cache read ran. */
function summaries() {
  const cache: Cache = caches.open().cities(NYC).cache;
  const counts = {
    summary: vi.spyOn(cache.history, 'summary'),
    record: vi.spyOn(cache.history, 'recordSettledDays'),
    calibration: vi.spyOn(cache.history, 'calibrationDays'),
    book: vi.spyOn(cache.history, 'realisedParts'),
  };
  const read = HISTORY_STORE.newRead();
  const calls = () => [counts.summary, counts.record, counts.calibration].map((c) => c.mock.calls.length);
  const bookCalls = () => counts.book.mock.calls.length;
  return { run: (p: SummaryParams) => readNow(read(cache, p)), calls, bookCalls };
}

describe("History's summaries store", () => {
  it('reads a part again only when its own tables changed, or the filter did', () => {
    const { run, calls } = summaries();
    const lines = run(params());
    expect(lines.length).toBeGreaterThan(2);
    expect(calls()).toEqual([1, 1, 1]);
    // a strategy poll: the strategies' summary alone
    run(params({ versions: { summary: 2, record: 1, calibration: 1, book: 1 } }));
    expect(calls()).toEqual([2, 1, 1]);
    // a day settled: the record and the calibration, not the summary
    run(params({ versions: { summary: 2, record: 2, calibration: 2, book: 1 } }));
    expect(calls()).toEqual([2, 2, 2]);
    // nothing changed: nothing read
    expect(run(params({ versions: { summary: 2, record: 2, calibration: 2, book: 1 } }))).toEqual(
      run(params({ versions: { summary: 2, record: 2, calibration: 2, book: 1 } })),
    );
    expect(calls()).toEqual([2, 2, 2]);
    // another filter: every part
    run(params({ filter: NYC_ONLY, versions: { summary: 2, record: 2, calibration: 2, book: 1 } }));
    expect(calls()).toEqual([3, 3, 3]);
  });

  it('reads nothing while closed, and reads afresh when opened again', () => {
    const { run, calls } = summaries();
    run(params());
    expect(run(params({ open: false }))).toEqual([]);
    expect(calls()).toEqual([1, 1, 1]);
    // the same tables' versions as before closing: opened again, every part is read
    run(params());
    expect(calls()).toEqual([2, 2, 2]);
  });

  it("reads the book's P&L again when its tables changed, or the UTC date turned, and not at each minute", () => {
    const { run, calls, bookCalls } = summaries();
    const v = { summary: 1, record: 1, calibration: 1, book: 1 };
    run(params());
    expect(bookCalls()).toBe(1);
    // a minute later, the same date: nothing read
    run(params({ nowMs: Date.parse('2026-11-21T15:01:00Z') }));
    expect(bookCalls()).toBe(1);
    // an edge trade exited: the book alone
    run(params({ versions: { ...v, book: 2 } }));
    expect([...calls(), bookCalls()]).toEqual([1, 1, 1, 2]);
    // past 00:00Z: today and this week are of another date
    run(params({ versions: { ...v, book: 2 }, nowMs: Date.parse('2026-11-22T00:00:00Z') }));
    expect([...calls(), bookCalls()]).toEqual([1, 1, 1, 3]);
  });
});
