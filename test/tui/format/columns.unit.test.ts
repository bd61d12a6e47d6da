import { describe, expect, it } from 'vitest';
import { type Column, cellOf, rowCells, titleCells } from '../../../src/tui/format/columns.js';

interface Row {
  city: string;
  price: number;
}
const CITY: Column<Row> = { title: 'city', width: 6, value: (r) => r.city };
const PRICE: Column<Row> = { title: 'price', width: 7, align: 'right', value: (r) => r.price.toFixed(3) };

describe('column tables', () => {
  it('pads titles and cells to their column, left or right', () => {
    expect(titleCells([CITY, PRICE])).toEqual(['city  ', '  price']);
    expect(rowCells([CITY, PRICE], { city: 'nyc', price: 0.5 })).toEqual(['nyc   ', '  0.500']);
  });

  it('cuts what does not fit and says so with an ellipsis, keeping the width', () => {
    expect(cellOf(CITY, { city: 'amsterdam', price: 0 })).toBe('amste…');
    expect(cellOf(PRICE, { city: '', price: 12345.678 })).toBe('12345.…');
    const title: Column<Row> = { ...PRICE, title: 'the price now' };
    expect(titleCells([title])).toEqual(['the pr…']);
  });

  it('gives nothing to a column without width', () => {
    expect(cellOf({ ...CITY, width: 0 }, { city: 'nyc', price: 0 })).toBe('');
  });
});
