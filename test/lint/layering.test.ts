import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * DESIGN 2's dependency rules live in biome.json (noRestrictedImports per folder, and a GritQL plugin for
 * domain's type-only imports). Each case plants one import in a file of a scratch tree that carries the project's
 * own biome.json and lint/ folder, and runs the project's Biome on it: a rule that stopped matching fails here.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'svc-layering-'));
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  // the scratch tree is no git checkout, and its schema path would point nowhere
  config.vcs = { enabled: false };
  delete config.$schema;
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
  cpSync(join(ROOT, 'lint'), join(scratch, 'lint'), { recursive: true });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Diagnostic {
  category: string;
  location: { path: string };
  description?: string;
  message?: string;
}

/** The layering complaints Biome makes about one planted file (none: an empty list). */
function complaints(path: string, source: string): string[] {
  const file = join(scratch, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  let output: string;
  try {
    output = execFileSync(BIOME, ['lint', '--reporter=json', '--max-diagnostics=50', path], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  } finally {
    rmSync(file);
  }
  const report = JSON.parse(output) as { diagnostics: Diagnostic[] };
  return report.diagnostics
    .filter((d) => d.category === 'plugin' || d.category === 'lint/style/noRestrictedImports')
    .map((d) => d.description ?? d.message ?? d.category);
}

describe('the linter enforces DESIGN 2', () => {
  it.each([
    ['contract imports nothing of ours', 'src/contract/planted.ts', "import { round } from '../domain/units.js';"],
    ['domain imports no cache', 'src/domain/planted.ts', "import { Cache } from '../cache/index.js';"],
    ['domain imports no value from contract', 'src/domain/planted.ts', "import { City } from '../contract/cities.js';"],
    [
      'domain imports no inline-typed value import from contract',
      'src/domain/planted.ts',
      "import { type City } from '../contract/cities.js';",
    ],
    ['sqlite imports nothing of ours', 'src/sqlite/planted.ts', "import { City } from '../contract/cities.js';"],
    ['server imports no monitor cache', 'src/server/http/planted.ts', "import { Cache } from '../../cache/index.js';"],
    ['server imports no monitor tui', 'src/server/planted.ts', "import { App } from '../tui/app.js';"],
    ['the monitor imports no server', 'src/sync/planted.ts', "import { startService } from '../server/service.js';"],
    ['tui imports no client', 'src/tui/planted.ts', "import { ApiClient } from '../client/api-client.js';"],
    [
      'tui imports no receiver',
      'src/tui/hooks/planted.ts',
      "import { startListener } from '../../receiver/listener.js';",
    ],
    ['tui imports no sync', 'src/tui/planted.ts', "import { SyncEngine } from '../sync/sync-engine.js';"],
    ['alerts imports no receiver', 'src/alerts/planted.ts', "import { startListener } from '../receiver/listener.js';"],
    [
      'alerts imports no receiver type',
      'src/alerts/planted.ts',
      "import type { Listener } from '../receiver/listener.js';",
    ],
    ['alerts imports no server', 'src/alerts/planted.ts', "import { startService } from '../server/service.js';"],
    [
      'outside cache/, only cache/index (alerts)',
      'src/alerts/planted.ts',
      "import { Cache } from '../cache/cache.js';",
    ],
    ['outside cache/, only cache/index', 'src/cli/planted.ts', "import { openCache } from '../cache/open-cache.js';"],
    ['outside cache/, only cache/index (tui)', 'src/tui/planted.ts', "import { Cache } from '../cache/cache.js';"],
    ['board imports no tui', 'src/board/planted.ts', "import { cell } from '../tui/format/text.js';"],
    ['board imports no alerts', 'src/board/planted.ts', "import { marketAlerts } from '../alerts/market-alerts.js';"],
    [
      'board imports the cache through its index only',
      'src/board/planted.ts',
      "import { dayLock } from '../cache/market/day-lock.js';",
    ],
  ])('refuses: %s', (_rule, path, line) => {
    expect(complaints(path, `${line}\nexport const planted = 1;\n`)).toHaveLength(1);
  });

  it.each([
    [
      'domain imports types from contract',
      'src/domain/planted.ts',
      "import type { City } from '../contract/cities.js';",
    ],
    [
      'tui imports the cache through its index',
      'src/tui/planted.ts',
      "import type { Cache } from '../cache/index.js';",
    ],
    ['cli wires the demo service', 'src/cli/planted.ts', "import { startService } from '../server/service.js';"],
    [
      'alerts writes through the cache index',
      'src/alerts/planted.ts',
      "import { writeWhenFree } from '../cache/index.js';",
    ],
    ['receiver imports alerts', 'src/receiver/planted.ts', "import { killNotification } from '../alerts/notifier.js';"],
    ['cache imports its own modules', 'src/cache/planted.ts', "import { feed } from './feed/index.js';"],
    ['server imports contract and domain', 'src/server/planted.ts', "import { round } from '../domain/units.js';"],
    [
      'board imports the cache index, domain and contract',
      'src/board/planted.ts',
      "import type { Cache } from '../cache/index.js';\nimport { round } from '../domain/units.js';\nimport type { City } from '../contract/cities.js';\nimport { priceDay } from './priced-day.js';",
    ],
  ])('allows: %s', (_rule, path, line) => {
    expect(complaints(path, `${line}\nexport const planted = 1;\n`)).toEqual([]);
  });
});
