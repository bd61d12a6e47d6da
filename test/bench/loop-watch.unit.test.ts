import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { LoopBlock } from '../../bench/fixtures/loop-watch.cjs';

const { watchLoop } = createRequire(import.meta.url)(
  '../../bench/fixtures/loop-watch.cjs',
) as typeof import('../../bench/fixtures/loop-watch.cjs');

/** The first block over `minMs` that the watcher reports after `hold` has held this thread's loop. */
async function blockOf(hold: () => void): Promise<LoopBlock> {
  const blocks: LoopBlock[] = [];
  const timer = watchLoop({ everyMs: 10, minMs: 100, onBlock: (b) => blocks.push(b) });
  try {
    // one turn first, so the watcher's last tick is dated before the hold
    await new Promise((r) => setTimeout(r, 30));
    hold();
    while (blocks.length === 0) await new Promise((r) => setTimeout(r, 10));
    return blocks[0] as LoopBlock;
  } finally {
    clearInterval(timer);
  }
}

describe('the benches loop watcher (bench/fixtures/loop-watch.cjs)', () => {
  it('counts a call that sleeps while holding the loop as a block, though it uses no CPU', async () => {
    // a 250 ms sleep of this thread (as SQLite's busy wait sleeps): the timer, due every 10 ms, comes at least
    // 250 - 10 = 240 ms late, and none of the sleep is a wait for a core (a sleeping thread is not on the run queue),
    // so the block, lateness less that wait, is at least 240 ms whatever the machine's load. A bound by CPU time, the
    // measure before this one, said such a block was none.
    const block = await blockOf(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250));
    expect(block.ms).toBeGreaterThanOrEqual(240);
    expect(block.ms - block.runQueueMs).toBeGreaterThanOrEqual(240);
    expect(block.cpuMs).toBeLessThan(block.ms);
  });

  it('dates a block when the loop is free again, and its wait for a core within it', async () => {
    let heldUntil = 0;
    const block = await blockOf(() => {
      const end = performance.now() + 200;
      while (performance.now() < end) {
        // working: the thread runs (or waits for a core on a loaded machine) until 200 ms have passed
      }
      heldUntil = performance.timeOrigin + performance.now();
    });
    expect(block.ms).toBeGreaterThanOrEqual(190);
    expect(block.at).toBeGreaterThanOrEqual(heldUntil);
    // the wait for a core is a part of the lateness (both read within the same turn: one timer interval more at most)
    expect(block.runQueueMs).toBeGreaterThanOrEqual(0);
    expect(block.runQueueMs).toBeLessThanOrEqual(block.ms + 10);
  });
});
