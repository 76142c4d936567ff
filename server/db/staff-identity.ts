import { writeAudit, type Actor } from './audit';
import type { Db, Queryable } from './db';
import { findStaffByEmail, findStaffByIdentityUid, type StaffMember } from './staff';

/** Who the identity provider says the caller is (server/auth verifies it; rows are bound to its uid). */
export interface VerifiedIdentity {
  email: string;
  /** The provider's account id: what a staff row is bound to (docs/api.md "Identity binding"). */
  uid: string;
  /** Whether the provider has confirmed that the caller controls the e-mail; unverified identities get nothing. */
  emailVerified: boolean;
}

/**
 * Creates the sign-in account of a seeded user at the identity provider (the Auth emulator in dev), or brings it in
 * line with the seed, and returns its uid. Implemented in server/auth (firebase-identities.ts).
 */
export type CreateIdentity = (account: {
  email: string;
  password: string;
  displayName?: string | undefined;
}) => Promise<{ uid: string }>;

/**
 * Staff rows are bound to an identity-provider account (its uid), not to an e-mail (docs/api.md "Identity binding").
 * The e-mail on a row is the invitation: the first verified sign-in with it claims the row. From then on only that
 * uid is that staff member; another account with the same e-mail (one deleted and signed up again) gets nothing
 * until an administrator re-links the row.
 */
export type StaffIdentity =
  | { kind: 'staff'; staff: StaffMember }
  /** The provider has not confirmed the e-mail: no staff row is looked at, so nothing can be learnt about it. */
  | { kind: 'unverified' }
  | { kind: 'not-staff' }
  /** The e-mail's row is bound to another account: a re-created identity, or someone else's. */
  | { kind: 'linked-to-another-identity' };

export const AUDIT_ENTITY_USER = 'user';
/** Audit actions of this module: a first sign-in claiming its row, and an administrator's re-link or unlink. */
export const AUDIT_CLAIM_IDENTITY = 'claim-identity';
export const AUDIT_RELINK_IDENTITY = 'relink-identity';

/**
 * The staff member an identity signs in as, claiming the row of its e-mail when none is bound yet (the permissions
 * lookup). A disabled row is not claimed: it stays free for whoever an administrator decides.
 */
export async function signInStaffIdentity(db: Db, identity: VerifiedIdentity, now: Date): Promise<StaffIdentity> {
  if (!identity.emailVerified) return { kind: 'unverified' };
  const bound = await findStaffByIdentityUid(db, identity.uid);
  if (bound) return { kind: 'staff', staff: bound };
  const invited = await findStaffByEmail(db, identity.email);
  if (!invited) return { kind: 'not-staff' };
  if (invited.identityUid !== null) return { kind: 'linked-to-another-identity' };
  if (invited.status === 'disabled') return { kind: 'staff', staff: invited };
  await db.transaction(async (tx) => {
    // `identity_uid IS NULL` makes two simultaneous first sign-ins safe: one claims, the other reads the result.
    const { rows } = await tx.query<{ user_id: number }>(
      `UPDATE users SET identity_uid = $2, identity_linked_at = $3, updated_at = now()
        WHERE user_id = $1 AND identity_uid IS NULL
        RETURNING user_id`,
      [invited.userId, identity.uid, now],
    );
    if (rows.length === 0) return;
    await writeAudit(tx, {
      actor: null,
      entity: AUDIT_ENTITY_USER,
      entityId: invited.userId,
      action: AUDIT_CLAIM_IDENTITY,
      before: { identity_uid: null },
      after: { identity_uid: identity.uid },
    });
  });
  const staff = await findStaffByIdentityUid(db, identity.uid);
  return staff ? { kind: 'staff', staff } : { kind: 'linked-to-another-identity' };
}

/** The staff member of a verified identity on a protected call: only a row bound to its uid. */
export async function staffOfIdentity(db: Queryable, identity: VerifiedIdentity): Promise<StaffIdentity> {
  if (!identity.emailVerified) return { kind: 'unverified' };
  const staff = await findStaffByIdentityUid(db, identity.uid);
  return staff ? { kind: 'staff', staff } : { kind: 'not-staff' };
}

export class RelinkError extends Error {
  override name = 'RelinkError';
}

export interface RelinkRequest {
  /** The staff member's e-mail (their row). */
  email: string;
  /** The account to bind, or null to unbind: the next verified sign-in with the e-mail then claims the row. */
  uid: string | null;
  /** Who does it (null for the system: the development seed). */
  actor: Actor | null;
  now: Date;
}

/**
 * Re-links a staff row to another identity-provider account (or unbinds it), audited in the same transaction.
 * Sessions of the previous account stop working at their next call: they are looked up by uid. Returns the previous
 * uid; changes nothing (and writes no audit row) when the row is already bound to `uid`.
 */
export async function relinkStaffIdentity(db: Db, request: RelinkRequest): Promise<{ previousUid: string | null }> {
  const email = request.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ user_id: number; identity_uid: string | null }>(
      'SELECT user_id, identity_uid FROM users WHERE email = $1 FOR UPDATE',
      [email],
    );
    const row = rows[0];
    if (!row) throw new RelinkError(`No staff member has the e-mail ${email}.`);
    if (row.identity_uid === request.uid) return { previousUid: row.identity_uid };
    if (request.uid !== null) {
      const holder = await tx.query<{ email: string }>('SELECT email FROM users WHERE identity_uid = $1', [
        request.uid,
      ]);
      if (holder.rows[0]) {
        throw new RelinkError(
          `The account ${request.uid} is already linked to ${holder.rows[0].email}; unlink it first.`,
        );
      }
    }
    await tx.query(
      `UPDATE users
          SET identity_uid = $2, updated_at = now(),
              identity_linked_at = CASE WHEN $2::text IS NULL THEN NULL ELSE $3::timestamptz END
        WHERE user_id = $1`,
      [row.user_id, request.uid, request.now],
    );
    await writeAudit(tx, {
      actor: request.actor,
      entity: AUDIT_ENTITY_USER,
      entityId: row.user_id,
      action: AUDIT_RELINK_IDENTITY,
      before: { identity_uid: row.identity_uid },
      after: { identity_uid: request.uid },
    });
    return { previousUid: row.identity_uid };
  });
}
