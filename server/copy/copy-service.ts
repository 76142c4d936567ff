import type {
  CopyRequest,
  CopySample,
  CopyTableName,
  CopyTableProgress,
  DatabaseCopy,
} from '../../src/contract/database-copy';
import type { Db } from '../db/db';
import { finishCopyRecord, findCopyRecord, listCopyRecords, startCopyRecord, type CopyActor } from '../db/database-copies';
import type { CopyDatabases } from './copy-databases';
import { runCopy, type CopyEnd } from './copy-engine';
import { COPY_TABLES, copyPlan, copyTable, quoteIdent as q } from './tables';

export type StartResult =
  | { kind: 'ok'; copy: DatabaseCopy }
  | { kind: 'invalid'; fieldErrors: Record<string, string> }
  | { kind: 'productionTarget'; target: string }
  | { kind: 'busy'; running: DatabaseCopy | undefined }
  | { kind: 'unreachable'; database: string; message: string };

/** A configured database that cannot be reached or read: said in words (409), not a server fault. */
export class UnreachableDatabase extends Error {
  override name = 'UnreachableDatabase';
  constructor(readonly database: string, cause: unknown) {
    super(`Could not read database ${database}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

async function reading<T>(database: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new UnreachableDatabase(database, error);
  }
}

/** Rows per copyable table, in one round trip; a table the database lacks (an older schema) is left out. */
async function countRows(end: CopyEnd): Promise<Partial<Record<CopyTableName, number>>> {
  const { rows: present } = await end.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
  );
  const names = new Set(present.map((row) => row.name));
  const tables = COPY_TABLES.filter((table) => names.has(table.name));
  if (tables.length === 0) return {};
  const { rows } = await end.db.query<Record<string, string | number>>(
    `SELECT ${tables.map((t) => `(SELECT count(*) FROM ${q(t.name)}) AS ${q(t.name)}`).join(', ')}`,
  );
  return Object.fromEntries(tables.map((t) => [t.name, Number(rows[0]![t.name])]));
}

/**
 * Database Copy as a server job: `start` records the copy (one at a time, guarded by the database) and runs it in the
 * background; its progress is kept here while it runs and in its record once it ends, so a reload finds either.
 */
export function createCopyService(deps: {
  db: Db;
  databases: CopyDatabases;
  now: () => Date;
  logError: (message: string, error: unknown) => void;
}) {
  const live = new Map<number, DatabaseCopy>();
  const jobs = new Set<Promise<void>>();

  async function counts(name: string) {
    const end = await reading(name, () => deps.databases.open(name));
    return end ? reading(name, () => countRows(end)) : undefined;
  }

  async function sample(name: string, table: CopyTableName): Promise<CopySample | undefined> {
    const end = await deps.databases.open(name);
    if (!end) return undefined;
    const info = copyTable(table);
    const { rows: present } = await end.db.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
      [table],
    );
    const have = new Set(present.map((row) => row.name));
    const columns = [...info.key, ...Object.keys(info.masks)].filter((column) => have.has(column));
    const { rows } = await end.db.query<Record<string, string | null>>(
      `SELECT ${columns.map((c) => `${q(c)}::text AS ${q(c)}`).join(', ')} FROM ${q(table)}
        ORDER BY ${info.key.map(q).join(', ')} LIMIT 5`,
    );
    return { database: name, table, columns, rows: rows.map((row) => columns.map((c) => row[c] ?? null)) };
  }

  async function execute(copy: DatabaseCopy, source: CopyEnd, target: CopyEnd) {
    const progress = (table: CopyTableName) => copy.tables.find((t) => t.table === table)!;
    let current: CopyTableProgress | undefined;
    let outcome: { status: 'done' | 'failed'; error: string | null };
    try {
      await runCopy({
        source,
        target,
        tables: copyPlan(copy.tables.map((t) => t.table)),
        mask: copy.masked,
        onTableStart: (table) => {
          if (current) current.status = 'done';
          current = progress(table);
          current.status = 'copying';
        },
        onRows: (table, rows) => {
          progress(table).rows = rows;
        },
      });
      for (const table of copy.tables) table.status = 'done';
      outcome = { status: 'done', error: null };
    } catch (error) {
      for (const table of copy.tables) {
        table.status = table === current ? 'failed' : table.status === 'waiting' ? 'waiting' : 'rolled_back';
      }
      const message = error instanceof Error ? error.message : String(error);
      outcome = { status: 'failed', error: `${message}. Nothing was changed on ${copy.target}.` };
    }
    const finishedAt = deps.now();
    try {
      await finishCopyRecord(deps.db, copy.copy_id, { ...outcome, tables: copy.tables }, finishedAt);
    } catch (error) {
      deps.logError(`database copy ${copy.copy_id}: could not record its outcome`, error);
    }
    live.delete(copy.copy_id);
  }

  async function start(actor: CopyActor, request: CopyRequest): Promise<StartResult> {
    const fieldErrors: Record<string, string> = {};
    const source = await deps.databases.open(request.source);
    const target = await deps.databases.open(request.target);
    if (!source) fieldErrors.source = `There is no database named "${request.source}".`;
    if (!target) fieldErrors.target = `There is no database named "${request.target}".`;
    else if (request.target === request.source) fieldErrors.target = 'Choose a target other than the source.';
    if (target && request.confirm_target !== request.target) {
      fieldErrors.confirm_target = `Type the target's name, ${request.target}, to confirm.`;
    }
    if (!source || !target || Object.keys(fieldErrors).length > 0) return { kind: 'invalid', fieldErrors };
    const production = deps.databases.list().find((db) => db.name === request.target)?.production;
    if (production) return { kind: 'productionTarget', target: request.target };

    let totals: Awaited<ReturnType<typeof countRows>>;
    try {
      // Reading both ends first: an unreachable target is said now, not after the copy is recorded.
      [totals] = await Promise.all([countRows(source), countRows(target)]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'unreachable', database: `${request.source} or ${request.target}`, message };
    }
    const tables: CopyTableProgress[] = copyPlan(request.tables).map((table) => ({
      table: table.name,
      total: totals[table.name] ?? 0,
      rows: 0,
      status: 'waiting',
    }));
    const started = await startCopyRecord(
      deps.db,
      actor,
      { source: request.source, target: request.target, masked: request.mask, tables },
      deps.now(),
    );
    if (started.kind === 'busy') return { kind: 'busy', running: started.running && (live.get(started.running.copy_id) ?? started.running) };
    const copy = started.copy;
    live.set(copy.copy_id, copy);
    const job = execute(copy, source, target).catch((error) => deps.logError('database copy failed', error));
    jobs.add(job);
    void job.finally(() => jobs.delete(job));
    return { kind: 'ok', copy: structuredClone(copy) };
  }

  return {
    databases: () => deps.databases.list(),
    counts,
    sample,
    start,
    /** A running copy's live progress, or the record of a finished one. */
    find: async (copyId: number) => {
      const running = live.get(copyId);
      return running ? structuredClone(running) : findCopyRecord(deps.db, copyId);
    },
    list: async () => (await listCopyRecords(deps.db)).map((copy) => structuredClone(live.get(copy.copy_id) ?? copy)),
    /** Resolves when no copy runs in this process (tests, shutdown). */
    idle: async () => {
      while (jobs.size > 0) await Promise.all([...jobs]);
    },
  };
}
export type CopyService = ReturnType<typeof createCopyService>;
