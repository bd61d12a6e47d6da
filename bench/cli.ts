import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCache } from '../src/cache/index.js';
import { round1, writeResult } from './lib.js';
import { syncWorldInto } from './synced-world.js';

/** This checkout's built CLI, and another build's to compare in the same sitting (CLI_BENCH_DIST=/path/to/its/dist). */
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const OTHER = process.env.CLI_BENCH_DIST ? join(process.env.CLI_BENCH_DIST, 'cli.js') : null;
const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 20);
/** GNU time reports the child's peak RSS (its wait4 rusage); without it the bench still times the runs. */
const TIME = '/usr/bin/time';

interface Case {
  name: string;
  /** node's arguments (the CLI's path first, for a command). */
  args: (cli: string) => string[];
  env?: NodeJS.ProcessEnv;
  /** The exit code the case must end with: a case that failed measures nothing. */
  code: number;
}

interface Sample {
  ms: number;
  rssMb: number | null;
}

/** One whole process: spawn to exit, and its peak RSS as GNU time saw it. */
function runOnce(c: Case, cli: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  const withTime = existsSync(TIME);
  const argv = [process.execPath, ...c.args(cli)];
  const [command, args] = withTime ? [TIME, ['-f', 'maxrss %M', ...argv]] : [argv[0] as string, argv.slice(1)];
  const started = performance.now();
  const child = spawn(command, args, { env: { ...env, ...c.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== c.code) return reject(new Error(`${c.name}: exit ${code}, not ${c.code}: ${stderr.slice(-300)}`));
      const kb = stderr.match(/^maxrss (\d+)$/m)?.[1];
      resolve({ ms, rssMb: kb ? Number(kb) / 1024 : null });
    }),
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

function summary(samples: Sample[]) {
  const ms = samples.map((s) => s.ms);
  const rss = samples.map((s) => s.rssMb).filter((v): v is number => v !== null);
  return {
    median_ms: round1(median(ms)),
    max_ms: round1(Math.max(...ms)),
    peak_rss_mb: rss.length ? { median: round1(median(rss)), max: round1(Math.max(...rss)) } : null,
  };
}

/**
 * `npm run bench -- cli`: the command line's short answers as a script meets them, each a whole process (spawn to
 * exit) over RUNS runs, interleaved with bare `node -e 0` so both meet the same machine: `--version`, `--help`, `export
 * cities` on the 30-day world synced into a cache (with no config file, and with one, whose check loads TypeBox), and
 * an argument error. Goal: each at most 2x bare node (median). With CLI_BENCH_DIST, another build's CLI is run the
 * same way in the same rounds.
 */
export async function benchCli() {
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-cli-'));
  const db = join(root, 'cache.db');
  const cache = openCache(db);
  try {
    await syncWorldInto(cache);
  } finally {
    cache.close();
  }
  const env = { ...process.env, XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
  // a home whose config file holds a service and a key, as a trader's does
  const configured = join(root, 'configured');
  mkdirSync(join(configured, 'svc-monitor'), { recursive: true, mode: 0o700 });
  const configFile = join(configured, 'svc-monitor', 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({ base_url: 'http://127.0.0.1:8787/api/public/v1', api_key: 'k'.repeat(24) }),
  );
  chmodSync(configFile, 0o600);

  const cases: Case[] = [
    { name: 'node -e 0', args: () => ['-e', '0'], code: 0 },
    { name: '--version', args: (cli) => [cli, '--version'], code: 0 },
    { name: '--help', args: (cli) => [cli, '--help'], code: 0 },
    { name: 'export cities', args: (cli) => [cli, 'export', 'cities', '--db', db], code: 0 },
    {
      name: 'export cities, config file',
      args: (cli) => [cli, 'export', 'cities', '--db', db],
      env: { XDG_CONFIG_HOME: configured },
      code: 0,
    },
    { name: 'argument error', args: (cli) => [cli, 'sync', '--bogus'], code: 2 },
  ];
  const builds = OTHER ? [CLI, OTHER] : [CLI];
  const samples = new Map<string, Sample[]>();
  const key = (build: string, c: Case) => `${build}\n${c.name}`;
  // one untimed run of each, so the first timed one does not pay for the disk cache
  for (const build of builds) for (const c of cases) await runOnce(c, build, env);
  for (let round = 0; round < RUNS; round++) {
    for (const build of builds) {
      for (const c of cases) {
        if (c.name === 'node -e 0' && build !== CLI) continue;
        const list = samples.get(key(build, c)) ?? [];
        list.push(await runOnce(c, build, env));
        samples.set(key(build, c), list);
      }
    }
  }
  rmSync(root, { recursive: true, force: true });

  const bare = summary(samples.get(key(CLI, cases[0] as Case)) ?? []);
  const commandsOf = (build: string) =>
    Object.fromEntries(
      cases.slice(1).map((c) => {
        const s = summary(samples.get(key(build, c)) ?? []);
        return [
          c.name,
          {
            ...s,
            ratio_median: round2(s.median_ms / bare.median_ms),
            ratio_max: round2(s.max_ms / bare.max_ms),
            ratio_peak_rss:
              s.peak_rss_mb && bare.peak_rss_mb ? round2(s.peak_rss_mb.median / bare.peak_rss_mb.median) : null,
          },
        ];
      }),
    );
  const result = {
    runs: RUNS,
    load_average: (await import('node:os')).loadavg().map(round2),
    bare_node: bare,
    commands: commandsOf(CLI),
    ...(OTHER ? { other_build: { dist: process.env.CLI_BENCH_DIST, commands: commandsOf(OTHER) } } : {}),
  };
  writeResult('cli', result);
  return result;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
