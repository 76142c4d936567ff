import {
  myAllLocationsSchema,
  ROLE_LOCATIONS_PATH,
  ROLES_MY_ALL_LOCATIONS_PATH,
  ROLES_PATH,
  roleLocationsSchema,
  roleDeletedSchema,
  roleDeleteSchema,
  roleInputSchema,
  roleListQuerySchema,
  rolePageSchema,
  roleParamsSchema,
  roleSchema,
  roleUpdateSchema,
  type Role,
} from '../../src/contract/roles';
import { describeRefusal, type EscalationVerdict } from '../../src/permissions/escalation';
import type { Queryable } from '../db/db';
import { AUDIT_ENTITY_ROLE, createRole, deleteRole, findRole, listRolesPage, updateRole, type RoleWriteResult } from '../db/roles';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { conflict, fieldProblems, notFound, ok, refused, versionConflict, type Outcome, type Refusal } from '../http/outcome';
import { serverSection } from '../http/section-kit';

/** A refusal of the no-escalation rule in words, with the locations named as the user knows them. */
export async function refusalMessage(
  db: Queryable,
  verdict: Exclude<EscalationVerdict, { ok: true }>,
  subject: 'role' | 'user',
): Promise<string> {
  const ids = verdict.reason === 'notHeld' ? [...new Set(verdict.triples.map((t) => t.locationId))] : [];
  const { rows } = await db.query<{ location_id: number; name: string }>(
    'SELECT location_id, name FROM locations WHERE location_id = ANY($1::int[])',
    [ids],
  );
  const names = new Map(rows.map((row) => [row.location_id, row.name]));
  return describeRefusal(verdict, subject, undefined, (id) => names.get(id) ?? `location ${id}`);
}

const missing = (roleId: number | null) => notFound(`Role ${roleId} does not exist.`);

/** Why the repository refused a write, as the API says it (a no-escalation refusal names the locations). */
async function refusalOf(db: Queryable, roleId: number | null, result: Exclude<RoleWriteResult, { kind: 'ok' }>): Promise<Refusal> {
  switch (result.kind) {
    case 'notFound':
      return missing(roleId);
    case 'duplicateName':
      return fieldProblems({ name: `A role named "${result.name}" already exists (names ignore case).` });
    case 'invalid':
      return fieldProblems(result.fieldErrors);
    case 'refused':
      return refused(await refusalMessage(db, result.verdict, 'role'));
    case 'inUse': {
      const who = result.holders.map((holder) => holder.display_name ?? holder.email).join(', ');
      const more = result.total > result.holders.length ? ` and ${result.total - result.holders.length} more` : '';
      return conflict(`Role ${roleId} is held by ${who}${more}; give them another role first. Nothing was deleted.`, {
        holders: result.holders,
        total: result.total,
      });
    }
    case 'conflict':
      return versionConflict(`Role ${roleId}`, result.conflict);
  }
}

const written = async (db: Queryable, roleId: number | null, result: RoleWriteResult): Promise<Outcome<Role>> =>
  result.kind === 'ok' ? ok(result.role) : refusalOf(db, roleId, result);

export function registerRoleRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'roles', feature: 'ur', records: 'roles' });

  section.list({
    path: ROLES_PATH,
    summary: 'Roles with what they grant and how many staff hold each (user roles view)',
    query: roleListQuerySchema,
    page: rolePageSchema,
    read: ({ db, query }, window) => listRolesPage(db, query, window),
  });

  // Registered before /roles/{roleId}, which would otherwise take "locations" for an id.
  section.route({
    method: 'get',
    path: ROLE_LOCATIONS_PATH,
    summary: 'Every location by name, for the role editor (user roles view): roles may grant at any of them',
    access: { level: 'view' },
    data: roleLocationsSchema,
    answers: 'Locations by name',
    handle: async ({ db }) => {
      const { rows } = await db.query<{ location_id: number; name: string }>(
        'SELECT location_id, name FROM locations ORDER BY lower(name), location_id',
      );
      return ok(rows);
    },
  });

  // Also before /roles/{roleId}, which would take "mine" for an id.
  section.route({
    method: 'get',
    path: ROLES_MY_ALL_LOCATIONS_PATH,
    summary: "The caller's own grants at all locations, now and later (user roles view), for the role editor",
    access: { level: 'view' },
    data: myAllLocationsSchema,
    answers: 'Per feature, the level held at all locations',
    handle: async ({ staff }) => ok({ su: staff.record.su, all_locations: staff.allLocations }),
  });

  section.route({
    method: 'post',
    path: ROLES_PATH,
    summary: 'Creates a role (user roles add); it may grant only what the editor holds',
    access: { level: 'add' },
    body: roleInputSchema,
    data: roleSchema,
    answers: 'The new role',
    writes: true,
    handle: async ({ db, actor, record, body }) => written(db, null, await createRole(db, actor, record, body)),
  });

  section.route({
    method: 'get',
    path: `${ROLES_PATH}/{roleId}`,
    summary: 'One role (user roles view)',
    access: { level: 'view' },
    params: roleParamsSchema,
    data: roleSchema,
    answers: 'The role',
    errors: [404],
    handle: async ({ db, params: { roleId } }) => {
      const role = await findRole(db, roleId);
      return role ? ok(role) : missing(roleId);
    },
  });

  section.history({
    path: `${ROLES_PATH}/{roleId}/history`,
    summary: "The role's audit trail, newest first (user roles view)",
    params: roleParamsSchema,
    trail: ({ roleId }) => ({ entity: AUDIT_ENTITY_ROLE, id: roleId }),
  });

  section.route({
    method: 'post',
    path: `${ROLES_PATH}/{roleId}`,
    summary: 'Renames a role and replaces its grants, from `version` (user roles edit; no escalation); 409 if it changed',
    access: { level: 'edit' },
    params: roleParamsSchema,
    body: roleUpdateSchema,
    data: roleSchema,
    answers: 'The saved role',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, record, params: { roleId }, body }) =>
      written(db, roleId, await updateRole(db, actor, record, roleId, body)),
  });

  section.route({
    method: 'post',
    path: `${ROLES_PATH}/{roleId}/delete`,
    summary: 'Deletes a role nobody holds (user roles delete); otherwise 409 naming who holds it',
    access: { level: 'delete' },
    params: roleParamsSchema,
    body: roleDeleteSchema,
    data: roleDeletedSchema,
    answers: 'Deleted',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, record, params: { roleId }, body }) => {
      const result = await deleteRole(db, actor, record, roleId, body.version);
      return result.kind === 'deleted' ? ok({ deleted: true as const }) : refusalOf(db, roleId, result);
    },
  });
}
