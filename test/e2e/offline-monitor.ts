import { startTui, type TuiProcess } from './terminal.js';

/**
 * The built CLI's monitor offline over a cache file (`monitor --offline --db FILE`), each in a pseudo-terminal of its
 * size; `killAll` in the test file's afterAll ends those a failed test left running.
 */
export function offlineMonitors(env: NodeJS.ProcessEnv) {
  const running: TuiProcess[] = [];
  return {
    start(db: string, size: { cols: number; rows: number }, ...args: string[]): TuiProcess {
      const tui = startTui(['monitor', '--offline', '--db', db, ...args], env, size);
      running.push(tui);
      return tui;
    },
    killAll() {
      for (const tui of running) tui.kill();
    },
  };
}
