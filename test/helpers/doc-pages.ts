import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, as the docs' tests see it. */
export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The repository's own pages: the top-level *.md and everything under docs/. */
export function docPages(): string[] {
  const top = readdirSync(ROOT).filter((f) => f.endsWith('.md'));
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  return [...top.map((f) => join(ROOT, f)), ...docs.map((f) => join(ROOT, 'docs', f))];
}
