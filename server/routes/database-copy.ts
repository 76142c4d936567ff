import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  DATABASE_COPIES_PATH,
  DATABASE_COPY_COUNTS_PATH,
  DATABASE_COPY_DATABASES_PATH,
  DATABASE_COPY_SAMPLE_PATH,
  copyCountsQuerySchema,
  copyCountsSchema,
  copyOptionsSchema,
  copyRequestSchema,
  copySampleQuerySchema,
  copySampleSchema,
  databaseCopyListSchema,
  databaseCopyParamsSchema,
  databaseCopySchema,
} from '../../src/contract/database-copy';
import { successEnvelope } from '../../src/contract/envelope';
import { UnreachableDatabase, type CopyService } from '../copy/copy-service';
import { COPY_TABLES, copyPlan } from '../copy/tables';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure, invalidFields } from '../http/responses';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

/** The host name of the request's Origin (what the browser says the console was loaded from), if any. */
function originHost(c: Context): string | undefined {
  const origin = c.req.header('Origin');
  if (!origin) return undefined;
  try {
    return new URL(origin).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Superuser only (spec §2, §6), and never from the production admin console: a request whose Origin is the
 * production admin host is refused whoever sends it, as the console hides the section there.
 */
function refusal(c: Context<StaffEnv>, productionAdminHost: string) {
  if (!c.get('staff').record.su) return c.json(failure('Only a superuser may use Database Copy.'), 403);
  if (originHost(c) === productionAdminHost.toLowerCase()) {
    return c.json(failure('Database Copy is not available from the production admin console.'), 403);
  }
  return null;
}

export function registerDatabaseCopyRoutes(
  app: ApiApp,
  deps: RouteDeps & { copies: CopyService; productionAdminHost: string },
): void {
  // Before the request is read, so a refused caller learns nothing of the fields.
  const staffSession = requireStaffSession(deps, { refuse: (c) => refusal(c, deps.productionAdminHost) });

  const options = createRoute({
    tags: ['database copy'],
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: DATABASE_COPY_DATABASES_PATH,
    summary: 'The databases this server may copy between, and the tables it may copy (superuser)',
    responses: {
      200: { description: 'Databases and tables', content: json(responseSchema(successEnvelope(copyOptionsSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(options, async (c) => {
    const tables = COPY_TABLES.map((table) => ({
      name: table.name,
      label: table.label,
      masked_columns: Object.keys(table.masks),
      includes: copyPlan([table.name])
        .map((t) => t.name)
        .filter((name) => name !== table.name),
      requires: [...table.parents],
    }));
    return c.json({ success: true as const, data: { databases: deps.copies.databases(), tables } }, 200);
  });

  const counts = createRoute({
    tags: ['database copy'],
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: DATABASE_COPY_COUNTS_PATH,
    summary: 'Rows of each copyable table in one database (superuser)',
    request: { query: parametersSchema(copyCountsQuerySchema) },
    responses: {
      200: { description: 'Rows per table', content: json(responseSchema(successEnvelope(copyCountsSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(counts, async (c) => {
    const { database } = c.req.valid('query');
    let found;
    try {
      found = await deps.copies.counts(database);
    } catch (error) {
      if (error instanceof UnreachableDatabase) return c.json(failure(`${error.message}.`), 409);
      throw error;
    }
    if (!found) return c.json(failure(`There is no database named "${database}".`), 404);
    return c.json({ success: true as const, data: { database, counts: found } }, 200);
  });

  const sample = createRoute({
    tags: ['database copy'],
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: DATABASE_COPY_SAMPLE_PATH,
    summary: "The first rows of a table's key and masked columns in one database: how masking is checked (superuser)",
    request: { query: parametersSchema(copySampleQuerySchema) },
    responses: {
      200: { description: 'Up to 5 rows', content: json(responseSchema(successEnvelope(copySampleSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(sample, async (c) => {
    const { database, table } = c.req.valid('query');
    const found = await deps.copies.sample(database, table);
    if (!found) return c.json(failure(`There is no database named "${database}".`), 404);
    return c.json({ success: true as const, data: found }, 200);
  });

  const list = createRoute({
    tags: ['database copy'],
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: DATABASE_COPIES_PATH,
    summary: 'The last 50 copies, newest first, a running one with its progress (superuser)',
    responses: {
      200: { description: 'Copies', content: json(responseSchema(successEnvelope(databaseCopyListSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(list, async (c) => {
    return c.json({ success: true as const, data: await deps.copies.list() }, 200);
  });

  const start = createRoute({
    tags: ['database copy'],
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'post',
    path: DATABASE_COPIES_PATH,
    summary:
      'Starts copying tables from one database to another (superuser; `confirm_target` must be the target’s name). ' +
      'Answers at once with the running copy; 409 while another copy runs; 403 for a production target.',
    request: { body: { required: true, content: json(requestSchema(copyRequestSchema)) } },
    responses: {
      200: { description: 'The copy, running', content: json(responseSchema(successEnvelope(databaseCopySchema))) },
      ...errorResponses(400, 401, 403, 409),
    },
  });
  app.openapi(start, async (c) => {
    const staff = c.get('staff');
    const result = await deps.copies.start({ userId: staff.userId, email: staff.email }, c.req.valid('json'));
    switch (result.kind) {
      case 'ok':
        return c.json({ success: true as const, data: result.copy }, 200);
      case 'invalid':
        return c.json(invalidFields(result.fieldErrors), 400);
      case 'productionTarget':
        return c.json(failure(`${result.target} is a production database: Database Copy never writes to it.`), 403);
      case 'unreachable':
        return c.json(failure(`Could not read ${result.database}: ${result.message}. Nothing was copied.`), 409);
      case 'busy': {
        const who = result.running ? ` (copy ${result.running.copy_id} by ${result.running.started_by_email})` : '';
        return c.json(failure(`Another copy is running${who}; start this one when it has finished.`), 409);
      }
    }
  });

  const detail = createRoute({
    tags: ['database copy'],
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: `${DATABASE_COPIES_PATH}/{copyId}`,
    summary: 'One copy with its progress per table (superuser)',
    request: { params: parametersSchema(databaseCopyParamsSchema) },
    responses: {
      200: { description: 'The copy', content: json(responseSchema(successEnvelope(databaseCopySchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    const { copyId } = c.req.valid('param');
    const copy = await deps.copies.find(copyId);
    if (!copy) return c.json(failure(`Copy ${copyId} does not exist.`), 404);
    return c.json({ success: true as const, data: copy }, 200);
  });
}
