import { describe, expect, it } from 'vitest';
import { BROWSE_TABLES } from '../../../../src/cache/index.js';
import { HISTORY_COLUMNS, historyHeader } from '../../../../src/tui/panes/history/history-columns.js';

describe("History's columns", () => {
  it('name every field whole in the header, and every table fits 160 columns', () => {
    for (const table of BROWSE_TABLES) {
      const header = historyHeader(table);
      // `yes_p…` was fusion-locks' yes_price in a column of 6
      expect(header, table).not.toContain('…');
      for (const column of HISTORY_COLUMNS[table]) expect(header, table).toContain(column.title);
      // the pane indents the header by two
      expect(2 + header.length, table).toBeLessThanOrEqual(160);
    }
  });
});
