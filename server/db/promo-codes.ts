import { randomInt } from 'node:crypto';
import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import type { PromoCode, PromoCodeInput, PromoCodeListQuery } from '../../src/contract/promo-codes';
import type { LocationScope } from '../../src/permissions/scope';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { keysetBatches, pageOf } from './paging';
import { iso, likeFragment, SqlParams } from './sql';

const LOCATION_IDS = `ARRAY(SELECT pl.location_id FROM promo_code_locations pl
  WHERE pl.promo_code_id = p.promo_code_id ORDER BY pl.location_id)`;
const COLUMNS = `p.promo_code_id, p.code, p.discount_type, p.discount_value, p.multi_use, p.total_cap, p.per_plate_cap,
  p.uses, CASE WHEN p.total_cap IS NULL THEN NULL ELSE p.total_cap - p.uses END AS remaining,
  ${iso('p.valid_from')} AS valid_from, ${iso('p.valid_to')} AS valid_to, p.active, ${LOCATION_IDS} AS location_ids,
  p.version, ${iso('p.updated_at')} AS updated_at`;

const SORT_EXPRESSIONS = {
  code: 'lower(p.code)',
  valid_from: 'p.valid_from',
  valid_to: 'p.valid_to',
  uses: 'p.uses',
  remaining: 'coalesce(p.total_cap - p.uses, 2147483647)',
} as const;

/** Letters and digits nobody misreads on a receipt (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function generateCode(length = 8): string {
  return Array.from({ length }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/**
 * Spec §5: a code of several locations is the user's to see only when all of them are in their scope (as the detail
 * route checks with `locationsLacking`); a code at 1 and 3 is not listed for someone who holds promo codes at 3 only.
 */
function inScopeCondition(scope: LocationScope, params: SqlParams): string | null {
  if (scope.all) return null;
  return `NOT EXISTS (SELECT 1 FROM promo_code_locations pl WHERE pl.promo_code_id = p.promo_code_id
                       AND pl.location_id <> ALL(${params.add(scope.ids)}::int[]))`;
}

function filtered(scope: LocationScope, query: PromoCodeListQuery, now: Date) {
  const params = new SqlParams();
  const conditions: string[] = [];
  const scoped = inScopeCondition(scope, params);
  if (scoped) conditions.push(scoped);
  if (query.q) conditions.push(`p.code ILIKE ${params.add(likeFragment(query.q))}`);
  if (query.locationId) {
    conditions.push(`EXISTS (SELECT 1 FROM promo_code_locations pl WHERE pl.promo_code_id = p.promo_code_id
                              AND pl.location_id = ${params.add(query.locationId)}::int)`);
  }
  if (query.state) {
    // Only the states that compare with the clock send it: an unused parameter has no type PostgreSQL can infer.
    const at = ['active', 'scheduled', 'expired'].includes(query.state) ? `${params.add(now.toISOString())}::timestamptz` : '';
    const usable = `(p.total_cap IS NULL OR p.uses < p.total_cap)`;
    conditions.push(
      {
        active: `p.active AND p.valid_from <= ${at} AND p.valid_to > ${at} AND ${usable}`,
        inactive: 'NOT p.active',
        scheduled: `p.active AND p.valid_from > ${at}`,
        expired: `p.active AND p.valid_to <= ${at}`,
        used_up: `p.active AND NOT ${usable}`,
      }[query.state],
    );
  }
  const from = `FROM promo_codes p WHERE ${conditions.length ? conditions.join(' AND ') : 'true'}`;
  return { params, from, sortExpr: SORT_EXPRESSIONS[query.sort ?? 'code'], direction: query.dir ?? 'asc' };
}

export function listPromoCodesPage(
  db: Queryable,
  scope: LocationScope,
  query: PromoCodeListQuery,
  window: ListWindow,
  now: Date,
): Promise<Paged<PromoCode>> {
  const { params, from, sortExpr, direction } = filtered(scope, query, now);
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return pageOf<PromoCode>(db, { select: COLUMNS, from, orderBy: `${sortExpr} ${order}, p.promo_code_id ${order}`, params, window });
}

export function promoCodeBatches(db: Queryable, scope: LocationScope, query: PromoCodeListQuery, now: Date) {
  const { params, from, sortExpr, direction } = filtered(scope, query, now);
  return keysetBatches<PromoCode & Record<string, unknown>>(db, {
    select: COLUMNS,
    from,
    params,
    sortExpr,
    sortAlias: 'sort_key',
    keyExpr: 'p.promo_code_id',
    keyAlias: 'row_key',
    direction,
    batchSize: 1000,
  });
}

export async function findPromoCode(db: Queryable, promoCodeId: number): Promise<PromoCode | undefined> {
  const { rows } = await db.query<PromoCode>(`SELECT ${COLUMNS} FROM promo_codes p WHERE p.promo_code_id = $1`, [promoCodeId]);
  return rows[0];
}

export type PromoCodeWriteResult =
  | { kind: 'ok'; promoCode: PromoCode }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'duplicateCode'; code: string }
  | { kind: 'unknownLocations'; ids: number[] };

/** What the audit trail keeps of a code: what a person edits, and the version it moved to. */
async function auditedState(tx: Queryable, promoCodeId: number, lock: boolean) {
  const { rows } = await tx.query<Record<string, unknown> & { version: number; location_ids: number[] }>(
    `SELECT p.code, p.discount_type, p.discount_value, p.multi_use, p.total_cap, p.per_plate_cap,
            ${iso('p.valid_from')} AS valid_from, ${iso('p.valid_to')} AS valid_to, p.active, ${LOCATION_IDS} AS location_ids,
            p.version
       FROM promo_codes p WHERE p.promo_code_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [promoCodeId],
  );
  return rows[0];
}

async function unknownLocations(tx: Queryable, ids: number[]): Promise<number[]> {
  const { rows } = await tx.query<{ location_id: number }>('SELECT location_id FROM locations WHERE location_id = ANY($1::int[])', [ids]);
  const known = new Set(rows.map((row) => row.location_id));
  return ids.filter((id) => !known.has(id));
}

/** A single-use code is used once in all: its total cap is 1 whatever was sent. */
const totalCapOf = (input: PromoCodeInput) => (input.multi_use ? input.total_cap : 1);

async function setLocations(tx: Queryable, promoCodeId: number, ids: number[]) {
  await tx.query('DELETE FROM promo_code_locations WHERE promo_code_id = $1', [promoCodeId]);
  await tx.query(
    'INSERT INTO promo_code_locations (promo_code_id, location_id) SELECT $1, unnest($2::int[])',
    [promoCodeId, ids],
  );
}

export async function createPromoCode(tx: Queryable, actor: Actor, input: PromoCodeInput): Promise<PromoCodeWriteResult> {
  const unknown = await unknownLocations(tx, input.location_ids);
  if (unknown.length) return { kind: 'unknownLocations', ids: unknown };
  // A generated code that happens to exist is drawn again; a typed one is refused.
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = input.code || generateCode();
    const { rows } = await tx.query<{ promo_code_id: number }>(
      `INSERT INTO promo_codes (code, discount_type, discount_value, multi_use, total_cap, per_plate_cap, valid_from,
                                valid_to, active, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz, $9, $10, $10)
       ON CONFLICT DO NOTHING RETURNING promo_code_id`,
      [code, input.discount_type, input.discount_value, input.multi_use, totalCapOf(input), input.per_plate_cap,
        input.valid_from, input.valid_to, input.active, actor.userId],
    );
    const promoCodeId = rows[0]?.promo_code_id;
    if (promoCodeId === undefined) {
      if (input.code) return { kind: 'duplicateCode', code };
      continue;
    }
    await setLocations(tx, promoCodeId, input.location_ids);
    await writeAudit(tx, { actor, entity: 'promo_code', entityId: promoCodeId, action: 'create', before: null, after: (await auditedState(tx, promoCodeId, false))! });
    return { kind: 'ok', promoCode: (await findPromoCode(tx, promoCodeId))! };
  }
  throw new Error('Could not generate an unused promo code in 5 attempts.');
}

async function conflictOf(tx: Queryable, promoCodeId: number, currentVersion: number): Promise<PromoCodeWriteResult> {
  return { kind: 'conflict', conflict: { currentVersion, ...(await lastChange(tx, 'promo_code', promoCodeId)) } };
}

/**
 * The locations of a code; with `lock`, the code's row is locked in the caller's transaction, so the permission check
 * and the edit that follows see the same list.
 */
export async function promoCodeLocations(tx: Queryable, promoCodeId: number, lock = false): Promise<number[] | undefined> {
  const { rows } = await tx.query<{ location_ids: number[] }>(
    `SELECT ${LOCATION_IDS} AS location_ids FROM promo_codes p WHERE p.promo_code_id = $1${lock ? ' FOR UPDATE OF p' : ''}`,
    [promoCodeId],
  );
  return rows[0]?.location_ids;
}

export async function updatePromoCode(
  tx: Queryable,
  actor: Actor,
  promoCodeId: number,
  input: PromoCodeInput & { version: number },
): Promise<PromoCodeWriteResult> {
  const before = await auditedState(tx, promoCodeId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) return conflictOf(tx, promoCodeId, before.version);
  const unknown = await unknownLocations(tx, input.location_ids);
  if (unknown.length) return { kind: 'unknownLocations', ids: unknown };
  const code = input.code || String(before.code);
  const taken = await tx.query('SELECT 1 FROM promo_codes WHERE lower(code) = lower($1) AND promo_code_id <> $2', [code, promoCodeId]);
  if (taken.rows.length) return { kind: 'duplicateCode', code };
  await tx.query(
    `UPDATE promo_codes
        SET code = $2, discount_type = $3, discount_value = $4, multi_use = $5, total_cap = $6, per_plate_cap = $7,
            valid_from = $8::timestamptz, valid_to = $9::timestamptz, active = $10, version = version + 1,
            updated_at = now(), updated_by = $11
      WHERE promo_code_id = $1`,
    [promoCodeId, code, input.discount_type, input.discount_value, input.multi_use, totalCapOf(input),
      input.per_plate_cap, input.valid_from, input.valid_to, input.active, actor.userId],
  );
  await setLocations(tx, promoCodeId, input.location_ids);
  await writeAudit(tx, { actor, entity: 'promo_code', entityId: promoCodeId, action: 'update', before, after: (await auditedState(tx, promoCodeId, false))! });
  return { kind: 'ok', promoCode: (await findPromoCode(tx, promoCodeId))! };
}

export async function setPromoCodeActive(
  tx: Queryable,
  actor: Actor,
  promoCodeId: number,
  change: { active: boolean; version: number },
): Promise<PromoCodeWriteResult> {
  const before = await auditedState(tx, promoCodeId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== change.version) return conflictOf(tx, promoCodeId, before.version);
  await tx.query(
    'UPDATE promo_codes SET active = $2, version = version + 1, updated_at = now(), updated_by = $3 WHERE promo_code_id = $1',
    [promoCodeId, change.active, actor.userId],
  );
  await writeAudit(tx, {
    actor,
    entity: 'promo_code',
    entityId: promoCodeId,
    action: change.active ? 'activate' : 'deactivate',
    before,
    after: (await auditedState(tx, promoCodeId, false))!,
  });
  return { kind: 'ok', promoCode: (await findPromoCode(tx, promoCodeId))! };
}

