import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow } from '../../src/contract/lists';
import {
  ROLE_LOCATIONS_PATH,
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
} from '../../src/contract/roles';
import { describeRefusal, type EscalationVerdict } from '../../src/permissions/escalation';
import { hasPermission } from '../../src/permissions/rules';
import { listHistory } from '../db/audit';
import type { Queryable } from '../db/db';
import { pageBeyondLimit } from '../db/paging';
import { AUDIT_ENTITY_ROLE, createRole, deleteRole, findRole, listRolesPage, updateRole, type RoleWriteResult } from '../db/roles';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { conflictFailure, errorResponses, failure, invalidFields } from '../http/responses';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

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

async function writeResponse(c: Context<StaffEnv>, db: Queryable, roleId: number | null, result: RoleWriteResult) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.role }, 200);
    case 'notFound':
      return c.json(failure(`Role ${roleId} does not exist.`), 404);
    case 'duplicateName':
      return c.json(invalidFields({ name: `A role named "${result.name}" already exists (names ignore case).` }), 400);
    case 'invalid':
      return c.json(invalidFields(result.fieldErrors), 400);
    case 'refused':
      return c.json(failure(await refusalMessage(db, result.verdict, 'role')), 403);
    case 'inUse': {
      const who = result.holders.map((holder) => holder.display_name ?? holder.email).join(', ');
      const more = result.total > result.holders.length ? ` and ${result.total - result.holders.length} more` : '';
      return c.json(
        conflictFailure(`Role ${roleId} is held by ${who}${more}; give them another role first. Nothing was deleted.`, {
          holders: result.holders,
          total: result.total,
        }),
        409,
      );
    }
    case 'conflict': {
      const { changedBy, changedAt } = result.conflict;
      const who = changedBy ? (changedBy.name ?? changedBy.email) : 'someone else';
      const when = changedAt ? ` at ${changedAt}` : '';
      return c.json(
        conflictFailure(
          `Role ${roleId} was changed by ${who}${when} after you opened it. Reload to see their version; nothing was saved.`,
          result.conflict,
        ),
        409,
      );
    }
  }
}

export function registerRoleRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);
  const actorOf = (c: Context<StaffEnv>) => ({ userId: c.get('staff').userId, email: c.get('staff').email });
  const refuse = (c: Context<StaffEnv>, action: string) =>
    c.json(failure(`You do not have permission to ${action} roles.`), 403);

  const list = createRoute({
    method: 'get',
    path: ROLES_PATH,
    tags: ['roles'],
    summary: 'Roles with what they grant and how many staff hold each (user roles view)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(roleListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(rolePageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    if (!hasPermission(c.get('staff').record, 'ur', 'view')) return refuse(c, 'view');
    const query = c.req.valid('query');
    const window = listWindow(query);
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    return c.json({ success: true as const, data: await listRolesPage(deps.db, query, window) }, 200);
  });

  // Registered before /roles/{roleId}, which would otherwise take "locations" for an id.
  const locations = createRoute({
    method: 'get',
    path: ROLE_LOCATIONS_PATH,
    tags: ['roles'],
    summary: 'Every location by name, for the role editor (user roles view): roles may grant at any of them',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    responses: {
      200: { description: 'Locations by name', content: json(responseSchema(successEnvelope(roleLocationsSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(locations, async (c) => {
    if (!hasPermission(c.get('staff').record, 'ur', 'view')) return refuse(c, 'view');
    const { rows } = await deps.db.query<{ location_id: number; name: string }>(
      'SELECT location_id, name FROM locations ORDER BY lower(name), location_id',
    );
    return c.json({ success: true as const, data: rows }, 200);
  });

  const create = createRoute({
    method: 'post',
    path: ROLES_PATH,
    tags: ['roles'],
    summary: 'Creates a role (user roles add); it may grant only what the editor holds',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(roleInputSchema)) } },
    responses: {
      200: { description: 'The new role', content: json(responseSchema(successEnvelope(roleSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(create, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'ur', 'add')) return refuse(c, 'add');
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => createRole(tx, actorOf(c), record, input));
    return (await writeResponse(c, deps.db, null, result)) as never;
  });

  const detail = createRoute({
    method: 'get',
    path: `${ROLES_PATH}/{roleId}`,
    tags: ['roles'],
    summary: 'One role (user roles view)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(roleParamsSchema) },
    responses: {
      200: { description: 'The role', content: json(responseSchema(successEnvelope(roleSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    if (!hasPermission(c.get('staff').record, 'ur', 'view')) return refuse(c, 'view');
    const { roleId } = c.req.valid('param');
    const role = await findRole(deps.db, roleId);
    if (!role) return c.json(failure(`Role ${roleId} does not exist.`), 404);
    return c.json({ success: true as const, data: role }, 200);
  });

  const history = createRoute({
    method: 'get',
    path: `${ROLES_PATH}/{roleId}/history`,
    tags: ['roles'],
    summary: "The role's audit trail, newest first (user roles view)",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(roleParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(history, async (c) => {
    if (!hasPermission(c.get('staff').record, 'ur', 'view')) return refuse(c, 'view');
    const { roleId } = c.req.valid('param');
    return c.json({ success: true as const, data: await listHistory(deps.db, AUDIT_ENTITY_ROLE, roleId) }, 200);
  });

  const update = createRoute({
    method: 'post',
    path: `${ROLES_PATH}/{roleId}`,
    tags: ['roles'],
    summary: 'Renames a role and replaces its grants, from `version` (user roles edit; no escalation); 409 if it changed',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(roleParamsSchema),
      body: { required: true, content: json(requestSchema(roleUpdateSchema)) },
    },
    responses: {
      200: { description: 'The saved role', content: json(responseSchema(successEnvelope(roleSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(update, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'ur', 'edit')) return refuse(c, 'edit');
    const { roleId } = c.req.valid('param');
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => updateRole(tx, actorOf(c), record, roleId, input));
    return (await writeResponse(c, deps.db, roleId, result)) as never;
  });

  const remove = createRoute({
    method: 'post',
    path: `${ROLES_PATH}/{roleId}/delete`,
    tags: ['roles'],
    summary: 'Deletes a role nobody holds (user roles delete); otherwise 409 naming who holds it',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(roleParamsSchema),
      body: { required: true, content: json(requestSchema(roleDeleteSchema)) },
    },
    responses: {
      200: { description: 'Deleted', content: json(responseSchema(successEnvelope(roleDeletedSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(remove, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'ur', 'delete')) return refuse(c, 'delete');
    const { roleId } = c.req.valid('param');
    const { version } = c.req.valid('json');
    const result = await deps.db.transaction((tx) => deleteRole(tx, actorOf(c), record, roleId, version));
    if (result.kind === 'deleted') return c.json({ success: true as const, data: { deleted: true as const } }, 200);
    return (await writeResponse(c, deps.db, roleId, result)) as never;
  });
}
