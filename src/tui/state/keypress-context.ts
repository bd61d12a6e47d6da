import type { Key } from 'ink';
import { createContext } from 'react';

/** Returns true when it consumed the key; the dispatcher then stops. */
export type KeyHandler = (input: string, key: Key) => boolean;

/**
 * Who hears a key first: a modal over everything, then time travel's keys while replaying, then the visible pane,
 * then time travel's Esc (a pane's own step back, out of a city opened from the board, comes before leaving the
 * replay), then the app's global keys.
 */
export const PRIORITY = { overlay: 300, replay: 250, pane: 200, replayExit: 150, global: 100 } as const;

export interface KeypressRegistry {
  register(priority: number, handler: { current: KeyHandler }): () => void;
}

export const KeypressContext = createContext<KeypressRegistry | null>(null);
