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
