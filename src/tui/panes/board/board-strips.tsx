import { Box } from 'ink';
import { STRIP_SECTIONS, type StripId } from '../../keys.js';
import { defineStrip, type StripEntry, type StripViewProps, stripRows } from '../pane-entry.js';
import { DETAIL_MIN_ROWS } from './detail/city-detail-lines.js';
import { cityDetailStore } from './detail/city-detail-store.js';
import { CityDetailStrip } from './detail/city-detail-strip.js';

/**
 * The board's strips, in the order they take the rows its cities leave free (pane-entry.ts `stripRows`): a strip is
 * its folder under `panes/board/`, one entry here (`defineStrip`: id, view, store, warm, keys, minRows, bench) and its
 * section of keys.ts (`STRIP_SECTIONS`). The board draws them under its rows (`BoardStrips`); the registry warms and
 * stops their stores, lists their keys in the help under the board's and gives the benchmark their keys.
 */
export const BOARD_STRIPS: readonly StripEntry<StripId>[] = [
  // the selected city in detail; the cursor's moves are what it redraws on
  defineStrip({
    id: 'detail',
    view: CityDetailStrip,
    store: cityDetailStore,
    warm: false,
    keys: STRIP_SECTIONS.detail,
    minRows: DETAIL_MIN_ROWS,
    bench: { keys: ['j', 'k'] },
  }),
];

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
