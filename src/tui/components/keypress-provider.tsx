import { type Key, useInput } from 'ink';
import { type ReactNode, useCallback, useMemo, useRef } from 'react';
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
  // keys that came in one read are handled one by one (splitKeypresses): the first now, each next one once the one
  // before is rendered, so it reaches the handlers of the screen the one before made (Esc closes a detail, the j
  // after it moves the list, not the detail). React renders an update in a task of its scheduler (setImmediate),
  // which runs before a timer set now: a timer of 0 ms is after the render
  const dispatch = useCallback<Parameters<typeof useInput>[0]>(
    (input, key) => {
      const [first, ...rest] = splitKeypresses(input, key);
      if (first) handle(...first);
      const next = () => {
        const press = rest.shift();
        if (!press) return;
        handle(...press);
        setTimeout(next, 0);
      };
      if (rest.length > 0) setTimeout(next, 0);
    },
    [handle],
  );
  useInput(dispatch);
  return <KeypressContext.Provider value={registry}>{children}</KeypressContext.Provider>;
}
