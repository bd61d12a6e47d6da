import { Box } from 'ink';
import type { Line } from '../theme.js';
import { LineText } from './line-text.js';

/**
 * Exactly `height` lines of a document starting at `offset`: only these are rendered, and short documents are
 * padded, so the layout never grows past the terminal.
 */
export function LineView({
  lines,
  width,
  height,
  offset = 0,
}: {
  lines: readonly Line[];
  width: number;
  height: number;
  offset?: number;
}) {
  const shown: Line[] = [];
  for (let i = 0; i < height; i++) shown.push(lines[offset + i] ?? []);
  return (
    <Box flexDirection="column" width={width} height={height}>
      {shown.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a screen row is its position
        <LineText key={i} line={l} width={width} />
      ))}
    </Box>
  );
}
