import { memo } from 'react';
import { useAlertCounts } from '../hooks/use-alert-counts.js';
import { hintOf, KEYS } from '../keys.js';
import { PANE_TITLES, PANES } from '../panes/pane-registry.js';
import { useUiState } from '../state/monitor-context.js';
import { type Line, type Segment, seg } from '../theme.js';
import { LineText } from './line-text.js';

interface TabForm {
  name(title: string): string;
  count(n: number): string;
  /** Spaces either side of a tab not shown: the brackets of the one shown take as many. */
  pad: string;
}

/**
 * How a tab names its pane, widest first: `4 Alerts (3)` spaced, `4 Alerts(3)` one space apart, `4 Ale(3)`, `4(3)`.
 * The tight full names come before three letters: at 80 columns with kills to count they fit (77 columns), and
 * `Boa`, `For` or `His` make a reader guess.
 */
const TAB_FORMS: readonly TabForm[] = [
  { name: (t) => ` ${t}`, count: (n) => ` (${n})`, pad: ' ' },
  { name: (t) => ` ${t}`, count: (n) => `(${n})`, pad: '' },
  { name: (t) => ` ${t.slice(0, 3)}`, count: (n) => `(${n})`, pad: ' ' },
  { name: () => '', count: (n) => `(${n})`, pad: ' ' },
];

/** The tabs with each pane named in `form`, the current one bracketed, the unacknowledged count on Alerts'. */
function tabs(form: TabForm, current: string, unacknowledged: number): Segment[] {
  return PANES.flatMap((id, i) => {
    let text = `${i + 1}${form.name(PANE_TITLES[id])}`;
    if (id === 'alerts' && unacknowledged > 0) text += form.count(unacknowledged);
    const tab: Segment =
      id === current
        ? { text: `[${text}]`, tone: 'accent', bold: true, inverse: true }
        : seg(`${form.pad}${text}${form.pad}`);
    return [tab, seg(' ')];
  });
}

const widthOf = (segments: readonly Segment[]) => segments.reduce((n, s) => n + s.text.length, 0);

/**
 * Panes by number, the current one bracketed; the unacknowledged alert count and the kills are always here. The kill
 * mark is never cut (`!! KILL x3`): the tabs shorten to make room for it (closer together, then titles to three
 * letters, then to their numbers), and the key hints go first.
 */
export const TabBar = memo(function TabBar({ width }: { width: number }) {
  const { pane } = useUiState();
  const counts = useAlertCounts();
  const kill = counts.kills > 0 ? [seg(`!! KILL x${counts.kills} `, 'alarm', true)] : [];
  const room = width - widthOf(kill);
  const forms = TAB_FORMS.map((form) => tabs(form, pane, counts.unacknowledged));
  const shown = forms.find((t) => widthOf(t) <= room) ?? (forms[forms.length - 1] as Segment[]);
  const l: Line = [...shown, ...kill];
  const hints = seg(`  ${hintOf(KEYS.everywhere.help)}  ${hintOf(KEYS.everywhere.quit)}`, 'muted');
  if (widthOf(l) + widthOf([hints]) <= width) l.push(hints);
  return <LineText line={l} width={width} />;
});
