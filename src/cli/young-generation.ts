import { setFlagsFromString } from 'node:v8';

/**
 * The young generation's size for the process, by command. V8 doubles its semi-spaces, up to 16 MB each (48 MB of
 * young generation in all), whenever many objects outlive a scavenge, as loading modules (Yoga, React) and drawing
 * frames do; the monitor never needs that much, and on a 30-day cache it is what keeps its peak RSS over 150 MB.
 * `--max-semi-space-size` counts only on node's command line, but V8 reads `--semi-space-growth-factor` each time it
 * would grow the space: 1, set before anything is loaded, keeps the semi-spaces at their first 1 MB. The growth
 * cannot be undone, so the CLI starts small and a command that allocates in bulk (sync, the server, listen, export)
 * lets it grow again before its work. The flag is the process's: every thread of the monitor (the session's network
 * half, the demo's world) keeps the small young generation too. Figures: docs/benchmarks.md (tui-render, soak).
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** V8's own growth (its default factor, 2): for the commands whose throughput is measured in rows a second. */
export function letYoungGenerationGrow(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
}
