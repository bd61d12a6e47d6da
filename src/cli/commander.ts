import { createRequire } from 'node:module';

/**
 * commander, loaded with require: it is CommonJS, and importing it as ESM runs node's export lexer over it and its
 * ESM wrapper first, about 12 ms of every command's start (a short command's whole start is 1.6 to 2 times a bare
 * `node -e 0`; docs/benchmarks.md). Types come from `import type ... from 'commander'`.
 */
const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Command, CommanderError, InvalidArgumentError } = commander;
