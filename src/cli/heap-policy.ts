import { setFlagsFromString } from 'node:v8';

/**
 * How V8 spends the process's memory, by command: little for the monitor's screen, V8's own for bulk work. The flags
 * are the process's, so every thread of the monitor (the session's network half, the demo's world) has them.
 *
 * The young generation: V8 doubles the semi-spaces, up to 16 MB each (48 MB of young generation in all), whenever many
 * objects outlive a scavenge, as loading modules (Yoga, React) and drawing frames do; a screen never needs that much,
 * and on a 30-day cache it is what kept the monitor's peak RSS over 150 MB. `--max-semi-space-size` counts only on
 * node's command line, but V8 reads `--semi-space-growth-factor` each time it would grow the space: 1, set before
 * anything is loaded, keeps the semi-spaces at their first 1 MB. A growth cannot be undone, hence "before anything is
 * loaded" (src/cli.ts).
 *
 * WebAssembly: undici parses HTTP with llhttp compiled to WebAssembly, and V8 recompiles a hot WebAssembly function
 * with TurboFan in the background. llhttp's parser is one huge function, and that compile took 25 to 35 MB for a
 * quarter of a second in the live monitor's first sync pass: the whole of its peak over 150 MB. `--liftoff-only` keeps
 * every WebAssembly function in V8's baseline code, read at each compile; parsing JSON, not HTTP, is what a page
 * costs (3,000 requests took the same time either way), and Yoga's layout, Ink's other WebAssembly, has frames to
 * spare.
 *
 * `--optimize-for-size`: V8 keeps its heaps tighter (it collects sooner and gives pages back); 10 to 20 MB off the
 * live start's peak, with no key slower in tui-render. Figures: docs/benchmarks.md (tui-render, soak, the live start).
 */
export function setMonitorHeap(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--liftoff-only');
  // what --liftoff-only implies, set by name: Node 20's V8 (11.3) applied a flag's implications when it was set once
  // running, Node 24's (13.6) only at start, and there --liftoff-only alone left the tier-up to TurboFan on
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
  setFlagsFromString('--optimize-for-size');
}

/** V8's own (growth factor 2, heaps sized for speed, WebAssembly tiered up): for the commands measured in rows a second. */
export function setThroughputHeap(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
  // --optimize-for-size set the semi-spaces' maximum to 1 MB as well, for a thread started after it; 0 is V8's default
  setFlagsFromString('--no-optimize-for-size');
  setFlagsFromString('--max-semi-space-size=0');
  // the tier-up was turned off by name above (and by --liftoff-only's implication on Node 20): its negation does not
  // turn it back on
  setFlagsFromString('--no-liftoff-only');
  setFlagsFromString('--wasm-tier-up');
  setFlagsFromString('--wasm-dynamic-tiering');
}
