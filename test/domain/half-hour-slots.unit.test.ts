import { describe, expect, it } from 'vitest';
import { HalfHourSlots } from '../../src/domain/half-hour-slots.js';

describe('numbers by half hour, an array a UTC day', () => {
  it('work a slot out once and give back what was kept, fractions and whole numbers alike', () => {
    const slots = new HalfHourSlots();
    let computed = 0;
    const ask = (slot: number, value: number) =>
      slots.value(slot, () => {
        computed++;
        return value;
      });
    // 2026-08-01T00:00Z is half hour 991,968 (20,666 days of 48); the day's last slot, and the next day's first
    expect(ask(991_968, 21.37)).toBe(21.37);
    expect(ask(991_968, 99)).toBe(21.37);
    expect(ask(992_015, -3.5)).toBe(-3.5);
    expect(ask(992_016, 0)).toBe(0);
    expect(ask(992_016, 7)).toBe(0);
    // before 1970: a negative day
    expect(ask(-1, 4.25)).toBe(4.25);
    expect(computed).toBe(4);
    expect(slots.dayCount).toBe(3);
  });

  it('keep whole numbers in 32 bits, zero and negatives included', () => {
    const offsets = new HalfHourSlots(true);
    expect(offsets.value(10, () => -18_000_000)).toBe(-18_000_000);
    expect(offsets.value(11, () => 0)).toBe(0);
    expect(offsets.value(11, () => 3_600_000)).toBe(0);
    expect(offsets.value(10, () => 1)).toBe(-18_000_000);
  });

  it('forget the days before the one given (the bound the world keeps), and work them out again if asked', () => {
    const slots = new HalfHourSlots();
    for (const slot of [0, 48, 96, 97]) slots.value(slot, () => slot);
    slots.forgetBefore(1);
    expect(slots.dayCount).toBe(2);
    expect(slots.value(0, () => 5)).toBe(5);
    expect(slots.value(97, () => 5)).toBe(97);
  });
});
