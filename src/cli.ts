#!/usr/bin/env node
import { setMonitorHeap } from './cli/heap-policy.js';

// before anything else is loaded: module loading alone would grow the young generation (heap-policy.ts)
setMonitorHeap();
// React picks its build from NODE_ENV when it is first loaded (by the TUI, after this line): the production build,
// whatever the shell says, so a failure never shows the development build's component stacks and warnings
process.env.NODE_ENV = 'production';
// a reader that stops early (`export forecasts | head -c 600`) closes the pipe: a normal end, as `git log | head` has
// it, never a stack trace; what it did not want is not written
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}
const { run } = await import('./cli/program.js');

process.exitCode = await run(process.argv);
