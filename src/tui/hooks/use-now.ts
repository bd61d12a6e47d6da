import { useEffect, useState } from 'react';
import { useDeps } from '../state/monitor-context.js';

/** The current instant (ms), re-read every tick: only the components showing a clock or an age re-render. */
export function useNow(): number {
  const { now, tickMs } = useDeps();
  const [ms, setMs] = useState(() => now().getTime());
  useEffect(() => {
    const timer = setInterval(() => setMs(now().getTime()), tickMs);
    return () => clearInterval(timer);
  }, [now, tickMs]);
  return ms;
}

/**
 * The current minute (ms since the epoch / 60,000), re-read every tick but changing once a minute: a pane whose
 * figures move with the minute (local clocks, phases, what is still live) re-renders once a minute, not every tick.
 */
export function useMinute(): number {
  const { now, tickMs } = useDeps();
  const minuteOf = () => Math.floor(now().getTime() / 60_000);
  const [minute, setMinute] = useState(minuteOf);
  useEffect(() => {
    // the same minute again: React keeps the state, nothing re-renders
    const timer = setInterval(() => setMinute(Math.floor(now().getTime() / 60_000)), tickMs);
    return () => clearInterval(timer);
  }, [now, tickMs]);
  return minute;
}
