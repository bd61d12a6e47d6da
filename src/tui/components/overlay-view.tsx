import type { City } from '../../contract/cities.js';
import type { Overlay } from '../hooks/use-monitor-state.js';
import { CityChooser } from './city-chooser.js';
import { DocumentOverlay } from './document-overlay.js';
import { HelpOverlay } from './help-overlay.js';

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
  return <DocumentOverlay title={overlay.title} lines={overlay.lines} width={width} height={height} />;
}
