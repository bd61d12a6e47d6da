import Database from 'better-sqlite3';

/**
 * How two SQLite files differ, table by table: `{}` when both hold the same tables (`meta` and `api_keys` aside, or
 * only `tables`) with the same rows, however ordered; else each differing table with the rows of each side the other
 * lacks. Counted in SQL (EXCEPT both ways, the counts, and one side's rows distinct, which together make the two the
 * same multiset of rows): a digest of every row's JSON in JavaScript took about 6 s a 30-day world.
 */
export function tableDifferences(fileA: string, fileB: string, tables?: readonly string[]): Record<string, string> {
  const db = new Database(fileA, { readonly: true, fileMustExist: true });
  try {
    db.prepare('ATTACH DATABASE ? AS b').run(fileB);
    const names = (schema: string) =>
      db
        .prepare(
          `SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT IN ('meta', 'api_keys') ORDER BY name`,
        )
        .pluck()
        .all() as string[];
    const differences: Record<string, string> = {};
    const [inA, inB] = [names('main'), names('b')];
    if (!tables && inA.join() !== inB.join()) differences['(tables)'] = `${inA.join(', ')} against ${inB.join(', ')}`;
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    for (const table of tables ?? inA.filter((name) => inB.includes(name))) {
      const onlyA = count(`SELECT count(*) FROM (SELECT * FROM main.${table} EXCEPT SELECT * FROM b.${table})`);
      const onlyB = count(`SELECT count(*) FROM (SELECT * FROM b.${table} EXCEPT SELECT * FROM main.${table})`);
      const rowsA = count(`SELECT count(*) FROM main.${table}`);
      const rowsB = count(`SELECT count(*) FROM b.${table}`);
      const distinctA = count(`SELECT count(*) FROM (SELECT DISTINCT * FROM main.${table})`);
      if (onlyA || onlyB || rowsA !== rowsB || distinctA !== rowsA)
        differences[table] =
          `${onlyA} rows only in the first, ${onlyB} only in the second (${rowsA} rows, ${distinctA} distinct, against ${rowsB})`;
    }
    return differences;
  } finally {
    db.close();
  }
}
