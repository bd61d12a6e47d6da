// The built CLI in a few files (npm run build, after tsc): every command starts by loading its modules, and Node 20's
// ESM loader spends about a millisecond a file resolving, reading and linking one; `export` loaded 110 of ours
// (docs/benchmarks.md, "The command line"). The entries are the CLI and the two workers it starts
// (src/cli/worker-module.ts), written over tsc's output in place; what they share goes to `dist/cli/chunk-*.js`, split
// along the dynamic imports, so a command still loads only what it uses (test/cli/startup-modules.test.ts). Packages
// stay outside (Ink is patched at run time in its own files), but for TypeBox: its compiler is 340 modules, and
// loading them from node_modules took `sync`, `listen` and `monitor` half a second before their first line. The
// packages each chunk holds are written to `dist/cli/bundled-packages.json`, so the startup test still sees TypeBox
// load. tsc's other files stay for the benches that import a layer directly.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dist = new URL('../dist/', import.meta.url).pathname;
// the chunks of the last build: their names change with their contents
const chunks = readdirSync(join(dist, 'cli')).filter((file) => file.startsWith('chunk-'));
for (const file of chunks) rmSync(join(dist, 'cli', file));

/** Bundled, not loaded from node_modules: one file parsed instead of hundreds resolved, read and linked. */
const BUNDLED = /^typebox(\/|$)/;
const packagesOutside = {
  name: 'packages-outside',
  setup(build) {
    // a bare specifier (a package or a node: builtin) stays an import unless BUNDLED
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.test(args.path) ? undefined : { external: true }));
  },
};

const result = await build({
  entryPoints: ['cli.js', 'cli/session/worker.js', 'cli/demo-world.js'].map((entry) => join(dist, entry)),
  outbase: dist,
  outdir: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'cli/chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [packagesOutside],
  metafile: true,
  // names as written: errors and classes say what they are
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});

/** `node_modules/typebox/build/guard/x.mjs` is `typebox/guard` (what the config check calls), the rest `typebox`. */
function packageOf(input) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (!match) return undefined;
  return input.includes('node_modules/typebox/build/guard/') ? 'typebox/guard' : match[1];
}
const bundledPackages = {};
for (const [output, { inputs }] of Object.entries(result.metafile.outputs)) {
  const names = [...new Set(Object.keys(inputs).map(packageOf).filter(Boolean))].sort();
  if (names.length > 0) bundledPackages[output.slice(output.lastIndexOf('dist/') + 'dist/'.length)] = names;
}
writeFileSync(join(dist, 'cli', 'bundled-packages.json'), `${JSON.stringify(bundledPackages, null, 2)}\n`);
