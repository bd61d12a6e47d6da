import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

/** The `NODE_24=` lines of .ci/run: the second Node CI tests on, pinned there alone. */
function pins(): string[] {
  return read('.ci/run')
    .split('\n')
    .filter((line) => line.startsWith('NODE_24='))
    .map((line) => line.slice('NODE_24='.length));
}

describe('the Node versions CI tests on', () => {
  it('.ci/run pins one exact Node 24 (a version, never a range: a new 24.x is a choice made there)', () => {
    const [pin, ...others] = pins();
    expect(others).toEqual([]);
    expect(pin).toMatch(/^24\.\d+\.\d+$/);
  });

  it("README's requirements name that version, beside the machine's Node 20", () => {
    const requirements = read('README.md')
      .split('\n')
      .find((line) => line.startsWith('Node 20.19 or newer'));
    expect(requirements).toContain('on Node 20 (');
    expect(requirements).toContain(`on Node ${pins()[0]} (\`.ci/run\`)`);
  });
});
