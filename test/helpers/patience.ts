/**
 * How long a test waits for a state before it says which one never came. Tests wait for states, never for times; this
 * is only the point where a wait gives up with a message better than the runner's own timeout (600 s,
 * vitest.config.ts). Long on purpose: a loaded 2-core machine (the suite two files at a time beside another job) can
 * take tens of seconds to start a CLI or draw a first frame, and a state that is coming must never fail a test.
 */
export const PATIENCE_MS = 240_000;
