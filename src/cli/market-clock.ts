import type { Cache } from '../cache/index.js';
import { ServiceClock, type ServiceClockOptions } from '../client/service-clock.js';

/**
 * The market's clock as the cache last knew it (DESIGN 4 "the monitor's clock"): the host's clock plus the offset of
 * the service's clock that the last sync kept; the host's clock before any. Every command's "now" is this one.
 */
export function marketClockOf(cache: Cache, options: Omit<ServiceClockOptions, 'offsetMs'> = {}): ServiceClock {
  return new ServiceClock({ ...options, offsetMs: cache.streams.clockOffset() });
}
