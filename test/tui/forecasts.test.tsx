import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketQuote } from '../../src/cache/index.js';
import type { EdgeEnsembleDaily, ModelTmaxRange, SvcProForecast } from '../../src/contract/forecasts.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import { parseBucketLabel } from '../../src/domain/bucket-label.js';
import { bucketProbability } from '../../src/domain/bucket-probability.js';
import type { Bucket } from '../../src/domain/buckets.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { exported } from '../helpers/cache-rows.js';
import { type Filled, fillCache, KEYS, lines, now, renderTui, statusSource } from './fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

function layers(cache: ReturnType<Filled['copy']>, city: string) {
  const rows = cache.resources.latestForecasts(city);
  return {
    primary: rows.find((r) => r.layer === 'svc_pro_forecast') as unknown as SvcProForecast,
    ensemble: rows.find((r) => r.layer === 'edge_ensemble_daily') as unknown as EdgeEnsembleDaily,
    range: rows.find((r) => r.layer === 'model_tmax_range') as unknown as ModelTmaxRange,
  };
}

/** The newest mkta snapshot of a market, read from the export (the rows as stored), lowest bucket first. */
function snapshot(cache: ReturnType<Filled['copy']>, city: string, date: string): BucketQuote[] {
  const rows = cache.export
    .rows('historical/mkta_buckets_history', { cityId: city, since: date })
    .map((json) => JSON.parse(json) as HistoricalRow & BucketQuote)
    .filter((r) => r.local_date === date);
  const newest = rows[0]?.snapshot_at;
  return rows.filter((r) => r.snapshot_at === newest).reverse();
}

const f1 = (n: number) => n.toFixed(1);

/** The running high the buckets table states it conditions on (one decimal, as shown). */
function runningHigh(frame: string): number {
  const m = frame.match(/METAR high so far (-?\d+\.\d)°[FC] \(settles at/);
  if (!m) throw new Error('no running high on the Forecasts pane');
  return Number(m[1]);
}

describe('Forecasts pane', () => {
  it('shows the primary forecast in the market unit with sigma, pacing and reasoning, the ensemble, every model and the four sources', async () => {
    const cache = filled.copy();
    const { primary, ensemble, range } = layers(cache, 'nyc');
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 130,
      rows: 60,
    });
    await app.press('5');
    const frame = app.frame();
    expect(frame).toContain('New York City (nyc) · KLGA · market in °F · local Sat 10:00');
    expect(frame).toContain(`${f1(primary.predicted_max_f)}°F ± ${f1(primary.sigma_f)}°F`);
    expect(frame).toContain(
      `pacing ${primary.pacing_delta >= 0 ? '+' : ''}${f1(primary.pacing_delta)}°C (${primary.pacing_source})`,
    );
    expect(frame).toContain(primary.reasoning.split(' ').slice(0, 5).join(' '));
    expect(frame).toContain(`${f1(ensemble.fc_mean_f)}°F ± ${f1(ensemble.sigma_f)}°F · ${ensemble.n_models} models`);
    for (const m of range.models) expect(frame).toMatch(new RegExp(`${m.model} +${f1(m.tmax)}°F █`));
    const metar = cache.resources.latestCurrent('nyc').find((r) => r.source === 'metar_observations');
    expect(frame).toContain(`METAR ${f1(metar?.temp_f ?? Number.NaN)}°F`);
    for (const source of ['wxa', 'wxb', 'PWS']) expect(frame).toContain(`${source} `);
    app.unmount();
  });

  it('prices every bucket of the newest mkta snapshot under the forecast distribution, beside its quote', async () => {
    const cache = filled.copy();
    const { primary } = layers(cache, 'nyc');
    const quotes = snapshot(cache, 'nyc', primary.local_date);
    expect(quotes).toHaveLength(11);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 130,
      rows: 60,
    });
    await app.press('5');
    const rows = lines(app.frame());
    const high = runningHigh(app.frame());
    let total = 0;
    for (const q of quotes) {
      const bucket = parseBucketLabel(q.bucket_label);
      if (!bucket) throw new Error(`unreadable label ${q.bucket_label}`);
      // conditioned on the running high the pane states: its buckets' probabilities still sum to one
      const p = bucketProbability(bucket, primary.predicted_max_f, primary.sigma_f, high);
      total += p;
      const row = rows.find((l) => l.includes(`   ${q.bucket_label} `));
      expect(row, q.bucket_label).toContain(`${(p * 100).toFixed(1)}%`);
      expect(row, q.bucket_label).toContain(q.yes_price.toFixed(3));
    }
    expect(total).toBeCloseTo(1, 6);
    app.unmount();
  });

  it('shows mktb beside mkta, the larger side of the effective edge with its venue, and dead buckets in words', async () => {
    const cache = filled.copy();
    // the live mktb stream filled the fixture too: nyc's mktb quotes go, so the one written below is its only one
    const side = new Database(cache.file);
    side.prepare("DELETE FROM h_mktb_buckets_history WHERE city_id = 'nyc'").run();
    side.close();
    const { primary } = layers(cache, 'nyc');
    const quotes = snapshot(cache, 'nyc', primary.local_date);
    // the bucket the forecast likes best, quoted on mktb at 0.001 YES / 0.999 NO through the cache's own write
    const modal = quotes
      .map((q) => ({
        q,
        p: bucketProbability(parseBucketLabel(q.bucket_label) as Bucket, primary.predicted_max_f, primary.sigma_f),
      }))
      .reduce((a, b) => (b.p > a.p ? b : a));
    cache.resources.upsertHistorical('mktb_buckets_history', [
      { ...modal.q, id: 90_000_001, yes_price: 0.001, no_price: 0.999 } as unknown as HistoricalRow,
    ]);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 130,
      rows: 60,
    });
    await app.press('5');
    const rows = lines(app.frame());
    expect(rows.join('\n')).toMatch(/bucket +model +mkta +mktb +edge/);
    // cost max(0.01, (0.001 + 0.999 - 1) / 2) = 0.01, so mktb's YES edge is p - 0.001 - 0.01 = p - 0.011, above
    // mkta's p - yes - cost whenever mkta's YES is over 0.001
    const row = rows.find((l) => l.includes(`   ${modal.q.bucket_label} `)) ?? '';
    expect(row).toContain(`${modal.q.yes_price.toFixed(3)}  0.001`);
    const p = bucketProbability(
      parseBucketLabel(modal.q.bucket_label) as Bucket,
      primary.predicted_max_f,
      primary.sigma_f,
      runningHigh(app.frame()),
    );
    expect(row).toMatch(new RegExp(`YES \\+${((p - 0.011) * 100).toFixed(1)}b$`));
    // every other bucket has no mktb quote: a dash, and an edge from mkta alone
    for (const q of quotes.filter((x) => x !== modal.q)) {
      const other = rows.find((l) => l.includes(`   ${q.bucket_label} `)) ?? '';
      expect(other, q.bucket_label).toMatch(new RegExp(`${q.yes_price.toFixed(3)} +— +(YES|NO) [+-]\\d+\\.\\da$`));
    }
    app.unmount();

    // Paris at 16:00 local: the METAR high so far settles at a whole degree; every bucket whose top is below it is
    // dead, in words, with no probability left
    const paris = layers(cache, 'paris').primary;
    const highC = Math.max(
      ...exported<HistoricalRow & { temp_c: number }>(cache, 'historical/metar_observations_history', {
        cityId: 'paris',
        since: paris.local_date,
      })
        .filter((r) => r.local_date === paris.local_date)
        .map((r) => r.temp_c),
    );
    const parisApp = await renderTui(
      <MonitorApp cache={cache} source={statusSource()} now={now} initialCity="paris" />,
      { columns: 130, rows: 60 },
    );
    await parisApp.press('5');
    const frame = parisApp.frame();
    expect(frame).toContain(`METAR high so far ${highC.toFixed(1)}°C (settles at ${Math.round(highC)} or more)`);
    let dead = 0;
    for (const q of snapshot(cache, 'paris', paris.local_date)) {
      const b = parseBucketLabel(q.bucket_label) as Bucket;
      const r = lines(frame).find((l) => l.includes(`   ${q.bucket_label} `)) ?? '';
      if (b.high < Math.round(highC)) {
        dead++;
        expect(r, q.bucket_label).toMatch(/ 0\.0% dead /);
      } else expect(r, q.bucket_label).not.toContain('dead');
    }
    expect(dead).toBeGreaterThan(0);
    parisApp.unmount();
  });

  it('charts the hourly forecast against today’s METAR readings, with distinct marks and a now marker', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 130,
      rows: 60,
    });
    await app.press('5');
    const frame = app.frame();
    const chart = lines(frame).filter((l) => l.includes('┤'));
    expect(chart.length).toBeGreaterThanOrEqual(5);
    expect(chart.join('').split('●').length - 1).toBeGreaterThan(5);
    expect(chart.join('')).toContain('·');
    expect(frame).toMatch(/└[┬─]+\^/);
    app.unmount();
  });

  it('u shows every temperature in the other unit (and back); buckets stay in the market’s unit', async () => {
    const cache = filled.copy();
    const { primary, range } = layers(cache, 'nyc');
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 130,
      rows: 60,
    });
    await app.press('5', 'u');
    const celsius = app.frame();
    expect(celsius).toContain('showing °C (u)');
    expect(celsius).toContain(`${f1(primary.predicted_max_c)}°C ± ${f1(primary.sigma_c)}°C`);
    expect(celsius).toContain(`${f1(range.tmax_max_c)}°C`);
    expect(celsius).toContain('°F · mkta snapshot');
    await app.press('u');
    expect(app.frame()).toContain(`${f1(primary.predicted_max_f)}°F ± ${f1(primary.sigma_f)}°F`);
    app.unmount();
  });

  it('c chooses the city; the chooser has the keys while it is open', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 130,
      rows: 60,
    });
    await app.press('5', 'c');
    const chooser = app.frame();
    expect(chooser).toContain('Choose a city');
    const cityRows = lines(chooser).filter((l) => /^[› ] \S+ +\S/.test(l) && l.includes('°'));
    expect(cityRows.length).toBe(13);
    expect(lines(chooser).find((l) => l.startsWith('›'))).toContain('New York City');
    await app.press('3');
    expect(lines(app.frame())[0]).toContain('[5 Forecasts]');
    // the cities are in id order: paris follows nyc
    await app.press('j', KEYS.enter);
    const paris = app.frame();
    expect(paris).toContain('Paris (paris) · LFPG · market in °C · local Sat 16:00');
    expect(paris).toMatch(/paris Sat 16:00/);
    const { primary } = layers(cache, 'paris');
    expect(paris).toContain(`${f1(primary.predicted_max_c)}°C ± ${f1(primary.sigma_c)}°C`);
    expect(paris).toMatch(/ {3}\d+°C +\d+\.\d%/);
    app.unmount();
  });
});
