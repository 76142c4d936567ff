import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { CopyTableName } from '../../src/contract/database-copy';
import type { Db, Queryable } from '../db/db';
import { quoteIdent as q, type CopyTable } from './tables';

/** One end of a copy: a PostgreSQL server (streamed with COPY when both ends are) or a PGlite database (batches). */
export type CopyEnd = { engine: 'postgres'; db: Db; clientConfig: pg.ClientConfig } | { engine: 'pglite'; db: Db };

export interface RunCopyOptions {
  source: CopyEnd;
  target: CopyEnd;
  /** In copy order (copyPlan). */
  tables: readonly CopyTable[];
  mask: boolean;
  /** Rows loaded so far into `table` (called often; keep it cheap). */
  onRows: (table: CopyTableName, rows: number) => void;
  onTableStart?: (table: CopyTableName) => void;
  /** Rows per batch when an end is PGlite. */
  batchRows?: number;
  /** Milliseconds each phase of a table took (the benchmark's breakdown). */
  onPhase?: (table: CopyTableName, phase: 'load' | 'constraints' | 'indexes', ms: number) => void;
}

interface ColumnInfo {
  name: string;
  sequenced: boolean;
}

/** Stored (not generated) columns of a table in the connection's schema, in table order. */
async function columnsOf(db: Queryable, table: string): Promise<ColumnInfo[]> {
  const { rows } = await db.query<{ name: string; sequenced: boolean }>(
    `SELECT column_name AS name, (coalesce(column_default, '') LIKE 'nextval(%' OR is_identity = 'YES') AS sequenced
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
      ORDER BY ordinal_position`,
    [table],
  );
  return rows;
}

/** What the source is read with: the columns both ends have, masked and with staff ids left out. */
function sourceSelect(table: CopyTable, columns: readonly string[], mask: boolean): string {
  const expressions = columns.map((column) => {
    if (table.staffColumns.includes(column)) return `NULL AS ${q(column)}`;
    const masked = mask ? table.masks[column] : undefined;
    return masked ? `(${masked}) AS ${q(column)}` : q(column);
  });
  return `SELECT ${expressions.join(', ')} FROM ${q(table.name)}`;
}

/** Loads the rows of `select` (run on the source) into `into (columns)` on the target. Resolves to the row count. */
type Loader = (select: string, into: string, columns: readonly string[], key: readonly string[], onRows: (rows: number) => void) => Promise<number>;

/** Counts rows of COPY's text format as they pass: each row ends with a newline (newlines in values are escaped). */
function rowCounter(onRows: (rows: number) => void) {
  let rows = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows += 1;
      onRows(rows);
      done(null, chunk);
    },
  });
  return { counter, rows: () => rows };
}

const streamLoader =
  (source: pg.Client, target: pg.Client): Loader =>
  async (select, into, columns, _key, onRows) => {
    const { counter, rows } = rowCounter(onRows);
    await pipeline(
      source.query(copyTo(`COPY (${select}) TO STDOUT`)),
      counter,
      target.query(copyFrom(`COPY ${q(into)} (${columns.map(q).join(', ')}) FROM STDIN`)),
    );
    return rows();
  };

/** Keyset batches as JSON: one round trip per batch at each end, and no value passes through JavaScript types. */
const batchLoader =
  (source: Queryable, target: Queryable, batchRows: number): Loader =>
  async (select, into, columns, key, onRows) => {
    const keyList = key.map((column) => `s.${q(column)}`).join(', ');
    const list = columns.map(q).join(', ');
    let after: unknown[] | null = null;
    let rows = 0;
    for (;;) {
      const where: string = after ? `WHERE (${keyList}) > (${key.map((_, i) => `$${i + 1}`).join(', ')})` : '';
      const { rows: batch } = await source.query<{ json: string | null; last: string | null; n: number }>(
        `SELECT json_agg(s)::text AS json, (array_agg(json_build_array(${keyList})::text))[count(*)::int] AS last,
                count(*)::int AS n
           FROM (SELECT * FROM (${select}) s ${where} ORDER BY ${keyList} LIMIT ${batchRows}) s`,
        after ?? [],
      );
      const { json, last, n } = batch[0]!;
      if (!json || n === 0 || !last) return rows;
      await target.query(
        `INSERT INTO ${q(into)} (${list}) OVERRIDING SYSTEM VALUE
         SELECT ${list} FROM json_populate_recordset(NULL::${q(into)}, $1::json)`,
        [json],
      );
      rows += n;
      onRows(rows);
      after = JSON.parse(last) as unknown[];
      if (n < batchRows) return rows;
    }
  };

/** Sets each serial/identity sequence past the largest copied value, so the target's next insert gets a new id. */
async function resetSequences(tx: Queryable, table: string, columns: readonly ColumnInfo[]): Promise<void> {
  for (const column of columns.filter((c) => c.sequenced)) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${q(column.name)}) FROM ${q(table)}), 0) + 1, false)`,
      [table, column.name],
    );
  }
}

/**
 * A replaced table's indexes other than its constraints' (primary key, unique) are dropped before the load and built
 * again after it: one sorted build per index is several times faster than updating twelve indexes (two of them GIN)
 * row by row. The table was emptied in this transaction, which holds it exclusively, so nobody sees it without them,
 * and a failure rolls the drop back with everything else.
 */
/**
 * Likewise a replaced table's foreign keys to its parents: checked row by row while loading they cost as much as the
 * load; added back after it, PostgreSQL validates each with one join. A row without its parent fails that, and the
 * copy with it.
 */
async function dropForeignKeys(tx: Queryable, table: string): Promise<string[]> {
  const { rows } = await tx.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`,
    [table],
  );
  for (const row of rows) await tx.query(`ALTER TABLE ${q(table)} DROP CONSTRAINT ${q(row.name)}`);
  return rows.map((row) => `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(row.name)} ${row.definition}`);
}

async function dropPlainIndexes(tx: Queryable, table: string): Promise<string[]> {
  const { rows } = await tx.query<{ name: string; definition: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [table],
  );
  for (const row of rows) await tx.query(`DROP INDEX ${q(row.name)}`);
  return rows.map((row) => row.definition);
}

/**
 * Everything written on the target, in the one transaction the caller holds: the replaced tables emptied together
 * (TRUNCATE names them all, so a foreign key from a table not on the copy fails the copy instead of emptying it), then
 * each table loaded in copy order, then the sequences. Any failure throws and the caller rolls all of it back.
 */
async function writeTarget(
  tx: Queryable,
  source: Queryable,
  load: Loader,
  options: RunCopyOptions,
): Promise<Record<string, number>> {
  const copied: Record<string, number> = {};
  const plans = [];
  for (const table of options.tables) {
    const targetColumns = await columnsOf(tx, table.name);
    const sourceNames = new Set((await columnsOf(source, table.name)).map((c) => c.name));
    const columns = targetColumns.filter((c) => sourceNames.has(c.name));
    const missingKey = table.key.find((k) => !columns.some((c) => c.name === k));
    if (missingKey) throw new Error(`${table.name}.${missingKey} is missing on one of the databases`);
    plans.push({ table, columns });
  }
  const emptied = options.tables
    .filter((table) => table.strategy === 'replace')
    .flatMap((table) => [table.name, ...(table.alsoEmpties ?? [])]);
  if (emptied.length > 0) await tx.query(`TRUNCATE ${emptied.map(q).join(', ')}`);
  // Memory for the index builds below, for this transaction only.
  await tx.query(`SET LOCAL maintenance_work_mem = '256MB'`);

  for (const { table, columns } of plans) {
    options.onTableStart?.(table.name);
    const names = columns.map((c) => c.name);
    const select = sourceSelect(table, names, options.mask);
    const onRows = (rows: number) => options.onRows(table.name, rows);
    if (table.strategy === 'replace') {
      const indexes = await dropPlainIndexes(tx, table.name);
      const foreignKeys = await dropForeignKeys(tx, table.name);
      let started = performance.now();
      copied[table.name] = await load(select, table.name, names, table.key, onRows);
      const phase = (name: 'load' | 'constraints' | 'indexes') => {
        options.onPhase?.(table.name, name, performance.now() - started);
        started = performance.now();
      };
      phase('load');
      for (const definition of foreignKeys) await tx.query(definition);
      phase('constraints');
      for (const definition of indexes) await tx.query(definition);
      phase('indexes');
    } else {
      const stage = `copy_stage_${table.name}`;
      const list = names.map(q).join(', ');
      await tx.query(`CREATE TEMP TABLE ${q(stage)} ON COMMIT DROP AS SELECT ${list} FROM ${q(table.name)} WITH NO DATA`);
      copied[table.name] = await load(select, stage, names, table.key, onRows);
      const keyMatch = table.key.map((k) => `s.${q(k)} = t.${q(k)}`).join(' AND ');
      await tx.query(`DELETE FROM ${q(table.name)} t WHERE NOT EXISTS (SELECT 1 FROM ${q(stage)} s WHERE ${keyMatch})`);
      const updates = names.filter((n) => !table.key.includes(n)).map((n) => `${q(n)} = EXCLUDED.${q(n)}`);
      await tx.query(
        `INSERT INTO ${q(table.name)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM ${q(stage)}
         ON CONFLICT (${table.key.map(q).join(', ')}) DO UPDATE SET ${updates.join(', ')}`,
      );
    }
    await resetSequences(tx, table.name, columns);
  }
  return copied;
}

function wrapClient(client: pg.Client): Queryable {
  return {
    query: async <T>(sql: string, params?: readonly unknown[]) => ({
      rows: (await client.query(sql, params ? [...params] : undefined)).rows as T[],
    }),
    exec: async (sql) => {
      await client.query(sql);
    },
  };
}

async function connect(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  // A connection lost mid-copy fails the query in flight; without a listener the 'error' event would crash the API.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** PostgreSQL at both ends: the source read in one snapshot, piped through COPY into the target's transaction. */
async function runStreamed(source: pg.ClientConfig, target: pg.ClientConfig, options: RunCopyOptions) {
  const reader = await connect(source);
  let writer: pg.Client | undefined;
  try {
    writer = await connect(target);
    await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await writer.query('BEGIN');
    try {
      const copied = await writeTarget(wrapClient(writer), wrapClient(reader), streamLoader(reader, writer), options);
      await writer.query('COMMIT');
      return copied;
    } catch (error) {
      await writer.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await reader.end().catch(() => undefined);
    await writer?.end().catch(() => undefined);
  }
}

/**
 * Copies the tables from source to target. The target changes in one transaction: when anything fails (a constraint,
 * a lost connection, a trigger), nothing of the copy stays and the error is thrown. Resolves to rows copied per table.
 */
export async function runCopy(options: RunCopyOptions): Promise<Record<string, number>> {
  const { source, target } = options;
  if (source.engine === 'postgres' && target.engine === 'postgres') {
    return runStreamed(source.clientConfig, target.clientConfig, options);
  }
  const batchRows = options.batchRows ?? 2000;
  return target.db.transaction((tx) => writeTarget(tx, source.db, batchLoader(source.db, tx, batchRows), options));
}
