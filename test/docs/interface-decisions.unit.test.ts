import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PAGE = fileURLToPath(new URL('../../docs/interface.md', import.meta.url));

/** Each row of the decisions table: its question, and every (test file, quoted test name) its last column cites. */
function decisions(page: string): { question: string; cited: { file: string; name: string }[] }[] {
  const text = readFileSync(page, 'utf8');
  const table = text.slice(text.indexOf('## Decisions where the interface is open'));
  const rows = table.split('\n').filter((l) => /^\| [^-]/.test(l) && !l.startsWith('| question |'));
  return rows.map((row) => {
    const cells = row.split(' | ');
    const pinned = cells.at(-1) ?? '';
    const cited: { file: string; name: string }[] = [];
    // a link to a test file, then the names in double quotes that follow it up to the next link
    for (const part of pinned.split(/(?=\[[^\]]+\]\([^)]+\))/)) {
      const link = part.match(/^\[[^\]]+\]\(([^)]+)\)/);
      if (!link?.[1]) continue;
      const file = join(dirname(page), link[1]);
      for (const m of part.matchAll(/"((?:[^"\\]|\\.)+)"/g))
        cited.push({ file, name: (m[1] ?? '').replace(/\\"/g, '"') });
    }
    return { question: (cells[0] ?? '').replace(/^\| /, ''), cited };
  });
}

describe("docs/interface.md's decisions, each pinned by a test that exists", () => {
  it('reads the table: every row cites at least one test by file and name', () => {
    const rows = decisions(PAGE);
    // 27 decisions when the table was written; more may come, fewer would mean the table was not read
    expect(rows.length).toBeGreaterThanOrEqual(27);
    expect(rows.filter((r) => r.cited.length === 0).map((r) => r.question)).toEqual([]);
  });

  it("names tests that are in the files it links (a renamed test fails here, not in a reader's hands)", () => {
    const missing = decisions(PAGE)
      .flatMap((r) => r.cited.map((c) => ({ ...r, ...c })))
      .filter((c) => !existsSync(c.file) || !readFileSync(c.file, 'utf8').includes(c.name))
      .map((c) => `${c.question}: "${c.name}" not in ${c.file.slice(c.file.indexOf('test/'))}`);
    expect(missing).toEqual([]);
  });
});
