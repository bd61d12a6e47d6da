import { Box } from 'ink';
import type { StripId } from '../../keys.js';
import { type StripEntry, type StripViewProps, stripRows } from '../pane-entry.js';

/**
 * The board's strips, in the order they take the rows its cities leave free (pane-entry.ts `stripRows`): a strip is
 * its folder under `panes/board/`, one entry here (`defineStrip`: id, view, store, warm, keys, minRows, bench) and its
 * section of keys.ts (`STRIP_SECTIONS`). The board draws them under its rows (`BoardStrips`); the registry warms and
 * stops their stores, lists their keys in the help under the board's and gives the benchmark their keys.
 */
export const BOARD_STRIPS: readonly StripEntry<StripId>[] = [];

/** The strips that fit in `height` free rows under the board's rows, each in the rows it is given. */
export function BoardStrips({ height, ...props }: StripViewProps) {
  return (
    <Box flexDirection="column">
      {stripRows(BOARD_STRIPS, height).map(({ strip, rows }) => {
        const View = strip.view;
        return <View key={strip.id} {...props} height={rows} />;
      })}
    </Box>
  );
}
