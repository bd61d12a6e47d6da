export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseMs: number;
  capMs: number;
  /** A `Retry-After` longer than this is cut to it. */
  maxRetryAfterMs: number;
}

/**
 * Full jitter (AWS architecture blog, "Exponential Backoff And Jitter"): a uniform wait between 0 and the capped
 * exponential bound, so many clients retrying together spread out instead of hammering in lockstep.
 */
export function retryDelay(policy: RetryPolicy, failedAttempts: number, random = Math.random): number {
  const bound = Math.min(policy.capMs, policy.baseMs * 2 ** (failedAttempts - 1));
  return Math.floor(random() * bound);
}
