import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * A file of the installed package (`package.json`, `assets/cities.json`), by its path from the package's root: the
 * nearest folder above this module that holds a `package.json`. Not a path relative to the module: the built CLI is
 * bundled (scripts/bundle-cli.mjs), so this code may sit in `dist/cli/` as well as `src/` or `dist/`.
 */
export function packageFile(path: string): string {
  if (root === undefined) {
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
    root = dir;
  }
  return join(root, path);
}

/** The package's version, as `package.json` says it (`--version`, the OpenAPI document's `info.version`). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}
