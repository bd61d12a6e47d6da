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
