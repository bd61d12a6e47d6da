import { setFlagsFromString } from 'node:v8';

/**
 * How V8 sizes the process's young generation, by command: small for the monitor's screen, V8's own for bulk work.
 * The flag is the process's, so every thread of the monitor (the session's network half, the demo's world) has it.
 *
 * V8 doubles the semi-spaces, up to 16 MB each (48 MB of young generation in all), whenever many objects outlive a
 * scavenge, as loading modules (Yoga, React) and drawing frames do; a screen never needs that much, and on a 30-day
 * cache it is what kept the monitor's peak RSS over 150 MB. `--max-semi-space-size` counts only on node's command
 * line, but V8 reads `--semi-space-growth-factor` each time it would grow the space: 1, set before anything is
 * loaded, keeps the semi-spaces at their first 1 MB. A growth cannot be undone, hence "before anything is loaded"
 * (src/cli.ts). Figures: docs/benchmarks.md (tui-render, soak).
 */
export function setMonitorHeap(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** V8's own growth (its default factor, 2): for the commands measured in rows a second. */
export function setThroughputHeap(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
}
