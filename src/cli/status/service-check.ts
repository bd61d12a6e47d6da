import { type Connection, requireService } from '../config.js';
import { shownAddress } from './settings.js';

/** What one light request found: the service answering, the key taken, the clock's offset. */
export interface ServiceCheck {
  checked: boolean;
  baseUrl: string | null;
  reachable: boolean | null;
  keyAccepted: boolean | null;
  /** Measured from this answer's `Date`; null without a good answer. */
  offsetMs: number | null;
  error: string | null;
}

/**
 * A service that does not answer is not waited for: `status` answers in seconds (a cron job runs it), so one try
 * and one more after a short pause, each bounded by a few seconds, not the sync's 10 s and five attempts.
 */
const CHECK_TIMEOUT_MS = 3_000;
const CHECK_RETRY = { attempts: 2, baseMs: 200, capMs: 500, maxRetryAfterMs: 1_000 };

/** Nothing asked: `--offline`, or no service configured. */
export function notChecked(connection: Connection, error: string | null = null): ServiceCheck {
  const baseUrl = connection.baseUrl === undefined ? null : shownAddress(connection.baseUrl);
  return { checked: false, baseUrl, reachable: null, keyAccepted: null, offsetMs: null, error };
}

/**
 * One GET /cities through the client (the same validation, headers and clock as `sync`): reachable, key accepted,
 * the offset of the service's clock. The client and its HTTP stack load here only, so `--offline` never loads them.
 */
export async function checkService(connection: Connection): Promise<ServiceCheck> {
  const service = requireService(connection);
  const [{ ApiClient }, { AuthRejected, ServiceUnreachable }] = await Promise.all([
    import('../../client/api-client.js'),
    import('../../client/errors.js'),
  ]);
  const client = new ApiClient({ ...service, timeoutMs: CHECK_TIMEOUT_MS, retry: CHECK_RETRY });
  const baseUrl = shownAddress(client.baseUrl);
  const found = (reachable: boolean, keyAccepted: boolean | null, error: string | null): ServiceCheck => ({
    checked: true,
    baseUrl,
    reachable,
    keyAccepted,
    offsetMs: client.clock.offsetMs(),
    error,
  });
  try {
    await client.cities();
    return found(true, true, null);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof AuthRejected) return found(true, false, message);
    if (error instanceof ServiceUnreachable) return found(false, null, message);
    // it answered, but not as the interface does (a wrong base URL, a proxy's page): a person must look
    return found(true, null, message);
  } finally {
    await client.close();
  }
}
