import { boardDay } from '../board/board-day.js';
import { readMarketDay } from '../board/market-day.js';
import type { Cache, SlicedRead } from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { SettlementConfig } from '../contract/config.js';
import { isoUtc, localDay } from '../domain/city-time.js';
import { holdingsOf } from '../domain/held-buckets.js';
import { marketAlerts, type RuleAlert } from './market-alerts.js';

/** A trader alert as time travel works it out: what the rules give at an instant, never stored nor notified. */
export interface ReplayAlert extends RuleAlert {
  createdMs: number;
}

/** The rules run at each half hour of a city's market day: time travel's step, so a step lands on a step run. */
export const RULE_STEP_MS = 30 * 60_000;

/** A city's steps so far: the rules run at each half hour of its market day, in order, from its local midnight. */
export interface Chain {
  startMs: number;
  endMs: number;
  /** Each step run, in time order, with the edges armed after it (the rules' state, as the cache keeps it live). */
  steps: { atMs: number; fired: ReadonlySet<string> }[];
  raised: ReplayAlert[];
}

/**
 * The rules' state between reads: each city's steps run so far, for one day, edge_min and settlement. A read that
 * stops part way (cancelled for another instant) leaves only whole steps here, so the next read goes on from them.
 */
export class ReplayChains {
  private key = '';
  private readonly chains = new Map<string, Chain>();

  /** The chain of `city` on `date`; every chain is forgotten when the day or the rules' settings change. */
  of(city: City, date: string, edgeMin: number, settlement: SettlementConfig): Chain {
    const key = JSON.stringify([date, edgeMin, settlement]);
    if (key !== this.key) {
      this.key = key;
      this.chains.clear();
    }
    let chain = this.chains.get(city.city_id);
    if (!chain) {
      const day = localDay(date, city.tz);
      chain = { startMs: day.startMs, endMs: day.endMs, steps: [], raised: [] };
      this.chains.set(city.city_id, chain);
    }
    return chain;
  }
}

/** The instant time travel shows and its pinned market day. */
export interface ReplayInstant {
  atMs: number;
  date: string;
}

/**
 * Time travel's trader alerts (DESIGN 3): the rules of market-alerts.ts, run as the live monitor runs them, on the
 * pinned market day of every city, at every half hour of its local day up to the instant shown and at that instant
 * itself, each step from the state the one before left (an edge alerts once, until it falls below half the threshold;
 * a dying bucket or a breakthrough once). Pure of any write: nothing is stored, nothing notified. The same instant gives
 * the same alerts however it was reached; the steps run are kept in `chains` while the day and the rules stay the same,
 * so a step forward runs one more step a city, and a step back runs none.
 *
 * In steps: it yields after each rule step of a city (a market day read and the rules run, about a millisecond), so
 * opening Alerts on a day's afternoon (some 400 steps over 13 cities) never holds the event loop for the whole day.
 * Every alert the rules raised by `atMs`, newest first.
 */
export function* replayTraderAlerts(
  cache: Cache,
  cities: readonly City[],
  { atMs, date }: ReplayInstant,
  edgeMin: number,
  settlement: SettlementConfig,
  chains: ReplayChains = new ReplayChains(),
): SlicedRead<ReplayAlert[]> {
  const run = (city: City, at: number, fired: ReadonlySet<string>, raised: readonly ReplayAlert[]) => {
    const day = boardDay(readMarketDay(cache, city, at, { date, settlement }));
    const holdings = holdingsOf(cache.positions.openOfDay(city.city_id, date, undefined, at), city.city_id, date);
    // as of an instant the day's reports are the cache's rows observed by then (a backfilled day has them all):
    // the model's bound binds only past what the streams hold (board/same-instant.ts)
    const found = marketAlerts({ day, holdings }, edgeMin, fired, isoUtc(at));
    const armed = new Set(fired);
    for (const f of found.fired) armed.add(f.ref);
    // a rule raising once (its `once`) raises a kind and ref once a day, as the cache's `raised` keeps it live
    const alerts = found.alerts
      .filter((a) => !a.once || !raised.some((r) => r.kind === a.kind && r.ref === a.ref))
      .map((a): ReplayAlert => ({ ...a, createdMs: at }));
    return { armed, alerts };
  };
  const out: ReplayAlert[] = [];
  for (const city of cities) {
    const chain = chains.of(city, date, edgeMin, settlement);
    // the steps not run yet, up to the instant; each kept whole before the yield, so a read stopped there loses none
    for (let at = nextStep(chain); at <= atMs && at < chain.endMs; at += RULE_STEP_MS) {
      const last = chain.steps[chain.steps.length - 1];
      const step = run(city, at, last?.fired ?? new Set(), chain.raised);
      chain.steps.push({ atMs: at, fired: step.armed });
      chain.raised.push(...step.alerts);
      yield;
    }
    const before = chain.raised.filter((a) => a.createdMs <= atMs);
    out.push(...before);
    // the instant itself, between two steps: from the state of the step before it, kept nowhere
    const last = chain.steps.filter((s) => s.atMs <= atMs).pop();
    if (last && last.atMs < atMs && atMs < chain.endMs) {
      out.push(...run(city, atMs, last.fired, before).alerts);
      yield;
    }
  }
  return out.sort((a, b) => b.createdMs - a.createdMs);
}

const nextStep = (chain: Chain): number => {
  const last = chain.steps[chain.steps.length - 1];
  return last ? last.atMs + RULE_STEP_MS : chain.startMs;
};
