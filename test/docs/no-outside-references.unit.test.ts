import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages as pages, ROOT } from '../helpers/doc-pages.js';

/*
 * A newcomer has only the clone: the README, CONTRIBUTING and docs/ may cite the project's own files and the outside
 * world's web pages (npm, Node's docs), never a file beside the repository, a path of the machine they were written
 * on, or a section of a document the clone does not hold.
 */

/** What a line may not say, and why. */
const FORBIDDEN: [RegExp, string][] = [
  [/\bDESIGN\b/, 'cites DESIGN, which a clone does not hold'],
  [/\bspec(?:'s)?\s+(?:section\s+)?\d/i, 'cites a section of the spec, which a clone does not hold'],
  [/\bthe spec\b/i, 'cites the spec, which a clone does not hold'],
  [/service-interface/i, 'names service-interface.md, which a clone does not hold'],
  [/\.\.\//, 'a ../ path outside a link'],
  // the roots of the machine a page was written on; a user's home in an example (`/home/me/bin`) is illustrative
  [/(?<![\w.~:/-])\/(?:work|root|tmp|mnt|Users|shared)\//, 'an absolute path of the machine it was written on'],
];

/** Every `[text](target)` or `![alt](target)` target on a line that is not a URL (`https:`, `mailto:`, ...). */
const LINK = /\]\(([^)\s]+)\)/g;
const isUrl = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** `file:line: what` for every line of `text` (the page at `page`) that leaves the clone. */
function outsideReferences(page: string, text: string): string[] {
  const name = relative(ROOT, page);
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const where = `${name}:${i + 1}`;
    for (const [, target = ''] of line.matchAll(LINK)) {
      if (isUrl(target)) continue;
      const path = target.split('#')[0] ?? '';
      const resolved = resolve(dirname(page), path);
      if (resolved !== ROOT && !resolved.startsWith(`${ROOT}${sep}`))
        found.push(`${where}: link ${target} leaves the repository`);
    }
    // a link's own target is judged above; the words around it here
    const words = line.replace(LINK, '](link)');
    for (const [pattern, why] of FORBIDDEN) if (pattern.test(words)) found.push(`${where}: ${why}: ${line.trim()}`);
  });
  return found;
}

describe('the docs stay inside the clone', () => {
  it('reads the README, CONTRIBUTING and every page of docs/ (the check below is not empty)', () => {
    const names = pages().map((p) => relative(ROOT, p));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', join('docs', 'interface.md')]));
    expect(names.length).toBeGreaterThanOrEqual(12);
  });

  it('no page cites DESIGN, the spec or a path outside the repository', () => {
    const found = pages().flatMap((page) => outsideReferences(page, readFileSync(page, 'utf8')));
    // printed whole, so a failure names each file:line
    expect(found.join('\n')).toBe('');
  });

  it('fails each kind of outside reference, naming the file and line, and lets the clone and the web through', () => {
    const page = join(ROOT, 'docs', 'planted.md');
    const text = [
      'The rule is DESIGN 4.', // 1
      "As spec 4.6 says, and the spec's retries.", // 2
      'Kept beside it: `DESIGN.md` and `spec/service-interface.md`.', // 3
      'See [the contract](../../shared/DESIGN.md).', // 4
      'Copy it from ../shared/ first.', // 5
      'The clone lives at /work/main/src.', // 6
      'Fine: [the interface](interface.md#errors), [the code](../src/cli.ts), [npm](https://docs.npmjs.com/).', // 7
      'Fine: `/api/public/v1/cities`, `/usr/share/zoneinfo`, `["/home/me/bin/to-phone"]`.', // 8
    ].join('\n');
    const found = outsideReferences(page, text);
    expect(found.map((f) => f.split(': ')[0])).toEqual([
      'docs/planted.md:1',
      'docs/planted.md:2',
      'docs/planted.md:2',
      'docs/planted.md:3',
      'docs/planted.md:3',
      'docs/planted.md:4',
      'docs/planted.md:5',
      'docs/planted.md:6',
    ]);
    expect(found[5]).toBe('docs/planted.md:4: link ../../shared/DESIGN.md leaves the repository');
  });
});
