// Preloaded into the built CLI by tests (`node --import <this file> dist/cli.js ...`) whose service is the frozen
// template world: the CLI's wall clock then starts at WORLD_CLOCK_START (an ISO instant) and runs at real speed, so
// the monitor's "now minus history_hours" windows land on the world's days whatever the date the tests run on.
// Only Date moves; timers and performance.now() keep the real monotonic clock.
const start = Date.parse(process.env.WORLD_CLOCK_START ?? '');
if (Number.isFinite(start)) {
  const RealDate = Date;
  const offset = start - RealDate.now();
  class WorldDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = WorldDate;
}
