import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeysetStrip, type SteppedKeysetSource } from '../../../src/tui/state/keyset-strip.js';

/** A row's key: a new object each time, as the feed's keys are (a strip must compare keys, not their identity). */
type Key = { n: number };
const k = (n: number): Key => ({ n });
const kk = (n: number | null): Key | null => (n === null ? null : k(n));

/**
 * A keyset list of numbers, ascending (the first row comes first), read a step at a time as the feed is: every answer
 * of the strip must be what the list itself answers. `reads` counts the list's reads.
 */
function numberList(initial: number[]) {
  let rows = [...initial].sort((a, b) => a - b);
  const list = {
    reads: 0,
    set(next: number[]) {
      rows = [...next].sort((a, b) => a - b);
    },
    older: (after: number | null, limit: number) => rows.filter((r) => after === null || r > after).slice(0, limit),
    newer: (before: number, limit: number) =>
      rows
        .filter((r) => r < before)
        .reverse()
        .slice(0, limit),
  };
  const source: SteppedKeysetSource<number, Key> = {
    *olderSteps(after, limit) {
      list.reads++;
      yield;
      return list.older(after?.n ?? null, limit);
    },
    *newerSteps(before, limit) {
      list.reads++;
      yield;
      return list.newer(before.n, limit);
    },
    keyOf: (r) => k(r),
    compare: (a, b) => a.n - b.n,
  };
  return { list, source };
}

/** Lets the strip's background reads (one step a turn of the event loop) run to their end. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

const hundred = Array.from({ length: 100 }, (_, i) => i * 10);

describe('a keyset strip', () => {
  it('answers a window and its neighbours from memory once prefetched: no read for a move or a page within it', async () => {
    const { list, source } = numberList(hundred);
    const strip = new KeysetStrip(source);
    // the first window: rows 0..90 (ten rows and one more, to know whether more follow)
    expect(strip.older(null, 11)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(list.reads).toBe(1);
    // a page of margin (10) below is missing: two pages (20 rows) are read in the background
    strip.prefetch(null, 10, 10);
    await settle();
    expect(list.reads).toBe(2);
    // a page down (after row 90, the last shown) and a row down (after row 0): from memory
    expect(strip.older(k(90), 11)).toEqual([100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200]);
    expect(strip.older(k(0), 11)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110]);
    // back up a page from the window after row 90: the ten rows before row 100, nearest first
    expect(strip.newer(k(100), 10)).toEqual([90, 80, 70, 60, 50, 40, 30, 20, 10, 0]);
    expect(list.reads).toBe(2);
  });

  it('reads past its edge now, as the list would answer, and elsewhere starts again there', () => {
    const { list, source } = numberList(hundred);
    const strip = new KeysetStrip(source);
    strip.older(null, 5); // 0..40
    // past the edge: the 5 rows after 40 are joined to it (one read)
    expect(strip.older(k(30), 6)).toEqual([40, 50, 60, 70, 80, 90]);
    expect(list.reads).toBe(2);
    // far below: a new stretch after 800
    expect(strip.older(k(800), 3)).toEqual([810, 820, 830]);
    // the row above it: before 810 is 800, then 790 (a read upward joins them)
    expect(strip.newer(k(810), 2)).toEqual([800, 790]);
    // the list's end: after 980 only 990
    expect(strip.older(k(980), 5)).toEqual([990]);
    expect(strip.older(k(990), 5)).toEqual([]);
    // the list's top: before 20 only 10 and 0
    expect(strip.newer(k(20), 5)).toEqual([10, 0]);
  });

  it('after the list changed, answers as it was until its refresh is in, then as it is', async () => {
    const { list, source } = numberList(hundred);
    const strip = new KeysetStrip(source);
    strip.observe(1);
    expect(strip.older(null, 3)).toEqual([0, 10, 20]);
    // read at the version it was read at: nothing to read again
    strip.refresh();
    await settle();
    expect(list.reads).toBe(1);
    const generation = strip.getSnapshot();
    list.set([-5, ...hundred.filter((r) => r !== 10)]);
    strip.observe(2);
    strip.refresh();
    // meanwhile: the rows kept
    expect(strip.older(null, 3)).toEqual([0, 10, 20]);
    await settle();
    expect(strip.getSnapshot()).not.toBe(generation);
    expect(strip.older(null, 3)).toEqual([-5, 0, 20]);
  });

  it('answers every older and newer as the list does, whatever the order of reads, prefetches and changes', async () => {
    // a key anywhere around the list's rows (0..990), before its first and after its last; a window's size
    const key = fc.integer({ min: -20, max: 1020 });
    const size = fc.integer({ min: 1, max: 60 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('older' as const), after: fc.option(key), limit: size }),
      fc.record({ kind: fc.constant('newer' as const), before: key, limit: size }),
      fc.record({ kind: fc.constant('prefetch' as const), above: fc.option(key), height: size }),
      fc.record({
        kind: fc.constant('change' as const),
        drop: fc.integer({ min: 0, max: 99 }),
        add: fc.integer({ min: -100, max: 1100 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const { list, source } = numberList(hundred);
        const strip = new KeysetStrip(source);
        let rows = [...hundred];
        let version = 0;
        strip.observe(version);
        for (const o of ops) {
          if (o.kind === 'older') expect(strip.older(kk(o.after), o.limit)).toEqual(list.older(o.after, o.limit));
          else if (o.kind === 'newer') expect(strip.newer(k(o.before), o.limit)).toEqual(list.newer(o.before, o.limit));
          else if (o.kind === 'prefetch') strip.prefetch(kk(o.above), o.height, o.height);
          else {
            // a change: answered as it was until the refresh is in (not checked), then as it is
            rows = [...rows.filter((_, i) => i !== o.drop % rows.length), o.add * 10 + 5];
            list.set(rows);
            strip.observe(++version);
            strip.refresh();
          }
          await settle();
        }
      }),
      { numRuns: 200 },
    );
  });
});
