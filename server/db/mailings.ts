import type { ListWindow, Paged } from '../../src/contract/lists';
import type { Mailing, MailingInput, MailingOptions, Segment } from '../../src/contract/mailing';
import { writeAudit, type Actor } from './audit';
import type { Db, Queryable } from './db';
import { pageOf } from './paging';
import { iso, SqlParams } from './sql';

export const AUDIT_ENTITY_MAILING = 'mailing';

export interface SegmentMember {
  email: string;
  first_name: string;
  last_name: string;
}

/**
 * The members of a segment, one per address (lower-cased; a parker with two vehicles or two locations is one
 * recipient), opted-out addresses left out. `select` is what each row yields; the caller adds ORDER BY/LIMIT.
 */
function segmentQuery(segment: Segment, params: SqlParams): string {
  if (segment.kind === 'parkers') {
    return `SELECT DISTINCT ON (lower(p.email)) lower(p.email) AS email, p.fname AS first_name, p.lname AS last_name
              FROM monthly_parkers p
             WHERE p.email IS NOT NULL
               AND p.location_id = ANY(${params.add(segment.locationIds)}::int[])
               AND p.parker_status = ${params.add(segment.parkerStatus)}
               AND NOT EXISTS (SELECT 1 FROM mailing_opt_outs o WHERE o.email = lower(p.email))
             ORDER BY lower(p.email), p.monthly_parker_id`;
  }
  // Staff have a display name, not first and last: the first word is the first name.
  return `SELECT u.email,
                 coalesce(split_part(btrim(u.display_name), ' ', 1), '') AS first_name,
                 coalesce(btrim(substr(btrim(u.display_name), length(split_part(btrim(u.display_name), ' ', 1)) + 1)), '') AS last_name
            FROM users u
           WHERE u.status = 'active' AND u.role_id = ANY(${params.add(segment.roleIds)}::int[])
             AND NOT EXISTS (SELECT 1 FROM mailing_opt_outs o WHERE o.email = u.email)`;
}

/** Addresses of the segment that opted out (counted for the preview, never mailed). */
function optedOutQuery(segment: Segment, params: SqlParams): string {
  if (segment.kind === 'parkers') {
    return `SELECT count(DISTINCT lower(p.email))::int AS n FROM monthly_parkers p
             WHERE p.email IS NOT NULL AND p.location_id = ANY(${params.add(segment.locationIds)}::int[])
               AND p.parker_status = ${params.add(segment.parkerStatus)}
               AND EXISTS (SELECT 1 FROM mailing_opt_outs o WHERE o.email = lower(p.email))`;
  }
  return `SELECT count(*)::int AS n FROM users u
           WHERE u.status = 'active' AND u.role_id = ANY(${params.add(segment.roleIds)}::int[])
             AND EXISTS (SELECT 1 FROM mailing_opt_outs o WHERE o.email = u.email)`;
}

export async function previewSegment(
  db: Queryable,
  segment: Segment,
  sampleSize: number,
): Promise<{ count: number; optedOut: number; samples: SegmentMember[] }> {
  const counted = new SqlParams();
  const sampled = new SqlParams();
  const skipped = new SqlParams();
  const [count, samples, optedOut] = await Promise.all([
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${segmentQuery(segment, counted)}) AS members`, counted.values),
    db.query<SegmentMember>(
      `SELECT * FROM (${segmentQuery(segment, sampled)}) AS members ORDER BY email LIMIT ${sampled.add(sampleSize)}`,
      sampled.values,
    ),
    db.query<{ n: number }>(optedOutQuery(segment, skipped), skipped.values),
  ]);
  return { count: count.rows[0]?.n ?? 0, optedOut: optedOut.rows[0]?.n ?? 0, samples: samples.rows };
}

/**
 * Opts out the segment's members after the first `keep` by address, as their unsubscribing would (the development
 * stack's POST /dev/mailing-opt-outs: a test sizes a segment exactly). Returns how many addresses were added.
 */
export async function optOutSegmentBeyond(db: Queryable, segment: Segment, keep: number): Promise<number> {
  const params = new SqlParams();
  const { rows } = await db.query<{ n: number }>(
    `WITH added AS (
       INSERT INTO mailing_opt_outs (email)
       SELECT email FROM (${segmentQuery(segment, params)}) AS members ORDER BY email OFFSET ${params.add(keep)}
       ON CONFLICT (email) DO NOTHING
       RETURNING 1)
     SELECT count(*)::int AS n FROM added`,
    params.values,
  );
  return rows[0]?.n ?? 0;
}

/** Ids the segment names that do not exist, by field, for a 400. */
export async function unknownSegmentIds(db: Queryable, segment: Segment): Promise<Record<string, string>> {
  // Enforcement Lite locations are another offering: not among Mailing's locations, so not addressable here either.
  const [table, key, field, offered] =
    segment.kind === 'parkers'
      ? ['locations', 'location_id', 'segment.locationIds', " AND t.offering = 'full'"]
      : ['roles', 'role_id', 'segment.roleIds', ''];
  const ids = segment.kind === 'parkers' ? segment.locationIds : segment.roleIds;
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM unnest($1::int[]) AS wanted(id) WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.${key} = wanted.id${offered})`,
    [ids],
  );
  if (rows.length === 0) return {};
  return { [field]: `No ${segment.kind === 'parkers' ? 'location' : 'role'} with id ${rows.map((row) => row.id).join(', ')}.` };
}

/**
 * The segment's choices. Locations are the full offering's (Enforcement Lite's are another product, edited in its own
 * section), and names sort as people read them: `lower(name)`, so "Union …" comes before "UX …" whatever the
 * database's collation (PGlite's is C, where every capital sorts first).
 */
export async function mailingOptions(db: Queryable): Promise<MailingOptions> {
  const [locations, statuses, roles] = await Promise.all([
    db.query<{ location_id: number; name: string }>(
      "SELECT location_id, name FROM locations WHERE offering = 'full' ORDER BY lower(name), location_id",
    ),
    db.query<{ parker_status: string }>('SELECT DISTINCT parker_status FROM monthly_parkers ORDER BY parker_status'),
    db.query<{ role_id: number; name: string }>('SELECT role_id, name FROM roles ORDER BY lower(name), role_id'),
  ]);
  return {
    locations: locations.rows,
    parkerStatuses: statuses.rows.map((row) => row.parker_status),
    roles: roles.rows,
  };
}

export async function segmentLabel(db: Queryable, segment: Segment): Promise<string> {
  if (segment.kind === 'parkers') {
    const { rows } = await db.query<{ name: string }>(
      'SELECT name FROM locations WHERE location_id = ANY($1::int[]) ORDER BY lower(name), location_id',
      [segment.locationIds],
    );
    return `${segment.parkerStatus} monthly parkers at ${rows.map((row) => row.name).join(', ')}`;
  }
  const { rows } = await db.query<{ name: string }>('SELECT name FROM roles WHERE role_id = ANY($1::int[]) ORDER BY lower(name), role_id', [
    segment.roleIds,
  ]);
  return `Staff with role ${rows.map((row) => row.name).join(', ')}`;
}

const MAILING_COLUMNS = `m.mailing_id::float8 AS mailing_id, m.subject, m.segment, m.state, m.recipient_count,
  m.created_by_email, ${iso('m.created_at')} AS created_at,
  CASE WHEN m.finished_at IS NULL THEN NULL ELSE ${iso('m.finished_at')} END AS finished_at,
  c.sent, c.failed, c.skipped, c.left_over AS "left"`;
const MAILING_COUNTS = `CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE r.state = 'sent')::int AS sent,
         count(*) FILTER (WHERE r.state = 'failed')::int AS failed,
         count(*) FILTER (WHERE r.state = 'skipped')::int AS skipped,
         count(*) FILTER (WHERE r.state IN ('pending', 'sending'))::int AS left_over
    FROM mailing_recipients r WHERE r.mailing_id = m.mailing_id) AS c`;

type MailingRow = Omit<Mailing, 'segment_label'>;

async function labelled(db: Queryable, rows: MailingRow[]): Promise<Mailing[]> {
  return Promise.all(rows.map(async (row) => ({ ...row, segment_label: await segmentLabel(db, row.segment) })));
}

export async function listMailings(db: Queryable, window: ListWindow): Promise<Paged<Mailing>> {
  const page = await pageOf<MailingRow>(db, {
    select: MAILING_COLUMNS,
    from: `FROM mailings m ${MAILING_COUNTS}`,
    orderBy: 'm.mailing_id DESC',
    params: new SqlParams(),
    window,
  });
  return { ...page, rows: await labelled(db, page.rows) };
}

export async function findMailing(db: Queryable, mailingId: number): Promise<Mailing | null> {
  const { rows } = await db.query<MailingRow>(
    `SELECT ${MAILING_COLUMNS} FROM mailings m ${MAILING_COUNTS} WHERE m.mailing_id = $1`,
    [mailingId],
  );
  return rows[0] ? (await labelled(db, rows))[0]! : null;
}

class NoRecipients extends Error {}

export type CreateMailingResult = { kind: 'ok'; mailing: Mailing } | { kind: 'noRecipients' };

/**
 * Queues a mailing: the mailing row and one row per recipient (ids 1…n in address order) in one transaction with its
 * audit row, so the job the sender finds is complete or absent. The segment is resolved now: whoever joins it later
 * is not in this mailing; whoever opts out meanwhile is skipped when their turn comes.
 */
export async function createMailing(
  db: Db,
  input: MailingInput,
  actor: Actor,
  ratePerSecond: number,
): Promise<CreateMailingResult> {
  const created = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ mailing_id: number }>(
      `INSERT INTO mailings (subject, body_markdown, segment, rate_per_second, recipient_count, created_by, created_by_email)
       VALUES ($1, $2, $3::jsonb, $4, 0, $5, $6) RETURNING mailing_id::float8 AS mailing_id`,
      [input.subject, input.body, JSON.stringify(input.segment), ratePerSecond, actor.userId, actor.email],
    );
    const mailingId = rows[0]!.mailing_id;
    const params = new SqlParams();
    const members = segmentQuery(input.segment, params);
    const inserted = await tx.query<{ n: number }>(
      `WITH added AS (
         INSERT INTO mailing_recipients (mailing_id, recipient_id, email, first_name, last_name)
         SELECT ${params.add(mailingId)}, row_number() OVER (ORDER BY email), email, first_name, last_name
           FROM (${members}) AS members
         RETURNING 1)
       SELECT count(*)::int AS n FROM added`,
      params.values,
    );
    const count = inserted.rows[0]?.n ?? 0;
    // Nothing to send: roll the mailing row back rather than keep an empty job.
    if (count === 0) throw new NoRecipients();
    await tx.query('UPDATE mailings SET recipient_count = $2 WHERE mailing_id = $1', [mailingId, count]);
    await writeAudit(tx, {
      actor,
      entity: AUDIT_ENTITY_MAILING,
      entityId: mailingId,
      action: 'send',
      before: null,
      after: { subject: input.subject, segment: input.segment, recipient_count: count },
    });
    return mailingId;
  }).catch((error: unknown) => {
    if (error instanceof NoRecipients) return null;
    throw error;
  });
  if (created === null) return { kind: 'noRecipients' };
  return { kind: 'ok', mailing: (await findMailing(db, created))! };
}
