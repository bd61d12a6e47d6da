/** The status bar names the service's clock offset from this machine's once it is over this (DESIGN 4). */
export const SHOWN_CLOCK_OFFSET_MS = 5_000;

/** A length of time without its sign, as status and the daemon's lines say it: `12m05s`, `3h04m`, `2d01h`. */
export const duration = (ms: number): string => signedDuration(ms).slice(1);

/** `+4m12s`, `-2h05m`, `+3d04h`, `+7s`: a clock offset in whole seconds, its two largest units. */
export function signedDuration(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  let s = Math.floor(Math.abs(ms) / 1000);
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${sign}${d}d${two(h)}h`;
  if (h > 0) return `${sign}${h}h${two(m)}m`;
  if (m > 0) return `${sign}${m}m${two(s)}s`;
  return `${sign}${s}s`;
}
