// `npm start` on a fresh clone: `npm ci` does not build (the package has no `prepare`, which npm would list as an
// unapproved install script of the tarball a user installs), so the demo's first start builds once, here.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../dist/cli.js', import.meta.url))) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
