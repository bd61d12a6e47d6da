/** Spec section 8 plus the values DESIGN.md section 4 decides. */
export const LIMITS = {
  defaultPageSize: 100,
  maxPageSize: 1000,
  maxFusionLockPageSize: 500,
  stakeUsd: 10,
  svcMaxAskMin: 0.5,
  svcMaxAskMax: 0.85,
  webhookTimeoutMs: 8000,
  webhookRetryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000],
  webhookMaxAttempts: 6,
  webhookDisableAfterFailures: 10,
  /** How old a delivery svc-monitor's listener still takes (src/receiver/replay.ts says why). */
  webhookReplayWindowMs: 24 * 3_600_000,
  rateLimitPerMinute: 600,
  clientTimeoutMs: 10_000,
} as const;

export const API_PREFIX = '/api/public/v1';
