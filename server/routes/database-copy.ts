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
import { UnreachableDatabase, type CopyService } from '../copy/copy-service';
import { COPY_TABLES, copyPlan } from '../copy/tables';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { conflict, fieldProblems, notFound, ok, refused } from '../http/outcome';
import { serverSection, type Access } from '../http/section-kit';

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

const noDatabase = (database: string) => notFound(`There is no database named "${database}".`);

export function registerDatabaseCopyRoutes(
  app: ApiApp,
  deps: RouteDeps & { copies: CopyService; productionAdminHost: string },
): void {
  const section = serverSection(app, deps, { tag: 'database copy', records: 'Database Copy' });
  /**
   * Superuser only (spec §2, §6), and never from the production admin console: a request whose Origin is the
   * production admin host is refused whoever sends it, as the console hides the section there. Both before the
   * request is read, so a refused caller learns nothing of the fields.
   */
  const access: Access = {
    superuserOnly: 'Only a superuser may use Database Copy.',
    refuse: (c) =>
      originHost(c) === deps.productionAdminHost.toLowerCase() ? 'Database Copy is not available from the production admin console.' : null,
  };

  section.route({
    method: 'get',
    path: DATABASE_COPY_DATABASES_PATH,
    summary: 'The databases this server may copy between, and the tables it may copy (superuser)',
    access,
    data: copyOptionsSchema,
    answers: 'Databases and tables',
    handle: async () => {
      const tables = COPY_TABLES.map((table) => ({
        name: table.name,
        label: table.label,
        masked_columns: Object.keys(table.masks),
        includes: copyPlan([table.name])
          .map((t) => t.name)
          .filter((name) => name !== table.name),
        requires: [...table.parents],
      }));
      return ok({ databases: deps.copies.databases(), tables });
    },
  });

  section.route({
    method: 'get',
    path: DATABASE_COPY_COUNTS_PATH,
    summary: 'Rows of each copyable table in one database (superuser)',
    access,
    query: copyCountsQuerySchema,
    data: copyCountsSchema,
    answers: 'Rows per table',
    errors: [404, 409],
    handle: async ({ query: { database } }) => {
      let found;
      try {
        found = await deps.copies.counts(database);
      } catch (error) {
        if (error instanceof UnreachableDatabase) return conflict(`${error.message}.`);
        throw error;
      }
      return found ? ok({ database, counts: found }) : noDatabase(database);
    },
  });

  section.route({
    method: 'get',
    path: DATABASE_COPY_SAMPLE_PATH,
    summary: "The first rows of a table's key and masked columns in one database: how masking is checked (superuser)",
    access,
    query: copySampleQuerySchema,
    data: copySampleSchema,
    answers: 'Up to 5 rows',
    errors: [404],
    handle: async ({ query: { database, table } }) => {
      const found = await deps.copies.sample(database, table);
      return found ? ok(found) : noDatabase(database);
    },
  });

  section.route({
    method: 'get',
    path: DATABASE_COPIES_PATH,
    summary: 'The last 50 copies, newest first, a running one with its progress (superuser)',
    access,
    data: databaseCopyListSchema,
    answers: 'Copies',
    handle: async () => ok(await deps.copies.list()),
  });

  section.route({
    method: 'post',
    path: DATABASE_COPIES_PATH,
    summary:
      'Starts copying tables from one database to another (superuser; `confirm_target` must be the target’s name). ' +
      'Answers at once with the running copy; 409 while another copy runs; 403 for a production target.',
    access,
    body: copyRequestSchema,
    data: databaseCopySchema,
    answers: 'The copy, running',
    errors: [409],
    // Not `writes`: the copy service records the copy itself (one at a time, guarded by the database) and runs it
    // after this answer, between other databases.
    handle: async ({ actor, body }) => {
      const result = await deps.copies.start(actor, body);
      switch (result.kind) {
        case 'ok':
          return ok(result.copy);
        case 'invalid':
          return fieldProblems(result.fieldErrors);
        case 'productionTarget':
          return refused(`${result.target} is a production database: Database Copy never writes to it.`);
        case 'unreachable':
          return conflict(`Could not read ${result.database}: ${result.message}. Nothing was copied.`);
        case 'busy': {
          const who = result.running ? ` (copy ${result.running.copy_id} by ${result.running.started_by_email})` : '';
          return conflict(`Another copy is running${who}; start this one when it has finished.`);
        }
      }
    },
  });

  section.route({
    method: 'get',
    path: `${DATABASE_COPIES_PATH}/{copyId}`,
    summary: 'One copy with its progress per table (superuser)',
    access,
    params: databaseCopyParamsSchema,
    data: databaseCopySchema,
    answers: 'The copy',
    errors: [404],
    handle: async ({ params: { copyId } }) => {
      const copy = await deps.copies.find(copyId);
      return copy ? ok(copy) : notFound(`Copy ${copyId} does not exist.`);
    },
  });
}
