import { describe, expect, it } from 'vitest';
import { Where } from '../../../src/cache/db/where.js';

describe('Where', () => {
  it('is nothing without filters', () => {
    const where = new Where();
    expect(`${where}`).toBe('');
    expect(where.args).toEqual([]);
  });

  it('starts with the city when one is given, then ANDs every condition in order with its values', () => {
    const where = new Where('nyc');
    where.add('open = ?', 1);
    where.add('t BETWEEN ? AND ?', 10, 20);
    expect(`${where}`).toBe(' WHERE city_id = ? AND open = ? AND t BETWEEN ? AND ?');
    expect(where.args).toEqual(['nyc', 1, 10, 20]);
  });

  it('turns inclusive bounds into >= and <=, and an absent bound into nothing', () => {
    const both = new Where();
    both.bounds('t', { since: 5, until: '2026-11-21' });
    expect(`${both}`).toBe(' WHERE t >= ? AND t <= ?');
    expect(both.args).toEqual([5, '2026-11-21']);

    const since = new Where();
    since.bounds('t', { since: 0 });
    expect(`${since}`).toBe(' WHERE t >= ?');
    expect(since.args).toEqual([0]);

    const none = new Where();
    none.bounds('t', {});
    expect(`${none}`).toBe('');
  });
});
