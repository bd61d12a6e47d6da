import type { Overlay } from '../hooks/use-monitor-state.js';
import { KEYS } from '../keys.js';
import { useUiActions } from '../state/monitor-context.js';
import { useReplayActions } from '../state/replay-context.js';
import { DocumentOverlay } from './document-overlay.js';

/**
 * A past day's History row in full, where Enter replays its day (DESIGN 3 time travel): from the row's own time, its
 * city chosen (the banner's clock is in its zone), on the Board.
 */
export function ReplayableDetail({
  overlay,
  width,
  height,
}: {
  overlay: Extract<Overlay, { kind: 'detail' }>;
  width: number;
  height: number;
}) {
  const ui = useUiActions();
  const replay = useReplayActions();
  const target = overlay.replay;
  const run = () => {
    if (!target) return;
    replay.start(target.atMs, target.date, true);
    ui.chooseCity(target.cityId);
    ui.showPane('board');
  };
  return (
    <DocumentOverlay
      title={overlay.title}
      lines={overlay.lines}
      width={width}
      height={height}
      action={{ binding: KEYS.travel.replayDay, run }}
    />
  );
}
