/** The world every test starts from: seed and the simulated instant its 30 days of history end at. */
export const TEMPLATE_SEED = 1;
export const TEMPLATE_START = Date.parse('2026-11-21T12:00:00Z');
