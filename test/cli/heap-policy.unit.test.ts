import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/cli/heap-policy.ts', import.meta.url));

type Step = 'keep' | 'keep-then-grow' | 'none';

/**
 * `body` run in a fresh node (the flags are the whole process's, so never in the test's own) after `step`: the
 * monitor's policy, the monitor's then the throughput commands', or none. Returns what `body` wrote, as JSON.
 */
function afterStep<T>(step: Step, body: string, nodeArgs: string[] = []): T {
  const script = `
    import { setMonitorHeap, setThroughputHeap } from ${JSON.stringify(MODULE)};
    const step = ${JSON.stringify(step)};
    if (step !== 'none') setMonitorHeap();
    if (step === 'keep-then-grow') setThroughputHeap();
    ${body}
  `;
  const child = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout);
}

/**
 * What V8 does with the young generation: about 40 MB of objects that outlive a scavenge are allocated (a queue of
 * 100,000 kept, renewed by halves). Returns the new space's size in MB (two semi-spaces) before the allocation, the
 * largest it was after each round of it, and after; before is what loading the test's TypeScript loader left, 2 or 4 MB.
 */
function newSpaceAround(step: Step): { before: number; largest: number; after: number } {
  return afterStep(
    step,
    `
    const { getHeapSpaceStatistics } = await import('node:v8');
    const size = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20;
    const before = size();
    let largest = before;
    let kept = [];
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 20000; i++) kept.push({ i, text: 'x' + i });
      if (kept.length > 100000) kept = kept.slice(50000);
      largest = Math.max(largest, size());
    }
    process.stdout.write(JSON.stringify({ before, largest, after: size() }));
  `,
  );
}

/**
 * What V8 compiles a hot WebAssembly function with: a one-function module (hand-assembled: `add(a, b)`, exported) is
 * called until V8 has tiered it up to TurboFan, or 20,000,000 times (V8 tiers it up after about 100,000 calls).
 * Natives syntax says which code the function runs.
 */
function wasmTierAfter(step: Step): { liftoff: boolean; turbofan: boolean } {
  return afterStep(
    step,
    `
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1,
      3, 97, 100, 100, 0, 0, 10, 9, 1, 7, 0, 32, 0, 32, 1, 106, 11]);
    const { instance } = await WebAssembly.instantiate(bytes);
    const add = instance.exports.add;
    let sum = 0;
    for (let round = 0; round < 200 && !%IsTurboFanFunction(add); round++) {
      for (let i = 0; i < 100000; i++) sum = add(sum, i) | 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.stdout.write(JSON.stringify({ liftoff: %IsLiftoffFunction(add), turbofan: %IsTurboFanFunction(add) }));
  `,
    ['--allow-natives-syntax'],
  );
}

/**
 * V8's young generation differs by Node version (CI runs both, .ci/run). Node 20's V8 (11.3): semi-spaces of 1 MB
 * doubling up to 16 MB each (32 MB of new space), and a semi-space's size moves only by a doubling. Node 24's V8
 * (13.6): up to 64 MB each (128 MB), and it commits and sizes a semi-space in 256 KB pages, so with the growth factor
 * at 1 the new space still moves by a fraction of a MB around its size (4.5 MB seen after a start at 4): a growth, a
 * doubling, is what it never makes.
 */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const V8_LARGEST_NEW_SPACE_MB = NODE_MAJOR >= 24 ? 128 : 32;

describe('the heap by command', () => {
  it('never grows past its first two 1 MB semi-spaces once kept small, and grows again when let', () => {
    // V8's default: the semi-spaces double up to their largest under this load
    expect(newSpaceAround('none').after).toBe(V8_LARGEST_NEW_SPACE_MB);
    const kept = newSpaceAround('keep');
    expect(kept.before).toBeLessThanOrEqual(4);
    // at no round grown (--optimize-for-size may give back a semi-space the loader grew: smaller is fine)
    if (NODE_MAJOR >= 24) expect(kept.largest).toBeLessThan(2 * kept.before);
    else expect(kept.largest).toBeLessThanOrEqual(kept.before);
    expect(kept.after).toBeLessThanOrEqual(kept.before);
    expect(newSpaceAround('keep-then-grow').after).toBe(V8_LARGEST_NEW_SPACE_MB);
  });

  it("keeps WebAssembly (undici's HTTP parser, Yoga) in V8's baseline code once kept small, and tiers it up again when let", () => {
    expect(wasmTierAfter('none')).toEqual({ liftoff: false, turbofan: true });
    expect(wasmTierAfter('keep')).toEqual({ liftoff: true, turbofan: false });
    expect(wasmTierAfter('keep-then-grow')).toEqual({ liftoff: false, turbofan: true });
  });
});
