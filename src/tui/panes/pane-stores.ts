import { createContext, useContext } from 'react';
import type { Cache } from '../../cache/index.js';
import type { ChangeHub } from '../state/change-hub.js';
import type { PaneInputs } from '../state/pane-store.js';

/**
 * What the app does with a store (a `PaneStore`, a `KeysetStore`, ...), whatever it reads: `warm` reads what its pane
 * will first show, in the background, before the pane is shown (it returns what stops waiting for it); `stop` ends
 * its background reads when the monitor ends.
 */
export interface KeptStore {
  warm?(cache: Cache, inputs: PaneInputs): (() => void) | undefined;
  stop?(): void;
}

/**
 * How a pane (or a board strip) makes its store, from the running monitor's change hub and cache: declared once, in
 * the pane's folder, named by its registry entry (pane-registry.ts) and looked up with it (`usePaneStore(factory)`).
 */
export type StoreFactory<S extends KeptStore = KeptStore> = (hub: ChangeHub, cache: Cache) => S;

/** A registry entry as the stores see it: its factory, and whether the prewarm reads it before it is first shown. */
export interface StoreEntry {
  store: StoreFactory;
  warm: boolean;
}

/**
 * The stores of one running monitor, created by the app with its change hub and provided through context: only the
 * pane shown is mounted, and each store keeps what its pane read while the monitor runs, so the key that shows a pane
 * draws it from memory. One store a factory: the registry's are made at once (warmed by the prewarm, stopped at the
 * end); any other (a board strip's until it is in the registry) on its first use, stopped at the end likewise.
 */
export class PaneStores {
  private readonly made = new Map<StoreFactory, KeptStore>();

  constructor(
    private readonly hub: ChangeHub,
    private readonly cache: Cache,
    private readonly entries: readonly StoreEntry[],
  ) {
    for (const entry of entries) this.of(entry.store);
  }

  /** The store `factory` makes, made once for this monitor. */
  of<S extends KeptStore>(factory: StoreFactory<S>): S {
    let store = this.made.get(factory);
    if (store === undefined) {
      store = factory(this.hub, this.cache);
      this.made.set(factory, store);
    }
    return store as S;
  }

  /**
   * Reads the panes marked `warm` in the background, live (components/prewarm.tsx), in the registry's order; returns
   * what stops waiting for them.
   */
  warm(inputs: PaneInputs): () => void {
    const stops = this.entries.filter((e) => e.warm).map((e) => this.of(e.store).warm?.(this.cache, inputs));
    return () => {
      for (const stop of stops) stop?.();
    };
  }

  /** Stops their background reads: the monitor ends. */
  stop(): void {
    for (const store of this.made.values()) store.stop?.();
  }
}

export function createPaneStores(hub: ChangeHub, cache: Cache, entries: readonly StoreEntry[]): PaneStores {
  return new PaneStores(hub, cache, entries);
}

export const PaneStoresContext = createContext<PaneStores | null>(null);

/** The running monitor's pane stores. */
export function usePaneStores(): PaneStores {
  const stores = useContext(PaneStoresContext);
  if (stores === null) throw new Error('usePaneStores used outside MonitorApp');
  return stores;
}

/** The running monitor's store of `factory` (a pane's, a strip's): the same object for the monitor's life. */
export function usePaneStore<S extends KeptStore>(factory: StoreFactory<S>): S {
  return usePaneStores().of(factory);
}
