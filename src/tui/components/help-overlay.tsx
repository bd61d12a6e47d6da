import { type Line, line, seg } from '../theme.js';

const KEYS: [string, [string, string][]][] = [
  [
    'Everywhere',
    [
      ['Tab / Shift-Tab', 'next / previous pane'],
      ['1 2 3 4 5', 'Signals, Positions, Alerts, Forecasts, History'],
      ['c', 'choose the city (Forecasts, local time in the status bar)'],
      ['u', 'temperatures in °F / °C'],
      ['r', 'refresh: sync now'],
      ['?', 'this help (Esc or ? closes it)'],
      ['q', 'quit'],
    ],
  ],
  [
    'Lists and pages',
    [
      ['↑ ↓  j k', 'move'],
      ['PgUp PgDn  Space', 'a page up / down'],
      ['g  Home', 'back to the top (the newest)'],
      ['Enter', 'full detail of the selected row (legs, reasoning, raw payload)'],
      ['Esc', 'back'],
    ],
  ],
  ['Alerts', [['a', 'acknowledge the selected alert']]],
  [
    'History',
    [
      ['← →  [ ]', 'previous / next table'],
      ['/', 'filter: a city id and/or dates, e.g. "nyc 2026-11-01..2026-11-20"; empty clears'],
      ['s', 'summaries: strategy P&L and hit rate, fusion-lock hit rate, forecast error'],
    ],
  ],
  [
    'Reading the screen',
    [
      ['!! KILL', 'a kill signal: exit the pick at market'],
      ['~ before a time', 'the time follows from the market rules (entry hours, settlement at midnight)'],
      [
        'sync cur 12s',
        'age of the last good sync of a stream; * stale (2 polls missed), ! failing or 5 missed, ? never',
      ],
      ['ok / dup / rej', 'webhooks accepted, duplicates, rejected by the listener'],
      ['m / r after a price', 'current price from the mkta quotes / from the record itself'],
    ],
  ],
];

export function helpLines(): Line[] {
  const out: Line[] = [line(seg('KEYS', 'accent', true))];
  for (const [section, keys] of KEYS) {
    out.push([], line(seg(section, 'accent', true)));
    for (const [k, what] of keys) out.push(line(seg(`  ${k.padEnd(20)}`, undefined, true), what));
  }
  return out;
}
