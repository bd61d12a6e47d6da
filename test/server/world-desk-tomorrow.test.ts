import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, instantAtLocal, localDate } from '../../src/domain/city-time.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

/**
 * The desk turns to tomorrow once today has passed its peak (DESIGN 4's phase `passed`: from the fusion lock's peak
 * hour + 2 h; the world's peak hours are 14-16, so every city's day has passed by 18:00 local): read through
 * `/forecasts` of each city at 12:00 and 18:00 local of the same day D, the world advanced to each instant in turn.
 * At noon every layer is of D; at 18:00 every layer is of D + 1, a day-ahead forecast without pacing (no reading of
 * D + 1 exists) and with more doubt than the desk had of D at noon, when half of D's readings were in.
 */

const LAYERS = ['svc_pro_forecast', 'edge_ensemble_daily', 'model_tmax_range'] as const;

interface Read {
  city: string;
  date: string;
  hour: 12 | 18;
  ms: number;
  data?: any;
}

let svc: TestService;
const reads: Read[] = [];

beforeAll(async () => {
  svc = await startTestService();
  const cities: any[] = (await svc.get('/cities')).body.data;
  for (const city of cities) {
    // the first local date whose noon is still ahead of the template's clock
    let date = localDate(TEMPLATE_START, city.tz);
    if (instantAtLocal(date, 12, 0, city.tz) <= TEMPLATE_START) date = addDays(date, 1);
    for (const hour of [12, 18] as const)
      reads.push({ city: city.city_id, date, hour, ms: instantAtLocal(date, hour, 0, city.tz) });
  }
  reads.sort((a, b) => a.ms - b.ms);
  for (const read of reads) {
    // just past the half-hour run at that instant: its forecast is the newest
    svc.service.world.advanceTo(read.ms + 1);
    const reply = await svc.get(`/forecasts?city_id=${read.city}`);
    expect(reply.status).toBe(200);
    read.data = reply.body.data;
  }
  const sigmas = (hour: 12 | 18) =>
    reads
      .filter((r) => r.hour === hour)
      .map((r) => r.data.svc_pro_forecast.sigma_c as number)
      .sort((a, b) => a - b);
  console.log(
    `svc_pro sigma_c, 13 cities: at 12:00 (D) ${sigmas(12).join(' ')}; at 18:00 (D + 1) ${sigmas(18).join(' ')}`,
  );
}, 600_000);

afterAll(async () => {
  await svc?.close();
});

const of = (city: string, hour: 12 | 18) => reads.find((r) => r.city === city && r.hour === hour) as Read;

describe("the desk's /forecasts before and after a city's day has passed", () => {
  it('reads 13 cities at both hours', () => {
    expect(reads).toHaveLength(13 * 2);
  });

  it('at 12:00 local answers the day itself, all three layers', () => {
    for (const read of reads.filter((r) => r.hour === 12)) {
      for (const layer of LAYERS) expect(read.data[layer].local_date, `${read.city} ${layer}`).toBe(read.date);
    }
  });

  it('at 18:00 local answers the next day, all three layers, unpaced and fetched at that instant', () => {
    for (const read of reads.filter((r) => r.hour === 18)) {
      for (const layer of LAYERS) {
        expect(read.data[layer].local_date, `${read.city} ${layer}`).toBe(addDays(read.date, 1));
        expect(Date.parse(read.data[layer].fetched_at), `${read.city} ${layer}`).toBe(read.ms);
      }
      const primary = read.data.svc_pro_forecast;
      expect(primary.pacing_delta, read.city).toBe(0);
      expect(primary.reasoning, read.city).toContain(`the ${addDays(read.date, 1)} high`);
      expect(primary.reasoning, read.city).not.toContain('Observed high so far');
    }
  });

  it("a day ahead is wider than the same day's noon forecast, in each city", () => {
    for (const city of new Set(reads.map((r) => r.city))) {
      const noon = of(city, 12).data.svc_pro_forecast;
      const evening = of(city, 18).data.svc_pro_forecast;
      expect(evening.sigma_c, `${city}: ${evening.sigma_c} vs noon ${noon.sigma_c}`).toBeGreaterThan(noon.sigma_c);
    }
  });

  it("a °C market's day-ahead reasoning speaks °C only", () => {
    const paris = of('paris', 18).data.svc_pro_forecast;
    expect(paris.reasoning).toContain('°C');
    expect(paris.reasoning).not.toContain('°F');
  });
});
