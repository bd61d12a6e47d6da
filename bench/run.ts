import { benchAccountPages } from './account-pages.js';
import { benchLiveStreams } from './live-streams.js';
import { benchDeepPage } from './server-deep-page.js';
import { benchServerThroughput } from './server-throughput.js';
import { benchSyncDrain } from './sync-drain.js';
import { benchTuiRender } from './tui-render.js';
import { benchWebhookDelivery } from './webhook-delivery.js';
import { benchWebhookIntake } from './webhook-intake.js';

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
};

const wanted = process.argv.slice(2);
const rows: string[][] = [];
for (const [name, bench] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
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
  } else if (name === 'webhook-delivery') {
    rows.push([
      name,
      `${result.deliveries} deliveries, ${result.concurrency} at a time`,
      `${result.service_per_second}/s vs plain undici ${result.undici_per_second}/s`,
      String(result.ratio),
    ]);
  } else if (name === 'webhook-intake') {
    rows.push([
      name,
      `signed 1 KiB events, durable 200, ${result.senders} senders`,
      `${result.listener.events_per_second}/s p99 ${result.listener.p99_ms} ms vs bare ${result.bare.events_per_second}/s p99 ${result.bare.p99_ms} ms, ${result.events_per_commit} events a commit`,
      String(result.ratio),
    ]);
  } else if (name === 'tui-render') {
    const { big, empty, ratios } = result;
    rows.push([
      name,
      'TUI: 1M rows + 10k positions vs empty cache',
      `first frame ${big.first_frame_ms} vs ${empty.first_frame_ms} ms; key→frame p50 ${big.keys_in_both.key_to_frame_ms.p50} vs ${empty.keys_in_both.key_to_frame_ms.p50} ms, p95 ${big.keys_in_both.key_to_frame_ms.p95} vs ${empty.keys_in_both.key_to_frame_ms.p95} ms (${result.keys_compared} keys); RSS ${big.peak_rss_mb} vs ${empty.peak_rss_mb} MB`,
      `${ratios.first_frame} / ${ratios.key_to_frame_p50} / ${ratios.key_to_frame_p95} / ${ratios.peak_rss}`,
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
