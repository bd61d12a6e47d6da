/** Half-hour slots in a day (a UTC day of slots; a local day's half hours 0..47). */
export const SLOTS_A_DAY = 48;

/**
 * Numbers by half-hour slot (half hours since 1970), one typed array a UTC day: 8 bytes a value (4 for whole
 * numbers) where a map's entry a slot cost about 40. The zones' offsets (city-time.ts) and the world's weather samples
 * are asked for millions of times over a few hundred days. A slot not worked out yet holds NaN, or -2^31 in whole
 * numbers (no value these keep is that).
 */
export class HalfHourSlots {
  private readonly days = new Map<number, Float64Array | Int32Array>();

  /** `whole`: the values are whole numbers that fit 32 bits (an offset in ms), kept in an Int32Array. */
  constructor(private readonly whole = false) {}

  /** The value of `slot`, worked out and kept the first time. */
  value(slot: number, compute: () => number): number {
    const dayIndex = Math.floor(slot / SLOTS_A_DAY);
    let day = this.days.get(dayIndex);
    if (day === undefined) {
      day = this.whole
        ? new Int32Array(SLOTS_A_DAY).fill(WHOLE_UNKNOWN)
        : new Float64Array(SLOTS_A_DAY).fill(Number.NaN);
      this.days.set(dayIndex, day);
    }
    const i = slot - dayIndex * SLOTS_A_DAY;
    const kept = day[i] as number;
    if (!(this.whole ? kept === WHOLE_UNKNOWN : Number.isNaN(kept))) return kept;
    day[i] = compute();
    return day[i] as number;
  }

  /** Forgets the UTC days before `dayIndex` (days since 1970). */
  forgetBefore(dayIndex: number): void {
    for (const day of this.days.keys()) if (day < dayIndex) this.days.delete(day);
  }

  /** How many UTC days are kept. */
  get dayCount(): number {
    return this.days.size;
  }
}

const WHOLE_UNKNOWN = -(2 ** 31);
