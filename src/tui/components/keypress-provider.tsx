import { type Key, useInput } from 'ink';
import { type ReactNode, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useFailure } from '../state/failure-context.js';
import { type KeyHandler, KeypressContext, type KeypressRegistry } from '../state/keypress-context.js';
import { splitKeypresses } from '../state/split-keypresses.js';

interface Entry {
  priority: number;
  order: number;
  handler: { current: KeyHandler };
}

/**
 * The one `useInput` of the app. Handlers register with a priority; each key goes to them from the highest
 * priority down (the newest first among equals) until one returns true. One listener instead of one per component
 * means an overlay cannot forget to silence the pane beneath it.
 */
export function KeypressProvider({ children }: { children: ReactNode }) {
  const entries = useRef<Entry[]>([]);
  const counter = useRef(0);
  const registry = useMemo<KeypressRegistry>(
    () => ({
      register(priority, handler) {
        const entry = { priority, order: counter.current++, handler };
        entries.current = [...entries.current, entry].sort((a, b) => b.priority - a.priority || b.order - a.order);
        return () => {
          entries.current = entries.current.filter((e) => e !== entry);
        };
      },
    }),
    [],
  );
  const fail = useFailure();
  // a handler that reads or writes the cache can fail (a damaged page): the app's boundary ends it with one line
  const handle = useCallback(
    (input: string, key: Key) => {
      try {
        for (const entry of entries.current) if (entry.handler.current(input, key)) return;
      } catch (error) {
        fail(error);
      }
    },
    [fail],
  );
  // Every key is handled on the screen the key before it made: a key waits in `queue` until React has committed what
  // the previous one changed. Keys come in bursts (`jjjj` in one read, Esc and the key after it in two reads of one
  // turn of the event loop on a busy machine), while React renders an update in a task of its own: a key handled
  // before that commit would reach the handlers of the old screen (the j after an Esc would scroll the detail the
  // Esc closed). `presses` is rendered in the same commit as the key's own updates (one batch), and its layout effect,
  // which runs once the handlers beneath have re-registered, sends the next key.
  const queue = useRef<[string, Key][]>([]);
  const awaitingCommit = useRef(false);
  const [presses, setPresses] = useState(0);
  const next = useCallback(() => {
    const press = queue.current.shift();
    if (!press) return;
    awaitingCommit.current = true;
    handle(...press);
    setPresses((n) => n + 1);
  }, [handle]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `presses` is the commit this effect waits for
  useLayoutEffect(() => {
    awaitingCommit.current = false;
    // after the commit, not inside it: the next key's updates render in a commit of their own
    if (queue.current.length > 0) queueMicrotask(() => awaitingCommit.current || next());
  }, [presses, next]);
  const dispatch = useCallback<Parameters<typeof useInput>[0]>(
    (input, key) => {
      queue.current.push(...splitKeypresses(input, key));
      if (!awaitingCommit.current) next();
    },
    [next],
  );
  useInput(dispatch);
  return <KeypressContext.Provider value={registry}>{children}</KeypressContext.Provider>;
}
