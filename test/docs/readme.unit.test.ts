import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/program.js';
import { HELP_SECTIONS } from '../../src/tui/panes/pane-registry.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it("lists every key of the help overlay, as keys.ts words it, under the overlay's section", () => {
    const rows = HELP_SECTIONS.flatMap(([section, bindings]) =>
      Object.values(bindings).flatMap((b) => (b.help ? [`| ${section} | \`${b.help[0]}\` | ${b.help[1]} |`] : [])),
    );
    // Everywhere 7 + Lists 5 + Board 3 + Positions 1 + Alerts 4 + History 3 + Time travel 6 rows with a help entry
    expect(rows).toHaveLength(29);
    expect(rows.filter((row) => !README.includes(row))).toEqual([]);
  });

  it('keeps the two set-up commands on its first screen (its first 40 lines)', () => {
    const firstScreen = README.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('npm ci && npm start');
    expect(firstScreen).toContain('npm test');
    expect(firstScreen).toContain('![');
  });
});

/** What `svc-monitor <path> --help` prints, run in this process as the CLI runs it. */
async function helpOf(path: readonly string[]): Promise<string> {
  let printed = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  });
  try {
    expect(await run(['node', 'svc-monitor', ...path, '--help'])).toBe(0);
  } finally {
    write.mockRestore();
  }
  return printed;
}

/** The names under a help text's `Commands:` heading (commander's own `help` left out). */
const subcommandsIn = (help: string): string[] =>
  [...(help.split(/^Commands:$/m)[1] ?? '').matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((m) => m[1] ?? '')
    .filter((name) => name !== 'help');

/** The long options under a help text's `Options:` heading, but the ones every command has. */
const optionsIn = (help: string): string[] =>
  [...(help.split(/^Options:$/m)[1]?.split(/^\S/m)[0] ?? '').matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)]
    .map((m) => m[1] ?? '')
    .filter((option) => !['--help', '--version', '--verbose'].includes(option));

interface CommandHelp {
  path: string[];
  options: string[];
}

/** Every command and subcommand the CLI has, walked through its help as a user would. */
async function everyCommand(path: string[] = []): Promise<CommandHelp[]> {
  const help = await helpOf(path);
  const below = await Promise.all(subcommandsIn(help).map((name) => everyCommand([...path, name])));
  return [{ path, options: optionsIn(help) }, ...below.flat()];
}

/** The README's rows of its commands table: `| \`svc-monitor ...\` | what it does |`. */
const COMMAND_ROWS = README.split('\n').filter((line) => line.startsWith('| `svc-monitor'));
const asWord = (word: string) => new RegExp(`(^|[^\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w-]|$)`);

/** The rows that document `path`: naming `svc-monitor` and its parents, and its own name as a word. */
function rowsOf(path: readonly string[]): string[] {
  const parents = `svc-monitor ${path.slice(0, Math.max(1, path.length - 1)).join(' ')}`;
  const own = path[path.length - 1] ?? '';
  return COMMAND_ROWS.filter((row) => row.includes(parents) && asWord(own).test(row));
}

/** What of `commands` the README's table does not document: a command without a row, or an option in none of its rows. */
function undocumented(commands: readonly CommandHelp[]): string[] {
  return commands.flatMap(({ path, options }) => {
    if (path.length === 0) return [];
    const name = `svc-monitor ${path.join(' ')}`;
    if (rowsOf(path).length === 0) return [`${name}: no row in the README's commands table`];
    // an option may be documented on the row of the command or of a parent (\`server\`'s --data-dir)
    const rows = path.flatMap((_, i) => rowsOf(path.slice(0, i + 1)));
    return options.filter((option) => !rows.some((row) => asWord(option).test(row))).map((o) => `${name} ${o}`);
  });
}

describe("the README's commands", () => {
  afterEach(() => vi.restoreAllMocks());

  it('walks every command of `svc-monitor --help` (the check below is not empty)', async () => {
    const paths = (await everyCommand()).map((c) => c.path.join(' '));
    // 7 commands, cache's 3, server's keys (3) and webhooks (6)
    expect(paths).toEqual(
      expect.arrayContaining(['monitor', 'sync', 'listen', 'export', 'cache backup', 'status', 'server keys revoke']),
    );
    expect(paths).toContain('server webhooks deliveries');
    expect(paths.length).toBeGreaterThanOrEqual(22);
  });

  it('documents every command and subcommand, and every option of each, in its commands table', async () => {
    expect(undocumented(await everyCommand())).toEqual([]);
  });

  it('fails a command or an option the table does not name', () => {
    expect(
      undocumented([
        { path: ['sync'], options: ['--once', '--frobnicate'] },
        { path: ['server', 'webhooks', 'rotate'], options: [] },
        { path: ['server', 'keys', 'create'], options: ['--data-dir', '--label'] },
      ]),
    ).toEqual([
      'svc-monitor sync --frobnicate',
      "svc-monitor server webhooks rotate: no row in the README's commands table",
    ]);
  });
});
