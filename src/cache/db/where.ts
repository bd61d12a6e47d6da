import type { Bounds } from './time.js';

/** The optional filters of a query, as SQL and its bound values: ` WHERE a AND b` or nothing. */
export class Where {
  private readonly parts: string[] = [];
  readonly args: unknown[] = [];

  constructor(cityId?: string) {
    if (cityId !== undefined) this.add('city_id = ?', cityId);
  }

  add(sql: string, ...values: unknown[]): void {
    this.parts.push(sql);
    this.args.push(...values);
  }

  /** Inclusive bounds on a column; an absent bound adds nothing. */
  bounds(column: string, b: Bounds): void {
    if (b.since !== undefined) this.add(`${column} >= ?`, b.since);
    if (b.until !== undefined) this.add(`${column} <= ?`, b.until);
  }

  toString(): string {
    return this.parts.length === 0 ? '' : ` WHERE ${this.parts.join(' AND ')}`;
  }
}
