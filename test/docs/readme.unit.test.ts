import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP_SECTIONS } from '../../src/tui/panes/pane-registry.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it("lists every key of the help overlay, as keys.ts words it, under the overlay's section", () => {
    const rows = HELP_SECTIONS.flatMap(([section, bindings]) =>
      Object.values(bindings).flatMap((b) => (b.help ? [`| ${section} | \`${b.help[0]}\` | ${b.help[1]} |`] : [])),
    );
    // Everywhere 7 + Lists 5 + Board 3 + Positions 1 + Alerts 4 + History 3 + Time travel 6 rows with a help entry
    expect(rows).toHaveLength(29);
    expect(rows.filter((row) => !README.includes(row))).toEqual([]);
  });

  it('keeps the two set-up commands on its first screen (its first 40 lines)', () => {
    const firstScreen = README.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('npm ci && npm start');
    expect(firstScreen).toContain('npm test');
    expect(firstScreen).toContain('![');
  });
});
