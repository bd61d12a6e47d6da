import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle in src/, type-only imports included: a module and what it imports form a tree, so each can be
 * read, tested and moved on its own, and no value is read before its module ran. Imports are read with the
 * TypeScript compiler's parser (static, re-exports, `import('...')`, `import type`); the strongly connected groups
 * of the import graph (Tarjan) of more than one file, or a file importing itself, are the cycles.
 */
const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative module specifiers of one file, wherever they appear. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push(arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.startsWith('.'));
}

/** `./x.js` as the file it names: x.ts or x.tsx (the build writes .js for both). */
function resolveImport(from: string, specifier: string, files: Set<string>): string {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (files.has(candidate)) return candidate;
  throw new Error(`${relative(SRC, from)} imports ${specifier}, which is no file of src/`);
}

/** Tarjan's strongly connected components of the graph. */
function components(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      out.push(group);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return out;
}

/** The import graph of src/, file to the files it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  return new Map(files.map((f) => [f, [...new Set(specifiers(f).map((s) => resolveImport(f, s, known)))]]));
}

describe('src/ has no import cycle', () => {
  it('finds a cycle when there is one (the finder itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    const groups = components(graph).map((g) => [...g].sort());
    expect(groups.filter((g) => g.length > 1)).toEqual([['a', 'b', 'c']]);
    expect(groups).toContainEqual(['e']);
  });

  it('none among the files of src/, type-only imports included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(200);
    const cycles = components(graph)
      .filter((group) => group.length > 1 || (graph.get(group[0] as string) ?? []).includes(group[0] as string))
      .map((group) => group.map((f) => relative(SRC, f)).sort());
    expect(cycles).toEqual([]);
  });
});
