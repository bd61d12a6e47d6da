import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Agent, request } from 'undici';
import { CitiesResponse, type City } from '../contract/cities.js';
import { type CurrentObservations, CurrentResponse } from '../contract/current.js';
import { type Forecasts, ForecastsResponse } from '../contract/forecasts.js';
import { type FusionLock, FusionLocksResponse } from '../contract/fusion-locks.js';
import {
  HISTORICAL_RESPONSE,
  type HistoricalResponse,
  type HistoricalRow,
  type HistoricalTable,
} from '../contract/historical.js';
import { API_PREFIX, LIMITS } from '../contract/limits.js';
import { type StrategyFamily, type StrategyRecord, strategyResponse } from '../contract/strategies.js';
import { withoutValues } from '../domain/without-values.js';
import {
  ApiError,
  AuthRejected,
  answerDescription,
  Cancelled,
  InvalidResponse,
  RequestNotSent,
  RequestRefused,
  ServiceUnreachable,
} from './errors.js';
import { type RetryPolicy, retryDelay } from './retry.js';
import { ServiceClock } from './service-clock.js';

export interface ClientOptions {
  /** The service address; `/api/public/v1` is appended when missing. */
  baseUrl: string;
  apiKey: string;
  /** How the key is sent: `X-API-Key` (default) or `Authorization: Bearer`. */
  auth?: 'x-api-key' | 'bearer';
  /** Per attempt, connect to last byte. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** The monitor's clock, set from each good answer's `Date` (a clock of the client's own when left out). */
  clock?: ServiceClock;
}

export type Query = Record<string, string | number | undefined>;

export interface Page<T> {
  rows: T[];
  nextCursor: string | number | null;
}

/** Appends the v1 prefix unless the address already ends with it. */
export function v1BaseUrl(address: string): string {
  const trimmed = address.replace(/\/+$/, '');
  return trimmed.endsWith(API_PREFIX) ? trimmed : `${trimmed}${API_PREFIX}`;
}

/** The body each answer was parsed from, by the value a method returned (see `receivedText`). */
const bodies = new WeakMap<object, string>();

/**
 * The text of the response `value` (what a method of the client returned: a list, an object, a page's rows) was
 * parsed from, as the service sent it; undefined for a value the client did not return. The sync hands it to the
 * cache, which skips the rows of a text it has already stored unchanged (cache/db/answer-memo.ts).
 */
export function receivedText(value: object): string | undefined {
  return bodies.get(value);
}

/** `value`, a part of the validated `body`, remembered as parsed from the body's text. */
function from<T extends object>(value: T, body: object): T {
  const text = bodies.get(body);
  if (text !== undefined) bodies.set(value, text);
  return value;
}

const validators = new Map<TSchema, ReturnType<typeof Compile>>();
function validate<T>(schema: TSchema, value: unknown, endpoint: string): T {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  if (!validator.Check(value)) {
    const [first] = validator.Errors(value);
    throw new InvalidResponse(
      endpoint,
      `response field ${first?.instancePath || '/'} ${first?.message ?? 'does not match the contract'}`,
    );
  }
  return value as T;
}

/**
 * The v1 interface over undici: every response validated against `src/contract/` before anyone sees it; network
 * errors, timeouts, 5xx and 429 retried with full jitter (a 429 waits its `Retry-After`); 401 and 4xx never retried.
 */
export class ApiClient {
  readonly baseUrl: string;
  /** The service's clock as its answers tell it (DESIGN 4 "the monitor's clock"). */
  readonly clock: ServiceClock;
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 8 });
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly cancelled = new AbortController();
  private readonly apiKey: string;

  constructor(opts: ClientOptions) {
    this.apiKey = opts.apiKey;
    this.baseUrl = v1BaseUrl(opts.baseUrl);
    this.clock = opts.clock ?? new ServiceClock();
    this.headers = opts.auth === 'bearer' ? { authorization: `Bearer ${opts.apiKey}` } : { 'x-api-key': opts.apiKey };
    this.timeoutMs = opts.timeoutMs ?? LIMITS.clientTimeoutMs;
    this.retry = { attempts: 5, baseMs: 250, capMs: 10_000, maxRetryAfterMs: 60_000, ...opts.retry };
    // every request in flight and every retry wait listens for the cancel: eleven streams and a history fill are
    // more than Node's default of ten, which is a leak warning written over the TUI, not a leak
    setMaxListeners(0, this.cancelled.signal);
  }

  async cities(): Promise<City[]> {
    const body = await this.get<CitiesResponse>('/cities', {}, CitiesResponse);
    return from(body.data, body);
  }

  async current(cityId: string): Promise<CurrentObservations> {
    const body = await this.get<{ data: CurrentObservations }>('/current', { city_id: cityId }, CurrentResponse);
    return from(body.data, body);
  }

  async forecasts(cityId: string): Promise<Forecasts> {
    const body = await this.get<{ data: Forecasts }>('/forecasts', { city_id: cityId }, ForecastsResponse);
    return from(body.data, body);
  }

  async strategy(family: StrategyFamily, query: Query = {}): Promise<StrategyRecord[]> {
    const body = await this.get<{ data: StrategyRecord[] }>(`/${family}`, query, strategyResponse(family));
    return from(body.data, body);
  }

  async historicalPage(table: HistoricalTable, query: Query = {}): Promise<Page<HistoricalRow>> {
    const body = await this.get<HistoricalResponse>(`/historical/${table}`, query, HISTORICAL_RESPONSE[table]);
    return { rows: from(body.data as HistoricalRow[], body), nextCursor: body.next_cursor };
  }

  async fusionLocksPage(query: Query = {}): Promise<Page<FusionLock>> {
    const body = await this.get<{ data: FusionLock[]; next_cursor: string | null }>(
      '/fusion-locks',
      query,
      FusionLocksResponse,
    );
    return { rows: body.data, nextCursor: body.next_cursor };
  }

  /**
   * Every page of a historical query, following `next_cursor` (passed back unchanged) until it is null. The next
   * page is requested as soon as a page arrives, so the service and the network work while the caller stores it.
   */
  historical(table: HistoricalTable, query: Query = {}): AsyncGenerator<Page<HistoricalRow>> {
    return prefetchPages((cursor) => this.historicalPage(table, { ...query, cursor }), query.cursor);
  }

  /** Every page of a fusion-lock query, following `next_cursor` at once until it is null (spec 4.6 rule 2). */
  fusionLocks(query: Query = {}): AsyncGenerator<Page<FusionLock>> {
    return prefetchPages((cursor) => this.fusionLocksPage({ ...query, cursor }), query.cursor);
  }

  /**
   * Stops every request in flight and every retry wait (each rejects with `Cancelled`), and any later request. For
   * a monitor or a daemon that is stopping: it must not wait out a 10 s timeout and its retries first.
   */
  cancel(): void {
    this.cancelled.abort();
  }

  async close(): Promise<void> {
    this.cancel();
    await this.agent.destroy();
  }

  /** The validated body of one GET, retried as the class says; remembered with its text (`receivedText`). */
  /**
   * A call's error never carries the key: a service (or a proxy) that echoes what it was sent would put it in the
   * message `sync` prints, its `--json` errors and the stream's `last_error` that the TUI and `status` show. Cut
   * here, where the text enters, in every form it could be echoed in (domain/without-values.ts).
   */
  private async get<T extends object>(path: string, query: Query, schema: TSchema): Promise<T> {
    try {
      return await this.getOnce<T>(path, query, schema);
    } catch (error) {
      if (error instanceof ApiError) {
        error.message = withoutValues(error.message, [this.apiKey]);
        if (error.stack) error.stack = withoutValues(error.stack, [this.apiKey]);
      }
      throw error;
    }
  }

  private async getOnce<T extends object>(path: string, query: Query, schema: TSchema): Promise<T> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const search = params.size > 0 ? `?${params}` : '';
    const endpoint = `GET ${path}${search}`;
    let lastProblem = 'no attempt made';
    let everyAttemptUnconnected = true;
    for (let attempt = 1; attempt <= this.retry.attempts; attempt++) {
      if (this.cancelled.signal.aborted) throw new Cancelled(endpoint);
      let waitMs: number | undefined;
      try {
        const { status, text, contentType, retryAfter, date, hostMs } = await this.attempt(
          `${this.baseUrl}${path}${search}`,
          endpoint,
        );
        if (status === 200) {
          const body = validate<T>(schema, parseJson(text, contentType, endpoint), endpoint);
          bodies.set(body, text);
          // a good answer sets the clock; one that broke the contract above says nothing to trust
          this.clock.observe(date, hostMs);
          return body;
        }
        if (status === 401) throw new AuthRejected(endpoint);
        if (status === 429) waitMs = retryAfterMs(retryAfter, date, this.retry.maxRetryAfterMs);
        if (status < 500 && status !== 429)
          throw new RequestRefused(endpoint, status, answerDescription(status, contentType, text));
        lastProblem = `HTTP ${status}`;
        everyAttemptUnconnected = false;
      } catch (error) {
        if (error instanceof ApiError) throw error;
        // undici refused the request itself: the same request would be refused again
        if ((error as { code?: string }).code === 'UND_ERR_INVALID_ARG')
          throw new RequestNotSent(endpoint, `the request could not be sent: ${(error as Error).message}`);
        lastProblem = describeNetworkError(error, this.timeoutMs);
        if (!NO_CONNECTION.has((error as { code?: string }).code ?? '')) everyAttemptUnconnected = false;
      }
      if (attempt < this.retry.attempts) {
        try {
          // a timer of its own (referenced): the wait keeps the process alive, and cancel ends it
          await sleep(waitMs ?? retryDelay(this.retry, attempt), undefined, { signal: this.cancelled.signal });
        } catch {
          throw new Cancelled(endpoint);
        }
      }
    }
    throw new ServiceUnreachable(
      endpoint,
      `no answer after ${this.retry.attempts} attempts (last: ${lastProblem})`,
      everyAttemptUnconnected,
    );
  }

  /**
   * One request, connect to last byte, bounded by a timer of our own. undici's own abort does not reach a request
   * still queued for a connection slot (one it refused earlier may never give its slot back), and
   * `AbortSignal.timeout` does not keep the process alive: a request that never settles would let the process end
   * by running out of work. Here it always settles: an answer, an error, `no answer within` the timeout, or
   * `Cancelled`.
   */
  private async attempt(
    url: string,
    endpoint: string,
  ): Promise<{
    status: number;
    text: string;
    contentType: string | undefined;
    retryAfter: string | string[] | undefined;
    date: string | string[] | undefined;
    /** The host's clock when the headers arrived, beside the service's `date`. */
    hostMs: number;
  }> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let onCancel: (() => void) | undefined;
    const bounded = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const timeout = Object.assign(new Error(`no answer within ${this.timeoutMs} ms`), { name: 'TimeoutError' });
        abort.abort(timeout);
        reject(timeout);
      }, this.timeoutMs);
      onCancel = () => {
        abort.abort();
        reject(new Cancelled(endpoint));
      };
      this.cancelled.signal.addEventListener('abort', onCancel, { once: true });
    });
    const exchange = (async () => {
      const response = await request(url, {
        method: 'GET',
        headers: this.headers,
        dispatcher: this.agent,
        signal: abort.signal,
      });
      const hostMs = Date.now();
      const text = await response.body.text();
      const { 'retry-after': retryAfter, date, 'content-type': type } = response.headers;
      const contentType = Array.isArray(type) ? type[0] : type;
      return { status: response.statusCode, text, contentType, retryAfter, date, hostMs };
    })();
    // the loser of the race may still settle later: that must not surface as an unhandled rejection
    exchange.catch(() => undefined);
    try {
      return await Promise.race([exchange, bounded]);
    } finally {
      clearTimeout(timer);
      if (onCancel) this.cancelled.signal.removeEventListener('abort', onCancel);
    }
  }
}

/** Follows a cursor chain one page ahead of the consumer. */
async function* prefetchPages<T>(
  fetchPage: (cursor: string | number | undefined) => Promise<Page<T>>,
  firstCursor: string | number | undefined,
): AsyncGenerator<Page<T>> {
  let pending = fetchPage(firstCursor);
  while (true) {
    const page = await pending;
    if (page.nextCursor === null) {
      yield page;
      return;
    }
    pending = fetchPage(page.nextCursor);
    // if the consumer stops early, the page fetched ahead must not surface as an unhandled rejection
    pending.catch(() => undefined);
    yield page;
  }
}

/** A 200's body as JSON; a web page (or anything else) answered with 200 is one line naming what it was. */
function parseJson(text: string, contentType: string | undefined, endpoint: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { line, html } = answerDescription(200, contentType, text);
    throw new InvalidResponse(endpoint, `response is not JSON: ${line}`, html);
  }
}

/**
 * `Retry-After` in seconds, or an HTTP date on the service's clock (its `Date`, else this machine's), capped; a missing
 * or silly value falls back to the jitter.
 */
function retryAfterMs(
  header: string | string[] | undefined,
  dateHeader: string | string[] | undefined,
  capMs: number,
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  const answered = Date.parse((Array.isArray(dateHeader) ? dateHeader[0] : dateHeader) ?? '');
  const ms = Number.isFinite(seconds)
    ? seconds * 1000
    : Date.parse(value) - (Number.isFinite(answered) ? answered : Date.now());
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, capMs) : undefined;
}

/** Failures before any connection: nothing listens at the address, or the name does not resolve. */
const NO_CONNECTION = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  return e.code ?? e.message ?? 'request failed';
}
