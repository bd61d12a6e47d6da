import { useContext, useLayoutEffect, useRef } from 'react';
import { type KeyHandler, KeypressContext } from '../state/keypress-context.js';

/**
 * Registers `handler` with the app's key dispatcher at `priority` while `active`. The latest handler is always the
 * one called (it reads the component's current state), without re-registering on every render.
 */
export function useKeypress(priority: number, handler: KeyHandler, active = true): void {
  const registry = useContext(KeypressContext);
  const ref = useRef(handler);
  ref.current = handler;
  // a layout effect registers during the commit: a passive one may run only after the next key has been
  // dispatched, and a key typed right after opening an overlay would reach the pane beneath it
  useLayoutEffect(() => {
    if (!registry || !active) return;
    return registry.register(priority, ref);
  }, [registry, priority, active]);
}
