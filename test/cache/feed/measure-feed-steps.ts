/**
 * How long the Signals feed's read holds the event loop (issue 21): the longest single step of a read and the whole
 * read, over a hand-built cache of 10,000 open strategy records and 30 days of resolved locks in 13 cities. Not a
 * test (timings never go in tests, DESIGN 6): a script, run by hand,
 *
 *   npx tsx test/cache/feed/measure-feed-steps.ts [ROOT...]
 *
 * ROOT: another checkout (its `src/` is imported, e.g. the fork point's, with node_modules linked in), measured in the
 * same run over the same file, rounds interleaved: a before and after in one sitting. All must give the same pages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Cache, FeedKey, Signal } from '../../../src/cache/index.js';
import { openCache } from '../../../src/cache/index.js';
import { city, fusionLock, no24, svcMaxPick, yescore } from '../../helpers/cache-builder.js';

type OpenCache = typeof openCache;

const RECORDS = 10_000;
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const TZS = [
  'America/New_York',
  'America/New_York',
  'America/New_York',
  'America/Chicago',
  'America/Chicago',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Berlin',
  'Europe/Rome',
  'Europe/Madrid',
  'Europe/Amsterdam',
];
const CITIES = TZS.map((tz, i) => city(`c${i}`, tz, 'US', `K${String(i).padStart(3, '0')}`));
const NEWEST_DAY = Date.parse('2026-11-30T00:00:00Z');
const dayOf = (back: number) => new Date(NEWEST_DAY - back * 86_400_000).toISOString().slice(0, 10);

/**
 * The cache: `RECORDS` open records, a third a family, over the newest `days` days (1: all on one day; 4: as the TUI bench's copies of
 * the newest records leave them; 30: spread), and a resolved lock a city a day for 30 days.
 */
function fill(cache: Cache, days: number): void {
  cache.resources.upsertCities(CITIES);
  const perFamily = Math.ceil(RECORDS / 3);
  const base = (i: number) => ({
    id: i + 1,
    city_id: `c${i % CITIES.length}`,
    local_date: dayOf(Math.floor(i / CITIES.length) % days),
    bucket_label: '48-49°F',
    shares: 10,
    ask: 0.4,
  });
  const range = Array.from({ length: perFamily }, (_, i) => i);
  cache.resources.upsertStrategy(
    'no24',
    range.map((i) => no24(base(i))),
  );
  cache.resources.upsertStrategy(
    'yescore',
    range.map((i) => yescore(base(i))),
  );
  cache.resources.upsertStrategy(
    'svc-max-picks',
    range.map((i) => svcMaxPick({ ...base(i), entry_hour: 9 + (i % 6) })),
  );
  const locks = [];
  for (let d = 1; d <= 30; d++)
    for (const c of CITIES)
      locks.push(
        fusionLock({
          id: `fl-${c.city_id}-${d}`,
          city_id: c.city_id,
          local_date: dayOf(d),
          locked_at: `${dayOf(d)}T15:00:00Z`,
          bucket_label: '48-49°F',
          yes_price: 0.5,
          tokens: 10,
          hit: d % 2 === 0,
          actual_c: 9,
        }),
      );
  cache.resources.upsertFusionLocks(locks);
}

interface Timing {
  steps: number;
  longest: number;
  whole: number;
  page: Signal[];
}

/** Runs a stepped read a step at a time, timing each step as the TUI's slices would meet it. */
function timed(steps: Generator<void, Signal[], void>): Timing {
  let longest = 0;
  let count = 0;
  const start = performance.now();
  for (;;) {
    const t = performance.now();
    const step = steps.next();
    longest = Math.max(longest, performance.now() - t);
    count++;
    if (step.done) return { steps: count, longest, whole: performance.now() - start, page: step.value };
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const keyOf = (s: Signal): FeedKey => ({ at: s.at, rank: s.rank, key: s.key });

async function main(): Promise<void> {
  const versions: { name: string; open: OpenCache }[] = [];
  for (const other of process.argv.slice(2)) {
    const mod = (await import(resolve(other, 'src/cache/index.ts'))) as { openCache: OpenCache };
    versions.push({ name: other, open: mod.openCache });
  }
  versions.push({ name: 'this tree', open: openCache });
  const dir = mkdtempSync(join(tmpdir(), 'feed-steps-'));
  try {
    for (const days of [1, 4, 30]) {
      const file = join(dir, `feed-${days}.db`);
      const writer = openCache(file);
      fill(writer, days);
      writer.close();
      const caches = versions.map((v) => v.open(file));
      const probe = caches[0] as Cache;
      const deep = probe.feed.older(null, 1000).at(-1) as Signal;
      const reads: { name: string; run: (c: Cache) => Generator<void, Signal[], void> }[] = [
        { name: 'older(null, 100)', run: (c) => c.feed.olderSteps(null, 100) },
        { name: 'older(null, 400)', run: (c) => c.feed.olderSteps(null, 400) },
        { name: 'older(1000th, 100)', run: (c) => c.feed.olderSteps(keyOf(deep), 100) },
        { name: 'newer(1000th, 101)', run: (c) => c.feed.newerSteps(keyOf(deep), 101) },
      ];
      console.log(`\n${RECORDS} records over ${days} days, ${ROUNDS} rounds (medians; ms)`);
      for (const read of reads) {
        const got = versions.map(() => ({ longest: [] as number[], whole: [] as number[], steps: 0 }));
        const pages: string[] = [];
        for (let round = -2; round < ROUNDS; round++)
          caches.forEach((cache, v) => {
            const t = timed(read.run(cache));
            pages[v] = JSON.stringify(t.page);
            if (round < 0) return;
            const g = got[v] as (typeof got)[number];
            g.longest.push(t.longest);
            g.whole.push(t.whole);
            g.steps = t.steps;
          });
        if (new Set(pages).size !== 1) throw new Error(`${read.name}: the versions' pages differ`);
        versions.forEach((version, v) => {
          const g = got[v] as (typeof got)[number];
          const line = `longest step ${median(g.longest).toFixed(2)}, whole ${median(g.whole).toFixed(2)}, ${g.steps} steps`;
          console.log(`  ${read.name.padEnd(20)} ${version.name.padEnd(24)} ${line}`);
        });
      }
      for (const cache of caches) cache.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
