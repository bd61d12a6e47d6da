import type { ChangeHub } from './change-hub.js';
import type { KeptRead } from './kept-read.js';

/** The kept reads of each running monitor (its change hub), by name: one a pane, created when first asked for. */
const registry = new WeakMap<ChangeHub, Map<string, KeptRead<never, unknown>>>();

/** The kept read `name` of this monitor, made by `create` the first time; stopped with the hub. */
export function keptReadOf<P, T>(hub: ChangeHub, name: string, create: () => KeptRead<P, T>): KeptRead<P, T> {
  let models = registry.get(hub);
  if (!models) {
    const made = new Map<string, KeptRead<never, unknown>>();
    models = made;
    registry.set(hub, made);
    hub.onStop(() => {
      for (const model of made.values()) model.stop();
    });
  }
  let model = models.get(name) as KeptRead<P, T> | undefined;
  if (!model) {
    model = create();
    models.set(name, model as unknown as KeptRead<never, unknown>);
  }
  return model;
}

/** Time travel's instant as a pane's reads take it (replay-context.ts, useReplayInstant): both undefined when live. */
export interface ReadInstant {
  atMs: number | undefined;
  date: string | undefined;
}

/** Live: no instant. */
export const LIVE: ReadInstant = { atMs: undefined, date: undefined };

/**
 * The name of a pane's kept read for `instant`: live and replaying keep apart (two kept reads of the pane), so a read
 * of now is never shown while replaying nor one of an instant after Esc, and Esc finds the live one in memory.
 */
export const laneOf = (name: string, instant: ReadInstant): string =>
  instant.atMs === undefined ? name : `${name}@replay`;

/**
 * What a kept read's ask takes from time travel. `key`: the instant and its pinned day, so a step of time travel is
 * a read never made (read in the step's commit). `stamp`: live, the minute (the clocks and what is still live move
 * with it); an instant's read does not move with the clock.
 */
export function instantAsk(
  instant: ReadInstant,
  minute: number,
): { key: [number | null, string | null]; stamp: string } {
  return {
    key: [instant.atMs ?? null, instant.date ?? null],
    stamp: instant.atMs === undefined ? String(minute) : 'instant',
  };
}
