import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { resolve, sep } from 'node:path';

/**
 * The unit tier's setup (vitest.config.ts): a unit test writes no file (CONTRIBUTING), so making a temp folder, or
 * writing, appending or making a folder under the temp dir, fails the test that does it, naming what to use instead.
 * node's own functions are replaced, and the named imports of `node:fs` follow them (syncBuiltinESMExports).
 */
const TMP = resolve(tmpdir());
const underTmp = (path: unknown): boolean =>
  (typeof path === 'string' || path instanceof URL) &&
  `${resolve(String(path instanceof URL ? path.pathname : path))}${sep}`.startsWith(`${TMP}${sep}`);

const refused = (what: string): Error =>
  new Error(
    `${what}: a *.unit.test.ts writes no file; use an in-memory cache (openCache(':memory:'), memoryCaches()) or ` +
      'make the test a world test (*.test.ts)',
  );

const guard = <F extends (...args: never[]) => unknown>(name: string, original: F, always = false): F =>
  ((...args: Parameters<F>) => {
    if (always || underTmp(args[0])) throw refused(`${name}(${String(args[0])})`);
    return original(...args);
  }) as F;

fs.mkdtempSync = guard('mkdtempSync', fs.mkdtempSync, true);
fs.mkdtemp = guard('mkdtemp', fs.mkdtemp, true);
fs.promises.mkdtemp = guard('mkdtemp', fs.promises.mkdtemp, true);
fs.writeFileSync = guard('writeFileSync', fs.writeFileSync);
fs.appendFileSync = guard('appendFileSync', fs.appendFileSync);
fs.mkdirSync = guard('mkdirSync', fs.mkdirSync);
fs.promises.writeFile = guard('writeFile', fs.promises.writeFile);
syncBuiltinESMExports();
