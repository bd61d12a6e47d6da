// The built CLI in a few files (npm run build, after tsc): every command starts by loading its modules, and Node 20's
// ESM loader spends about a millisecond a file resolving, reading and linking one; `export` loaded 110 of ours
// (docs/benchmarks.md, "The command line"). The entries are the CLI and the two workers it starts
// (src/cli/worker-module.ts), written over tsc's output in place; what they share goes to `dist/cli/chunk-*.js`, split
// along the dynamic imports, so a command still loads only what it uses (test/cli/startup-modules.test.ts). Packages
// stay outside (Ink is patched at run time in its own files). tsc's other files stay for the benches that import a
// layer directly.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dist = new URL('../dist/', import.meta.url).pathname;
// the chunks of the last build: their names change with their contents
const chunks = readdirSync(join(dist, 'cli')).filter((file) => file.startsWith('chunk-'));
for (const file of chunks) rmSync(join(dist, 'cli', file));

await build({
  entryPoints: ['cli.js', 'cli/session-worker.js', 'cli/demo-world.js'].map((entry) => join(dist, entry)),
  outbase: dist,
  outdir: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'cli/chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // names as written: errors and classes say what they are
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
