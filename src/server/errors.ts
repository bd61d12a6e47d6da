// The service's errors that are the operator's mistake (a bad option, a data dir that is not a store, a world of
// another seed): exit 2 in the CLI. Apart from the modules that raise them so the CLI can name them without loading
// the service (Fastify, the world) into every command's process: the monitor's among them.

/** The service's options do not make a service (e.g. an admin token that cannot be used). */
export class ServiceConfigError extends Error {}

/** The data dir holds no store of ours, or one that cannot be opened. */
export class StoreError extends Error {}

/** The store's world was made with another seed or start than the one asked for. */
export class WorldMismatchError extends Error {}

/** The world's seed when none is given. */
export const DEFAULT_SEED = 1;
