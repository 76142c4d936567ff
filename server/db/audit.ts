import type { AuditEntry } from '../../src/contract/lists';
import type { Queryable } from './db';
import { iso } from './sql';

/** Who made a change: the signed-in staff member, or null for the system (seeds, migrations). */
export interface Actor {
  userId: number;
  email: string;
}

export type AuditAction = 'create' | 'update' | 'activate' | 'deactivate' | 'delete' | (string & {});

/**
 * Writes one audit row. Callers pass the transaction that makes the change (`tx`), so the row commits with the change
 * or not at all: a failed change leaves no audit row, and no audit row exists without its change.
 */
export async function writeAudit(
  tx: Queryable,
  entry: {
    actor: Actor | null;
    entity: string;
    entityId: string | number;
    action: AuditAction;
    before: object | null;
    after: object | null;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO audit_log (actor_user_id, actor_email, entity, entity_id, action, before, after)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
    [
      entry.actor?.userId ?? null,
      entry.actor?.email ?? null,
      entry.entity,
      String(entry.entityId),
      entry.action,
      entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === null ? null : JSON.stringify(entry.after),
    ],
  );
}

/** Fields that change on every write and say nothing to a reader of the History panel. */
const BOOKKEEPING_FIELDS = new Set(['version', 'updated_at', 'updated_by', 'created_at']);

function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...fields]
    .filter((field) => !BOOKKEEPING_FIELDS.has(field))
    .filter((field) => JSON.stringify(before?.[field] ?? null) !== JSON.stringify(after?.[field] ?? null))
    .map((field) => ({ field, before: before?.[field] ?? null, after: after?.[field] ?? null }));
}

/** A record's History panel: newest first, each entry with the fields it changed. */
export async function listHistory(db: Queryable, entity: string, entityId: string | number): Promise<AuditEntry[]> {
  const { rows } = await db.query<{
    audit_id: number;
    at: string;
    actor_email: string | null;
    actor_name: string | null;
    action: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>(
    `SELECT a.audit_id::float8 AS audit_id,
            ${iso('a.at')} AS at,
            a.actor_email, u.display_name AS actor_name, a.action, a.before, a.after
       FROM audit_log a LEFT JOIN users u ON u.user_id = a.actor_user_id
      WHERE a.entity = $1 AND a.entity_id = $2
      ORDER BY a.audit_id DESC
      LIMIT 500`,
    [entity, String(entityId)],
  );
  return rows.map((row) => ({
    audit_id: row.audit_id,
    at: row.at,
    actor: row.actor_email === null ? null : { email: row.actor_email, name: row.actor_name },
    action: row.action,
    changes: changedFields(row.before, row.after),
  }));
}

/** The newest audit entry of a record: who changed it last and when (the 409 of a stale edit says so). */
export async function lastChange(db: Queryable, entity: string, entityId: string | number) {
  const { rows } = await db.query<{ at: string; actor_email: string | null; actor_name: string | null }>(
    `SELECT ${iso('a.at')} AS at, a.actor_email,
            u.display_name AS actor_name
       FROM audit_log a LEFT JOIN users u ON u.user_id = a.actor_user_id
      WHERE a.entity = $1 AND a.entity_id = $2
      ORDER BY a.audit_id DESC LIMIT 1`,
    [entity, String(entityId)],
  );
  const row = rows[0];
  if (!row) return { changedAt: null, changedBy: null };
  return {
    changedAt: row.at,
    changedBy: row.actor_email === null ? null : { email: row.actor_email, name: row.actor_name },
  };
}
