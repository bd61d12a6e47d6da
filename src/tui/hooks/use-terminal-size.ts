import { useStdout } from 'ink';
import { useLayoutEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The terminal's size, updated on resize; 80x24 when the stream does not say (not a TTY). */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState<TerminalSize>(() => measure(stdout));
  useLayoutEffect(() => {
    const onResize = () => setSize(measure(stdout));
    stdout.on('resize', onResize);
    onResize();
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

const measure = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: stdout.columns > 0 ? stdout.columns : 80,
  rows: stdout.rows > 0 ? stdout.rows : 24,
});
