import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages as pages, ROOT } from '../helpers/doc-pages.js';

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? '')));
}

/** Every `[text](target)` and `![alt](target)` outside code, whose target is not a URL. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((target) => !/^[a-z]+:/i.test(target));
}

describe("the docs' relative links", () => {
  it('finds the pages and their links (the check below is not empty)', () => {
    const names = pages().map((p) => relative(ROOT, p));
    expect(names).toContain('README.md');
    expect(names).toContain('CONTRIBUTING.md');
    expect(names).toContain(join('docs', 'operating.md'));
    expect(relativeLinks(join(ROOT, 'README.md'))).toContain('docs/operating.md#the-config-file');
  });

  it('every relative link of every page resolves, to a file and to a heading of it', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      for (const link of relativeLinks(page)) {
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? page : join(dirname(page), path);
        if (!existsSync(target)) broken.push(`${relative(ROOT, page)}: ${link} (no such file)`);
        else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor))
          broken.push(`${relative(ROOT, page)}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    // "The config file's alerts": the apostrophe is dropped, spaces become hyphens
    expect(anchorOf("The config file's alerts")).toBe('the-config-files-alerts');
    // "The soak: `soak`": the colon and the backticks dropped, each space a hyphen
    expect(anchorOf('The soak: `soak`')).toBe('the-soak-soak');
    expect(anchorOf('Time travel: reviewing yesterday')).toBe('time-travel-reviewing-yesterday');
  });
});
