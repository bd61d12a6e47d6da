import { Box } from 'ink';
import { useMemo, useState } from 'react';
import type { City } from '../../contract/cities.js';
import { localDate } from '../../domain/city-time.js';
import { localStamp, offsetLabel } from '../format/time.js';
import { useDeps, useUiActions, useUiState } from '../state/monitor-context.js';
import { useReplay, useReplayActions } from '../state/replay-context.js';
import { parseReplayTime, spanFreshMs, spanText, syncedTo } from '../state/replay-target.js';
import { type Line, line, seg } from '../theme.js';
import { LineText } from './line-text.js';
import { LineView } from './line-view.js';
import { REPLAY_HINTS } from './replay-banner.js';
import { TextInput } from './text-input.js';

/**
 * `t`: the prompt for a local date and time in the selected city's zone (named in the prompt; the time shown now is
 * written below it). Enter goes there, its date pinned as every city's market day; a time that is none, or outside the
 * cache's span, is refused here in words and the prompt stays.
 */
export function ReplayPrompt({ cities, width, height }: { cities: readonly City[]; width: number; height: number }) {
  const { cache, now, intervals } = useDeps();
  const { city: chosen } = useUiState();
  const ui = useUiActions();
  const replay = useReplay();
  const actions = useReplayActions();
  const [error, setError] = useState<string | null>(null);
  const city = cities.find((c) => c.city_id === chosen) ?? cities[0];
  const tz = city?.tz ?? 'UTC';
  const shownMs = replay?.atMs ?? now().getTime();
  const span = useMemo(() => cache.history.span(), [cache]);
  const synced = useMemo(() => syncedTo(cache.streams.states()), [cache]);
  const where = `${city ? `${city.city_name}, ` : ''}${tz}, ${offsetLabel(shownMs, tz)}`;

  // a time typed alone is on the market day shown (while replaying, the day pinned, past its midnight too)
  const onDay = replay?.date ?? localDate(shownMs, tz);
  const submit = (text: string) => {
    const target = parseReplayTime(text, tz, onDay, span, now().getTime());
    if ('error' in target) setError(target.error);
    else {
      actions.start(target.atMs, target.date);
      ui.closeOverlay();
    }
  };
  const title: Line = line(
    seg('Time travel', 'accent', true),
    seg(`  every pane as of a local time in ${where}`, 'muted'),
  );
  const lines: Line[] = [
    // the cache's end as the streams' newest pass, and how long before now when the sync has not reached now (spanText)
    line(
      seg(
        `  shown now: ${localStamp(shownMs, tz)} local; ${spanText(span, tz, now().getTime(), spanFreshMs(intervals), synced)}`,
        'muted',
      ),
    ),
    line(
      seg(
        `  a local date and time (${onDay} 09:30), or a time alone on ${onDay}; the date is the market day every city shows`,
        'muted',
      ),
    ),
    line(seg(`  once there: ${REPLAY_HINTS}`, 'muted')),
  ];
  if (error) lines.unshift(line(seg(`  ${error}`, 'bad')));
  return (
    <Box flexDirection="column">
      <LineText line={title} width={width} />
      <TextInput prompt={`${tz} local> `} initial="" width={width} onSubmit={submit} onCancel={ui.closeOverlay} />
      <LineView lines={lines} width={width} height={Math.max(1, height - 2)} />
    </Box>
  );
}
