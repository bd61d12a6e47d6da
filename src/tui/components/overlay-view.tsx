import type { City } from '../../contract/cities.js';
import type { Overlay } from '../hooks/use-monitor-state.js';
import { CityChooser } from './city-chooser.js';
import { DocumentOverlay } from './document-overlay.js';
import { HelpOverlay } from './help-overlay.js';
import { ReplayPrompt } from './replay-prompt.js';
import { ReplayableDetail } from './replayable-detail.js';

/** The modal in front of the pane. */
export function OverlayView({
  overlay,
  cities,
  width,
  height,
  nowMs,
}: {
  overlay: Overlay;
  cities: readonly City[];
  width: number;
  height: number;
  nowMs: number;
}) {
  if (overlay.kind === 'help') return <HelpOverlay width={width} height={height} />;
  if (overlay.kind === 'city') return <CityChooser cities={cities} width={width} height={height} nowMs={nowMs} />;
  if (overlay.kind === 'travel') return <ReplayPrompt cities={cities} width={width} height={height} />;
  if (overlay.replay) return <ReplayableDetail overlay={overlay} width={width} height={height} />;
  return (
    <DocumentOverlay
      title={overlay.title}
      lines={overlay.lines}
      width={width}
      height={height}
      action={overlay.action}
    />
  );
}
