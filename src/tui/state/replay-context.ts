import { createContext, useContext } from 'react';
import type { ReplayState } from './replay.js';

/** What time travel's keys and History's Enter do to the replay (use-replay.ts); stable for the app's life. */
export interface ReplayActions {
  /** Go to an instant, its market day `date` pinned in every city. */
  /** `day`: a day chosen to replay (History's Enter) starts at x60; `t` keeps the speed the replay had. */
  start(atMs: number, date: string, day?: boolean): void;
  step(by: 1 | -1): void;
  play(): void;
  speed(by: 1 | -1): void;
  /** Back to now. */
  live(): void;
}

export const ReplayContext = createContext<ReplayState>(null);
export const ReplayActionsContext = createContext<ReplayActions | null>(null);

/** The replay the panes read the cache as of; null: live. */
export const useReplay = (): ReplayState => useContext(ReplayContext);

export function useReplayActions(): ReplayActions {
  const actions = useContext(ReplayActionsContext);
  if (actions === null) throw new Error('useReplayActions used outside MonitorApp');
  return actions;
}

/**
 * What a pane's reads take from time travel: the instant and the market day pinned, both undefined when live. Plain
 * values, for a read's dependencies: playing or a change of speed does not re-read.
 */
export function useReplayInstant(): { atMs: number | undefined; date: string | undefined } {
  const replay = useReplay();
  return { atMs: replay?.atMs, date: replay?.date };
}
