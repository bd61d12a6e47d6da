import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/cli/heap-policy.ts', import.meta.url));

/**
 * What V8 does with the young generation in a fresh node (the flag is the whole process's, so never in the test's
 * own): `step` runs first, then about 40 MB of objects that outlive a scavenge are allocated (a queue of 100,000
 * kept, renewed by halves). Returns the new space's size in MB (two semi-spaces) before and after the allocation;
 * before is what loading the test's TypeScript loader left, 2 or 4 MB.
 */
function newSpaceAround(step: 'keep' | 'keep-then-grow' | 'none'): { before: number; after: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { setMonitorHeap, setThroughputHeap } from ${JSON.stringify(MODULE)};
    const step = ${JSON.stringify(step)};
    if (step !== 'none') setMonitorHeap();
    if (step === 'keep-then-grow') setThroughputHeap();
    const size = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20;
    const before = size();
    let kept = [];
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 20000; i++) kept.push({ i, text: 'x' + i });
      if (kept.length > 100000) kept = kept.slice(50000);
    }
    process.stdout.write(JSON.stringify({ before, after: size() }));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout);
}

describe('the heap by command', () => {
  it('stays at its first two 1 MB semi-spaces once kept small, and grows again when let', () => {
    // V8's default: the semi-spaces double up to their 16 MB each under this load, 32 MB of new space
    expect(newSpaceAround('none').after).toBe(32);
    const kept = newSpaceAround('keep');
    expect(kept.before).toBeLessThanOrEqual(4);
    expect(kept.after).toBe(kept.before);
    expect(newSpaceAround('keep-then-grow').after).toBe(32);
  });
});
