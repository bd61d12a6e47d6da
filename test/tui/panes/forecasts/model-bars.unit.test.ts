import { describe, expect, it } from 'vitest';
import { barScale } from '../../../../src/tui/panes/forecasts/desk-sections.js';

describe('the models’ bars', () => {
  it('start at zero, the warmest model the whole bar', () => {
    const scale = barScale([68, 72]);
    expect([scale.from, scale.to, scale.text('F')]).toEqual([0, 72, 'from 0 to 72.0°F']);
  });

  it('below zero are drawn over the range, half a degree either side, and say so', () => {
    const scale = barScale([-6, -1]);
    expect([scale.from, scale.to, scale.text('C')]).toEqual([
      -6.5,
      -0.5,
      'drawn over a range, not from 0: -6.5..-0.5°C',
    ]);
  });
});
