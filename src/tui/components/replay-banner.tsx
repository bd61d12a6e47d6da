import { memo } from 'react';
import type { City } from '../../contract/cities.js';
import { localStamp, offsetLabel } from '../format/time.js';
import { hintOf, KEYS } from '../keys.js';
import { isHourly, type Replay } from '../state/replay.js';
import { type Line, seg } from '../theme.js';
import { LineText } from './line-text.js';

const K = KEYS.travel;
/** Time travel's keys, as the banner and the prompt write them. */
export const REPLAY_HINTS = [
  `${K.earlier.label} ${K.later.label} ${K.later.hint}`,
  hintOf(K.play),
  `${K.faster.label} ${K.slower.label} ${K.faster.hint}`,
  hintOf(K.live),
].join(' · ');

/**
 * On top while replaying: `REPLAY <local time>` in the selected city's zone, the market day pinned when it is another
 * date than the one shown, `hourly` on a day retention thinned, whether it plays and how fast, and the keys. Says in words that nothing below is live.
 */
export const ReplayBanner = memo(function ReplayBanner({
  width,
  replay,
  city,
}: {
  width: number;
  replay: Replay;
  city: City | undefined;
}) {
  const tz = city?.tz ?? 'UTC';
  const local = localStamp(replay.atMs, tz);
  const l: Line = [
    { text: ` REPLAY ${local} `, tone: 'accent', bold: true, inverse: true },
    seg(` ${city ? `${city.city_name} ` : ''}${offsetLabel(replay.atMs, tz)} · `, 'accent'),
    // the day pinned, when it is not the local date shown (past its midnight: passed, then settled)
    seg(local.startsWith(replay.date) ? '' : `market day ${replay.date} · `, 'accent'),
    // a day thinned by retention (DESIGN 4): what it holds, and what the steps are, is by the hour
    seg(isHourly(replay) ? 'hourly · ' : '', 'accent', true),
    seg(replay.playing ? `playing x${replay.speed}` : `paused x${replay.speed}`, 'accent', true),
    seg(`   ${REPLAY_HINTS}`, 'muted'),
  ];
  return <LineText line={l} width={width} />;
});
