import {
  ACCESS_LEVELS,
  FEATURE_CODES,
  LEVEL_KEYS,
  permissionRecordSchema,
  type AccessLevel,
  type FeatureCode,
  type PermissionRecord,
} from '../../src/permissions/features';
import type { AllLocations } from '../../src/permissions/all-locations';
import type { Queryable } from './db';

export type StaffStatus = 'active' | 'disabled';

export interface StaffMember {
  userId: number;
  email: string;
  displayName: string | null;
  status: StaffStatus;
  /** The identity-provider account bound to this row; null until its first verified sign-in claims it. */
  identityUid: string | null;
  /** Spec §3's record: all-locations grants are in it already, expanded to today's locations. */
  record: PermissionRecord;
  /** Their role's grants at all locations, now and later: what the no-escalation check asks of an editor. */
  allLocations: AllLocations;
}

interface GrantRow {
  feature: FeatureCode;
  level: AccessLevel;
  location_id: number;
}

/** Folds a role's grant rows into the permission record of spec §3 ({v,a,e,d} lists per feature, plus su). */
export function permissionRecordFromGrants(superuser: boolean, grants: readonly GrantRow[]): PermissionRecord {
  const record: PermissionRecord = { su: superuser };
  for (const feature of FEATURE_CODES) {
    const rows = grants.filter((grant) => grant.feature === feature);
    if (rows.length === 0) continue;
    const grant = { v: [] as number[], a: [] as number[], e: [] as number[], d: [] as number[] };
    for (const level of ACCESS_LEVELS) {
      // A location can come twice: listed by the role and reached by one of its all-locations grants.
      grant[LEVEL_KEYS[level]] = [
        ...new Set(rows.filter((row) => row.level === level).map((row) => row.location_id)),
      ].sort((a, b) => a - b);
    }
    record[feature] = grant;
  }
  // Parsing the result checks that the tables and the shared schema still agree.
  return permissionRecordSchema.parse(record);
}

/** Looks a staff member up by e-mail (case-insensitively) with permissions read fresh from their role. */
export async function findStaffByEmail(db: Queryable, email: string): Promise<StaffMember | undefined> {
  return findStaff(db, 'u.email = $1', email.trim().toLowerCase(), 'staff_by_email');
}

/** The staff member bound to this identity-provider account (docs/api.md "Identity binding"), permissions fresh. */
export async function findStaffByIdentityUid(db: Queryable, uid: string): Promise<StaffMember | undefined> {
  return findStaff(db, 'u.identity_uid = $1', uid, 'staff_by_identity_uid');
}

async function findStaff(db: Queryable, condition: string, value: string, prepare: string): Promise<StaffMember | undefined> {
  // One round trip: this runs on every protected call, so the grants come back with the user row. Prepared (one name
  // per condition): planning it took about three quarters of its PostgreSQL time (BENCHMARKS.md at f3b7360, "Money").
  const { rows } = await db.query<{
    user_id: number;
    email: string;
    display_name: string | null;
    status: StaffStatus;
    identity_uid: string | null;
    superuser: boolean | null;
    grants: GrantRow[] | null;
    all_locations: AllLocations | null;
  }>(
    `SELECT u.user_id, u.email, u.display_name, u.status, u.identity_uid, r.superuser,
            (SELECT json_agg(json_build_object('feature', p.feature, 'level', p.level, 'location_id', p.location_id))
               FROM (SELECT feature, level, location_id FROM role_permissions WHERE role_id = u.role_id
                     -- All locations, now and later (023): every full-offering location, whenever it was added.
                     UNION ALL
                     SELECT a.feature, a.level, l.location_id
                       FROM role_all_locations a JOIN locations l ON l.offering = 'full'
                      WHERE a.role_id = u.role_id
                     -- An Enforcement Lite officer: enforcement view at each active lite location they were given.
                     UNION ALL
                     SELECT 'e', 'view', ol.location_id
                       FROM lite_officer_locations ol JOIN locations l ON l.location_id = ol.location_id
                      WHERE ol.user_id = u.user_id AND l.offering = 'lite' AND l.status = 'active') p) AS grants,
            (SELECT json_object_agg(a.feature, a.level) FROM role_all_locations a WHERE a.role_id = u.role_id)
              AS all_locations
       FROM users u LEFT JOIN roles r ON r.role_id = u.role_id
      WHERE ${condition}`,
    [value],
    { prepare },
  );
  const user = rows[0];
  if (!user) return undefined;
  return {
    userId: user.user_id,
    email: user.email,
    displayName: user.display_name,
    status: user.status,
    identityUid: user.identity_uid,
    record: permissionRecordFromGrants(user.superuser ?? false, user.grants ?? []),
    allLocations: user.all_locations ?? {},
  };
}

export async function recordSignIn(db: Queryable, userId: number, at: Date): Promise<void> {
  await db.query('UPDATE users SET last_sign_in_at = $2 WHERE user_id = $1', [userId, at]);
}
