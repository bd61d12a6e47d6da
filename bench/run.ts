import { benchAccountPages } from './account-pages.js';
import { benchCli } from './cli.js';
import { benchListenerPressure } from './listener-pressure.js';
import { benchLive } from './live.js';
import { benchLiveStart } from './live-start.js';
import { benchLiveStreams } from './live-streams.js';
import { benchReplay } from './replay.js';
import { benchDeepPage } from './server-deep-page.js';
import { benchServerThroughput } from './server-throughput.js';
import { benchSoak } from './soak.js';
import { benchSyncDrain } from './sync-drain.js';
import { benchTuiRender } from './tui-render.js';
import { benchWebhookDelivery } from './webhook-delivery.js';
import { benchWebhookIntake } from './webhook-intake.js';
import { benchWorld } from './world.js';
import { benchYear } from './year.js';

/** `npm run bench [name...]`: runs the benchmarks, writes bench/results/*.json, prints a table of ratios. */
const BENCHES: Record<string, () => Promise<any>> = {
  'server-throughput': () => benchServerThroughput(),
  'server-deep-page': () => benchDeepPage(),
  'webhook-delivery': () => benchWebhookDelivery(),
  'sync-drain': () => benchSyncDrain(),
  'webhook-intake': () => benchWebhookIntake(),
  'tui-render': () => benchTuiRender(),
  'live-streams': () => benchLiveStreams(),
  'account-pages': () => benchAccountPages(),
  'listener-pressure': () => benchListenerPressure(),
  // ten minutes each of the live monitor and the demo: run only when named (`npm run bench -- soak`)
  soak: () => benchSoak(),
  // the live monitor's first seconds, started five times: run only when named (`npm run bench -- live-start`)
  'live-start': () => benchLiveStart(),
  replay: () => benchReplay(),
  // five minutes of the sync daemon at x120: run only when named (`npm run bench -- live`)
  live: () => benchLive(),
  world: () => benchWorld(),
  cli: () => benchCli(),
  // a year of history for 40 cities, built then read (tens of minutes, GBs): run only when named (`npm run bench -- year`)
  year: () => benchYear(),
};
/** Benches too long for a plain `npm run bench`. */
const ON_REQUEST = new Set(['soak', 'live-start', 'live', 'year']);

const wanted = process.argv.slice(2);
const rows: string[][] = [];
for (const [name, bench] of Object.entries(BENCHES)) {
  if (wanted.length > 0 ? !wanted.includes(name) : ON_REQUEST.has(name)) continue;
  process.stderr.write(`running ${name}…\n`);
  const result = await bench();
  if (name === 'server-throughput') {
    for (const [path, e] of Object.entries<any>(result.endpoints)) {
      rows.push([
        name,
        path,
        `${e.service.requestsPerSecond} req/s vs bare ${e.bare.requestsPerSecond} (plain Fastify ${e.fastify.requestsPerSecond}, ratio ${e.ratio_to_fastify})`,
        String(e.ratio),
      ]);
    }
  } else if (name === 'sync-drain') {
    rows.push([
      name,
      `${result.rows} rows into the cache vs fetch+parse, loopback`,
      `${result.store_rows_per_second} rows/s vs ${result.fetch_rows_per_second} rows/s, peak RSS ${result.peak_rss_mb.store} MB`,
      String(result.ratio),
    ]);
    const net = result.network;
    rows.push([
      name,
      `the same through ${net.one_way_delay_ms} ms each way`,
      `${net.store_rows_per_second} rows/s vs ${net.fetch_rows_per_second} rows/s, peak RSS ${net.peak_rss_mb.store} MB`,
      String(net.ratio),
    ]);
  } else if (name === 'live-streams') {
    rows.push([
      name,
      `one pass of all streams, 13 cities, 48 h cached: ${result.requests} requests, ${result.rows} rows`,
      `best ${result.pass_best_ms} ms vs fetch+parse ${result.fetch_parse_best_ms} ms (medians ${result.pass_median_ms} vs ${result.fetch_parse_median_ms}, ratio ${result.ratio_of_medians})`,
      String(result.ratio),
    ]);
    for (const r of result.tui.rounds)
      rows.push([
        name,
        `TUI key→frame p95 while every stream fills the cache each second vs offline empty (${r.keys} keys)`,
        `${r.p95_live_ms} vs ${r.p95_offline_ms} ms`,
        String(r.ratio_p95),
      ]);
  } else if (name === 'webhook-delivery') {
    rows.push([
      name,
      `${result.deliveries} deliveries, ${result.concurrency} at a time`,
      `${result.service_per_second}/s vs plain undici ${result.undici_per_second}/s`,
      String(result.ratio),
    ]);
  } else if (name === 'listener-pressure') {
    const f = result.flood;
    rows.push([
      name,
      `signed delivery on a fresh connection under ${f.senders} slow senders (ulimit -n 256) vs none`,
      `p50 ${f.delivery_ms.flooded.p50} vs ${f.delivery_ms.quiet.p50} ms, worst ${f.worst_delivery_ms} ms (goal < 8000)`,
      String(f.ratio_p50),
    ]);
    rows.push([
      name,
      'listener RSS growth during the flood vs the body bytes the flood sent',
      `+${f.rss_mib.growth} MiB vs ${f.flood_body_mib} MiB sent`,
      String(f.ratio_growth_to_bodies),
    ]);
    rows.push([
      name,
      'unsigned request while another process holds the write lock vs lock free',
      `p50 ${result.lock.unsigned_ms.locked.p50} vs ${result.lock.unsigned_ms.free.p50} ms`,
      String(result.lock.ratio_p50),
    ]);
  } else if (name === 'webhook-intake') {
    rows.push([
      name,
      `signed 1 KiB events, durable 200, ${result.senders} senders`,
      `${result.listener.events_per_second}/s p99 ${result.listener.p99_ms} ms vs bare ${result.bare.events_per_second}/s p99 ${result.bare.p99_ms} ms, ${result.events_per_commit} events a commit`,
      String(result.ratio),
    ]);
  } else if (name === 'tui-render') {
    for (const [pane, p] of Object.entries<any>(result.panes)) {
      rows.push([
        name,
        `${pane}: key→frame p95, 1M rows + 10k positions vs empty`,
        `${p.p95_big_ms} vs ${p.p95_empty_ms} ms (rounds ${p.rounds_p95_big_ms.join(', ')} ms; ratios ${p.rounds_ratio_p95.join(', ')})`,
        String(p.ratio_p95),
      ]);
    }
    rows.push([
      name,
      'the floors: a bare screen (no framework) and a minimal Ink app drawing it, p95 of every key (ink / bare)',
      `${result.bare_floor_p95_ms.join(', ')} ms; Ink ${result.ink_floor_p95_ms.join(', ')} ms`,
      result.ink_floor_ratio_to_bare.join(', '),
    ]);
    rows.push([
      name,
      'peak RSS of the monitor, big vs empty (goal < 150 MB)',
      `${result.peak_rss_mb.big.join(', ')} vs ${result.peak_rss_mb.empty.join(', ')} MB`,
      String(Math.max(...result.peak_rss_mb.big)),
    ]);
    rows.push([
      name,
      "the event loop's longest block while keys are pressed, big vs empty",
      `${result.longest_block_ms.big.join(', ')} vs ${result.longest_block_ms.empty.join(', ')} ms`,
      String(Math.max(...result.longest_block_ms.big)),
    ]);
    rows.push([
      name,
      'bytes written a second idle, clock ticking, big vs empty (goal < 2,000)',
      `${result.idle_bytes_per_second.big.join(', ')} vs ${result.idle_bytes_per_second.empty.join(', ')}; whole-screen clears ${result.idle_bytes_per_second.whole_screen_clears}`,
      String(Math.max(...result.idle_bytes_per_second.big)),
    ]);
  } else if (name === 'soak') {
    for (const mode of ['live', 'demo'] as const) {
      const m = result[mode];
      if (!m) continue;
      rows.push([
        name,
        `${mode}: ${m.minutes} min, a key every few seconds: peak RSS (goal < 150 MB) and its trend after the start`,
        `peak ${m.peak_rss_mb} MB, ${m.rss_trend_mb_a_minute} MB/min (${m.rss_first_and_last_third_mb.join(' -> ')} MB); keys p50 ${m.key_latency_ms.p50} p95 ${m.key_latency_ms.p95} ms (pane keys ${m.pane_key_latency_ms.p50}, ${m.pane_key_latency_ms.p95})`,
        String(m.peak_rss_mb),
      ]);
    }
  } else if (name === 'live-start') {
    const mine = result.this_build;
    const other = result.other_build;
    rows.push([
      name,
      `the live monitor's first seconds on an empty cache, ${mine.runs.length} starts: peak RSS (goal < 150 MB)${other ? ' vs the other build' : ''}`,
      `median ${mine.peak_rss_mb.median} MB, max ${mine.peak_rss_mb.max}; first frame ${mine.first_frame_ms_median} ms${other ? ` (other: ${other.peak_rss_mb.median}, max ${other.peak_rss_mb.max}; ${other.first_frame_ms_median} ms)` : ''}`,
      String(mine.peak_rss_mb.max),
    ]);
  } else if (name === 'replay') {
    const { step, step_with_frame: frame, record } = result;
    rows.push([
      name,
      `a step of time travel (${step.steps} half hours of ${step.day}) vs the live board, ${result.cities} cities`,
      `median ${step.step_median_ms} vs ${step.live_median_ms} ms`,
      String(step.ratio),
    ]);
    rows.push([
      name,
      `the same with its frame (→ to the frame, ${frame.terminal}) vs the live board re-read a minute on, to its frame`,
      `median ${frame.step_median_ms} vs ${frame.live_median_ms} ms (p95 ${frame.step_p95_ms} vs ${frame.live_p95_ms})`,
      String(frame.ratio),
    ]);
    rows.push([
      name,
      `board's record, ${record.settled_days} settled days (${record.quoted_days} quoted) x 8 h, ${record.trades} trades, vs raw scan of its ${record.snapshot_rows} snapshot rows`,
      `median ${record.record_median_ms} vs ${record.scan_median_ms} ms`,
      String(record.ratio),
    ]);
  } else if (name === 'live') {
    rows.push([
      name,
      `sync daemon at x120, ${result.minutes} min (${result.world_hours} world hours, ${result.city_days_covered} city-days): edge alerts a city-day, most on one`,
      `${result.edge_alerts} alerts (${result.edge_alerts_per_city_day} a city-day) vs the record's ${result.record.positions_per_settled_city_day} positions a settled city-day; most ${result.most_edge_alerts_a_city_day}, largest ${result.largest_edge_points} pts`,
      String(result.most_edge_alerts_a_city_day),
    ]);
    rows.push([
      name,
      'edge alerts the board as of their instant shows (export board --at created_at)',
      `${result.reproduced} of ${result.edge_alerts}`,
      String(result.reproduced_share),
    ]);
  } else if (name === 'world') {
    rows.push([
      name,
      `first start's 30-day fill (seed 1, ${result.rows} rows) vs the same rows inserted raw`,
      `${result.fill_ms} ms vs ${result.raw_insert_ms} ms`,
      String(result.ratio),
    ]);
    if (result.baseline)
      rows.push([
        name,
        `the fill vs the fill of ${result.baseline.root} (${result.baseline.rows} rows), same run`,
        `${result.fill_ms} ms vs ${result.baseline.fill_ms} ms`,
        String(result.baseline.fill_ratio_to_baseline),
      ]);
  } else if (name === 'cli') {
    for (const [command, c] of Object.entries<any>(result.commands)) {
      const other = result.other_build?.commands[command];
      rows.push([
        name,
        `${command}: a whole process, ${result.runs} runs, vs node -e 0 (goal <= 2)`,
        `median ${c.median_ms} vs ${result.bare_node.median_ms} ms, max ${c.max_ms} vs ${result.bare_node.max_ms}, peak RSS ${c.peak_rss_mb?.median ?? '?'} vs ${result.bare_node.peak_rss_mb?.median ?? '?'} MB${other ? `; other build median ${other.median_ms} ms (${other.ratio_median})` : ''}`,
        String(c.ratio_median),
      ]);
    }
  } else if (name === 'year') {
    const r = result.year_over_short;
    rows.push([
      name,
      `first board frame offline, a year vs ${result.short ? '30 days' : ''}`,
      `${result.year.first_frame_ms} ms vs ${result.short.first_frame_ms} ms`,
      String(r.first_frame),
    ]);
    rows.push([
      name,
      'every key, p95, a year vs 30 days',
      `${result.year.keys_p95_ms.all} ms vs ${result.short.keys_p95_ms.all} ms`,
      String(r.keys_p95.all),
    ]);
    rows.push([
      name,
      "the board's record, a year vs 30 days",
      `${result.year.record_ms} ms vs ${result.short.record_ms} ms`,
      String(r.record),
    ]);
  } else if (name === 'account-pages') {
    rows.push([
      name,
      `TTFB /account/webhooks (${result.webhooks} webhooks, ${result.deliveries} deliveries) vs /cities`,
      `p50 ${result.account_webhooks_p50_ms} ms vs ${result.cities_p50_ms} ms`,
      String(result.ratio_p50),
    ]);
  } else {
    rows.push([
      name,
      'page 1M deep / page 1',
      `p50 ${result.page_deep_p50_ms} ms vs ${result.page_1_p50_ms} ms`,
      String(result.ratio_p50),
    ]);
  }
}
const widths = [0, 1, 2, 3].map((i) =>
  Math.max(...[['bench', 'what', 'measured', 'ratio'], ...rows].map((r) => (r[i] ?? '').length)),
);
for (const row of [['bench', 'what', 'measured', 'ratio'], ...rows]) {
  console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
}
