import { cell } from './text.js';

/**
 * One column of a text table: its title, its width in characters, and what it shows of a row. Every table of the
 * monitor (Signals, History, Positions, the summaries) is a list of these, so a column is declared once and its
 * title and its cells can never disagree on the width.
 */
export interface Column<Row> {
  title: string;
  width: number;
  align?: 'left' | 'right';
  value(row: Row): string;
}

/** The titles, each cut and padded to its column's width. */
export const titleCells = <Row>(columns: readonly Column<Row>[]): string[] =>
  columns.map((c) => cell(c.title, c.width, c.align));

/** The column's value of `row`, cut and padded to its width. */
export const cellOf = <Row>(column: Column<Row>, row: Row): string =>
  cell(column.value(row), column.width, column.align);

/** One row's cells, each cut and padded to its column's width. */
export const rowCells = <Row>(columns: readonly Column<Row>[], row: Row): string[] =>
  columns.map((c) => cellOf(c, row));
