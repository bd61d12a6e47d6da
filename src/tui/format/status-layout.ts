import { type Line, seg } from '../theme.js';

/** A group of the status bar and how much it matters: where room is short, the lowest rank goes first. */
export interface StatusGroup {
  line: Line;
  rank: number;
}

const SEPARATOR = ' · ';
const widthOf = (l: Line) => l.reduce((n, s) => n + s.text.length, 0);

/** What stands for the groups left out: how many, so the trader knows the bar is not all there is. */
const marker = (hidden: number): Line => [seg(`+${hidden} more`, 'muted')];

/**
 * The groups on one line if they all fit, else on two, in their order, each whole: a group never starts on a line
 * it does not fit on. When two lines are not enough, the group of lowest rank is left out (then the next), and a
 * marker says how many are. A single group wider than the bar is cut at a word, with `…`.
 */
export function layoutStatus(groups: readonly StatusGroup[], width: number, maxLines = 2): Line[] {
  const fitted = groups.map((g) => ({ ...g, line: cutToWidth(g.line, width) }));
  for (let lines = 1; lines <= maxLines; lines++) {
    const placed = flow(
      fitted.map((g) => g.line),
      width,
    );
    if (placed && placed.length <= lines) return placed;
  }
  const kept = [...fitted];
  while (kept.length > 1) {
    const lowest = kept.reduce((low, g) => (g.rank < low.rank ? g : low));
    kept.splice(kept.indexOf(lowest), 1);
    const placed = flow([...kept.map((g) => g.line), marker(fitted.length - kept.length)], width);
    if (placed && placed.length <= maxLines) return placed;
  }
  return [kept[0]?.line ?? []];
}

/** Groups left to right with a separator, a new line when the next does not fit; null if one cannot fit at all. */
function flow(groups: readonly Line[], width: number): Line[] | null {
  const lines: Line[] = [];
  let current: Line = [];
  let used = 0;
  for (const g of groups) {
    const size = widthOf(g);
    if (size > width) return null;
    if (used > 0 && used + SEPARATOR.length + size > width) {
      lines.push(current);
      current = [];
      used = 0;
    }
    if (used > 0) current.push(seg(SEPARATOR, 'muted'));
    current.push(...g);
    used += (used > 0 ? SEPARATOR.length : 0) + size;
  }
  lines.push(current);
  return lines;
}

/** A group wider than the bar (a long error message): cut after the last whole word that fits, then `…`. */
function cutToWidth(l: Line, width: number): Line {
  if (widthOf(l) <= width) return l;
  const text = l.map((s) => s.text).join('');
  const room = text.slice(0, Math.max(0, width - 1));
  const space = room.lastIndexOf(' ');
  const keep = (space > 0 ? room.slice(0, space) : room).length;
  const out: Line = [];
  let left = keep;
  for (const s of l) {
    if (left <= 0) break;
    out.push({ ...s, text: s.text.slice(0, left) });
    left -= Math.min(left, s.text.length);
  }
  const last = out[out.length - 1];
  out.push({ ...(last ?? {}), text: '…' });
  return out;
}
