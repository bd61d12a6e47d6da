import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { useReread } from '../../../src/tui/hooks/use-reread.js';
import type { ReadStore } from '../../../src/tui/state/pane-store.js';

/** A store with a change counter, as the change hub, a kept read or a strip has one. */
function counter() {
  let count = 0;
  const listeners = new Set<() => void>();
  const store: ReadStore & { change(): void } = {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => count,
    change() {
      count++;
      for (const listener of [...listeners]) listener();
    },
  };
  return store;
}

/** Waits until `reached()`: React commits a store's change, and runs the effects after it, in tasks of its own. */
async function until(reached: () => boolean): Promise<void> {
  while (!reached()) await new Promise((resolve) => setImmediate(resolve));
}

describe('useReread: a change counter that re-reads', () => {
  it('reads when the counter moves or the read is a new function, never for a render that changed nothing', async () => {
    const store = counter();
    let reads = 0;
    const readA = () => `a${++reads}`;
    const readB = () => `b${++reads}`;
    function Probe({ read, label }: { read: () => string; label: string }) {
      const value = useReread(store, read);
      return <Text>{`${label} ${value}`}</Text>;
    }
    const app = render(<Probe read={readA} label="x" />);
    expect(app.lastFrame()).toBe('x a1');
    // a render for another reason (a new label): nothing read
    app.rerender(<Probe read={readA} label="y" />);
    expect(app.lastFrame()).toBe('y a1');
    expect(reads).toBe(1);
    // the store changed: read again, once
    store.change();
    await until(() => app.lastFrame() === 'y a2');
    expect(reads).toBe(2);
    // a new read function reads at once
    app.rerender(<Probe read={readB} label="y" />);
    expect(app.lastFrame()).toBe('y b3');
    expect(reads).toBe(3);
    app.unmount();
  });

  it('reads once when the read itself moves the counter (a strip that had to read the stretch asked for)', () => {
    // the first read fills the store and moves its counter, as a keyset strip does when the window asks for rows it
    // does not hold; React looks at the snapshot twice in a render, and the second look must find the same value
    const store = counter();
    let reads = 0;
    const fillingRead = () => {
      reads++;
      if (reads === 1) store.change();
      return `r${reads}`;
    };
    function Probe() {
      return <Text>{useReread(store, fillingRead)}</Text>;
    }
    const app = render(<Probe />);
    expect(app.lastFrame()).toBe('r1');
    expect(reads).toBe(1);
    app.unmount();
  });
});
