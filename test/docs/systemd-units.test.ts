import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../cli/run-cli.js';

/**
 * The systemd user units of docs/systemd/ (docs/operating.md, "Left running"): what an operator copies must start the
 * command it names. Each unit's ExecStart is checked against the built CLI's own help (a flag the command does not
 * take would fail at the first start, months from the last look), and the unit as a whole by `systemd-analyze verify`
 * with ExecStart pointed at the built CLI (Debian's systemd has it; a host without it checks the flags alone).
 */
const UNITS = fileURLToPath(new URL('../../docs/systemd/', import.meta.url));
const unitFiles = readdirSync(UNITS).filter((f) => f.endsWith('.service'));
const scratch = mkdtempSync(join(tmpdir(), 'svc-units-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function execStart(unit: string): string[] {
  const line = readFileSync(join(UNITS, unit), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('ExecStart='));
  if (!line) throw new Error(`${unit} has no ExecStart`);
  return line.slice('ExecStart='.length).trim().split(/\s+/);
}

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('docs/systemd units', () => {
  it('are the two daemons of DESIGN 3, sync and listen', () => {
    expect(unitFiles.sort()).toEqual(['svc-monitor-listen.service', 'svc-monitor-sync.service']);
    expect(execStart('svc-monitor-sync.service').slice(0, 2)).toEqual(['/usr/local/bin/svc-monitor', 'sync']);
    expect(execStart('svc-monitor-listen.service').slice(0, 2)).toEqual(['/usr/local/bin/svc-monitor', 'listen']);
  });

  it.each(unitFiles)('%s starts its command with flags the command takes', async (unit) => {
    const [, command = '', ...args] = execStart(unit);
    const help = await runCli([command, '--help']);
    expect(help.code).toBe(0);
    const flags = args.filter((a) => a.startsWith('--'));
    expect(flags.length).toBeGreaterThan(0);
    for (const flag of flags) expect(help.stdout, `${unit}: ${flag}`).toContain(flag);
    // no secret on the command line (ps shows it to every user): the config file or the environment holds them
    expect(args).not.toContain('--secret');
    expect(args).not.toContain('--api-key');
  });

  it.runIf(hasSystemdAnalyze)('pass systemd-analyze verify', () => {
    for (const unit of unitFiles) {
      const text = readFileSync(join(UNITS, unit), 'utf8').replace(
        /^ExecStart=\S+/m,
        `ExecStart=${execFileSync('node', ['-p', 'process.execPath'], { encoding: 'utf8' }).trim()} ${CLI}`,
      );
      const copy = join(scratch, unit);
      writeFileSync(copy, text);
      const verified = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
      expect(`${verified.stdout}${verified.stderr}`.trim(), unit).toBe('');
      expect(verified.status, unit).toBe(0);
    }
  });
});
