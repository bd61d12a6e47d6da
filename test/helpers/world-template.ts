/** The world every test starts from: seed and the simulated instant its 30 days of history end at. */
export const TEMPLATE_SEED = 1;
export const TEMPLATE_START = Date.parse('2026-11-21T12:00:00Z');
/**
 * A second world, of another seed, over the same 30 days (`inject('secondTemplateDir')`): the DESIGN 5 bands are
 * read on two seeds (world-believable), and a different seed must make a different world (determinism).
 */
export const SECOND_TEMPLATE_SEED = 7;
