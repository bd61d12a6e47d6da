import { Text } from 'ink';
import { KEYS } from '../keys.js';

export const MIN_COLUMNS = 40;
export const MIN_ROWS = 10;

/** Nothing fits: say so, and how big the terminal has to be. */
export function TooSmall({ columns, rows }: { columns: number; rows: number }) {
  return (
    <Text>{`Terminal too small (${columns}x${rows}); need ${MIN_COLUMNS}x${MIN_ROWS}. Enlarge it, or ${KEYS.everywhere.quit.label} to quit.`}</Text>
  );
}
