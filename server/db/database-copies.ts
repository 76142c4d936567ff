import type { CopyTableProgress, DatabaseCopy } from '../../src/contract/database-copy';
import { writeAudit } from './audit';
import type { Db, Queryable } from './db';

/** The copy records (migration 012): who copied what, when, how many rows, and how it ended. */
export interface CopyActor {
  userId: number;
  email: string;
}

interface CopyRow {
  copy_id: string | number;
  source: string;
  target: string;
  masked: boolean;
  status: DatabaseCopy['status'];
  tables: CopyTableProgress[];
  rows_copied: string | number;
  error: string | null;
  started_by_email: string;
  started_at: Date | string;
  finished_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const toCopy = (row: CopyRow): DatabaseCopy => ({
  copy_id: Number(row.copy_id),
  source: row.source,
  target: row.target,
  masked: row.masked,
  status: row.status,
  tables: row.tables,
  rows_copied: Number(row.rows_copied),
  error: row.error,
  started_by_email: row.started_by_email,
  started_at: iso(row.started_at),
  finished_at: row.finished_at === null ? null : iso(row.finished_at),
});

const COLUMNS =
  'copy_id, source, target, masked, status, tables, rows_copied, error, started_by_email, started_at, finished_at';

/** PostgreSQL's unique_violation: here, the partial index that allows one running copy. */
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** Records a running copy, or answers `busy` when another copy is running (in this process or any other). */
export async function startCopyRecord(
  db: Db,
  actor: CopyActor,
  copy: { source: string; target: string; masked: boolean; tables: CopyTableProgress[] },
  startedAt: Date,
): Promise<{ kind: 'ok'; copy: DatabaseCopy } | { kind: 'busy'; running: DatabaseCopy | undefined }> {
  try {
    const started = await db.transaction(async (tx) => {
      const { rows } = await tx.query<CopyRow>(
        `INSERT INTO database_copies (source, target, masked, tables, started_by, started_by_email, started_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7) RETURNING ${COLUMNS}`,
        [copy.source, copy.target, copy.masked, JSON.stringify(copy.tables), actor.userId, actor.email, startedAt],
      );
      const record = toCopy(rows[0]!);
      const after = { source: record.source, target: record.target, masked: record.masked, tables: copy.tables.map((t) => t.table) };
      await writeAudit(tx, { actor, entity: 'database_copy', entityId: record.copy_id, action: 'start', before: null, after });
      return record;
    });
    return { kind: 'ok', copy: started };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const { rows } = await db.query<CopyRow>(`SELECT ${COLUMNS} FROM database_copies WHERE status = 'running'`);
    return { kind: 'busy', running: rows[0] ? toCopy(rows[0]) : undefined };
  }
}

export async function finishCopyRecord(
  db: Queryable,
  copyId: number,
  outcome: { status: 'done' | 'failed'; tables: CopyTableProgress[]; error: string | null },
  finishedAt: Date,
): Promise<void> {
  const rows = outcome.status === 'done' ? outcome.tables.reduce((sum, table) => sum + table.rows, 0) : 0;
  await db.query(
    `UPDATE database_copies SET status = $2, tables = $3::jsonb, rows_copied = $4, error = $5, finished_at = $6
      WHERE copy_id = $1`,
    [copyId, outcome.status, JSON.stringify(outcome.tables), rows, outcome.error, finishedAt],
  );
}

/**
 * At start-up: a copy still "running" belonged to a process that stopped; its target transaction died with the
 * connection (rolled back), so the target is as it was.
 */
export async function failInterruptedCopies(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ copy_id: number }>(
    `UPDATE database_copies
        SET status = 'failed', finished_at = now(),
            error = 'Interrupted: the API stopped during the copy. The target was left as it was.'
      WHERE status = 'running' RETURNING copy_id`,
  );
  return rows.length;
}

/** Newest first; the list is short-lived history, so the last 50 are enough on screen. */
export async function listCopyRecords(db: Queryable, limit = 50): Promise<DatabaseCopy[]> {
  const { rows } = await db.query<CopyRow>(
    `SELECT ${COLUMNS} FROM database_copies ORDER BY started_at DESC, copy_id DESC LIMIT $1`,
    [limit],
  );
  return rows.map(toCopy);
}

export async function findCopyRecord(db: Queryable, copyId: number): Promise<DatabaseCopy | undefined> {
  const { rows } = await db.query<CopyRow>(`SELECT ${COLUMNS} FROM database_copies WHERE copy_id = $1`, [copyId]);
  return rows[0] ? toCopy(rows[0]) : undefined;
}
