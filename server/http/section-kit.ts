import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow, type ListWindow } from '../../src/contract/lists';
import type { AccessLevel, FeatureCode, PermissionRecord } from '../../src/permissions/features';
import { locationsLacking } from '../../src/permissions/rules';
import { locationScope, type LocationScope } from '../../src/permissions/scope';
import { listHistory, type Actor } from '../db/audit';
import type { Queryable } from '../db/db';
import { pageBeyondLimit } from '../db/paging';
import type { StaffMember } from '../db/staff';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from './api-app';
import { parametersSchema, requestSchema, responseSchema } from './openapi-schemas';
import { csvFileName, csvResponse, type CsvValue } from './csv';
import { badRequest, ok, refused, respond, type Outcome, type Refusal } from './outcome';
import { errorResponses } from './responses';
import type { FirstRefusals } from './first-refusals';
import { requireStaffSession, type StaffEnv } from './staff-auth';

/**
 * The server half of the section kit: a route declares who may call it, what it reads and what it answers, and the
 * kit does the rest in the same order for every route —
 *   1. the sign-in and session, then the declared access (feature and level somewhere, or superuser), refused with a
 *      403 before the request is read (someone refused learns nothing of its fields);
 *   2. path, query, headers and body parsed with the contract's schemas (400 naming the field);
 *   3. the handler, inside one transaction when it writes, so the change and its audit row commit together; a
 *      handler that answers anything but `ok` is rolled back, so a refused write changes nothing;
 *   4. its Outcome turned into a status and envelope by `respond` (outcome.ts), the one mapping.
 * Location checks that depend on the record (spec §5) stay in the handler, with `lacking` and `scope`.
 */

/** Who may call a route, checked first. */
export type Access =
  /**
   * The section's feature at `level` at one location at least; `locationFilter` names the rows of a `?locationId=`
   * list; `refusal` is the 403's sentence where the action has its own verb ("You do not have permission to refund
   * payments."), else "You do not have permission to <level> <records>."
   */
  | LevelAccess
  /**
   * Superusers only (spec §2/§6): the refusal's sentence; `refuse` answers a further 403 sentence, or null, still
   * before the request is read (Database Copy from the production admin host).
   */
  | { superuserOnly: string; refuse?: (c: Context<StaffEnv>) => string | null }
  /** Any signed-in staff member: the handler decides. */
  | 'signedIn';

type LevelAccess = { level: AccessLevel; locationFilter?: string; refusal?: string };

type Schema = z.core.$ZodType;
type ParamsSchema = Parameters<typeof parametersSchema>[0];
type HeadersSchema = z.ZodObject;
type Read<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

export interface SectionRequest<P, Q, H, B> {
  c: Context<StaffEnv>;
  staff: StaffMember;
  record: PermissionRecord;
  actor: Actor;
  /** The transaction when the route writes, else the database. */
  db: Queryable;
  now: Date;
  params: Read<P>;
  query: Read<Q>;
  headers: Read<H>;
  body: Read<B>;
  /** Locations among `ids` where the user lacks the section's feature at `level` (spec §5: all must be held). */
  lacking: (level: AccessLevel, ids: readonly number[]) => number[];
  /** The locations whose rows the user sees through the section's feature. */
  scope: (level?: AccessLevel) => LocationScope;
}

interface Declaration<
  P extends ParamsSchema | undefined,
  Q extends ParamsSchema | undefined,
  H extends HeadersSchema | undefined,
  B extends Schema | undefined,
> {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  /** The OpenAPI description, when the summary cannot say enough. */
  description?: string;
  access: Access;
  params?: P;
  query?: Q;
  /** Header schema; Hono hands header names over lower-cased. */
  headers?: H;
  body?: B;
  /** Statuses besides 200, 401, 403 and (with any input) 400. */
  errors?: readonly (404 | 409)[];
  /** Runs the handler in one transaction (writes). */
  writes?: boolean;
}

export interface RouteDeclaration<
  D extends Schema,
  P extends ParamsSchema | undefined,
  Q extends ParamsSchema | undefined,
  H extends HeadersSchema | undefined,
  B extends Schema | undefined,
> extends Declaration<P, Q, H, B> {
  /** The `data` of the 200 answer. */
  data: D;
  /** The 200's description in the OpenAPI document. */
  answers: string;
  handle: (request: SectionRequest<P, Q, H, B>) => Promise<Outcome<z.input<D>>>;
}

/**
 * A route answering something else than JSON on 200 (a CSV file, a stream of events), built by the handler as a
 * Response; anything else it decides is an Outcome answered by `respond`.
 */
export interface AnswerDeclaration<
  P extends ParamsSchema | undefined,
  Q extends ParamsSchema | undefined,
  H extends HeadersSchema | undefined,
> extends Declaration<P, Q, H, undefined> {
  method: 'get';
  /** The 200's media type and description in the OpenAPI document (`image/*`: a stored photo, its own type). */
  mediaType: 'text/csv' | 'text/event-stream' | 'image/*';
  answers: string;
  handle: (request: SectionRequest<P, Q, H, undefined>) => Promise<Response | Refusal>;
}

/** A list of a section: one page as JSON, and (with `csv`) every row the filters find as a streamed CSV file. */
export interface ListDeclaration<Q extends ParamsSchema, D extends Schema, Row> {
  path: string;
  summary: string;
  /** Who may see the list (both answers): the section's feature at `view` (with `locationFilter`) unless said here. */
  access?: Access;
  query: Q;
  /** The page's schema (`pagedSchema(row)` of the contract). */
  page: D;
  /** Names the rows when a `?locationId=` filter is refused (spec §5); lists without that filter leave it out. */
  locationFilter?: string;
  /** A problem with the filters their schema cannot see (a range too long): the 400's sentence. */
  problem?: (query: Read<Q>) => string | null;
  read: (request: SectionRequest<undefined, Q, undefined, undefined>, window: ListWindow) => Promise<z.input<D>>;
  csv?: {
    path: string;
    summary: string;
    /** The file's name before its date: `promo-codes` → promo-codes-2026-11-29.csv. */
    name: string;
    header: readonly string[];
    batches: (request: SectionRequest<undefined, Q, undefined, undefined>) => AsyncIterable<readonly Row[]>;
    row: (row: Row) => readonly CsvValue[];
  };
}

export interface SectionOptions {
  /** The OpenAPI tag, e.g. 'promo codes'. */
  tag: string;
  /**
   * The permission feature of spec §6 this section is about; none for the superusers' sections (Mailing, Database
   * Copy), whose routes declare `{ superuserOnly }` and where `lacking`/`scope` hold for superusers only.
   */
  feature?: FeatureCode;
  /** The section's records in a refusal: "You do not have permission to edit promo codes." */
  records: string;
}

const json = (schema: Schema) => ({ 'application/json': { schema } });
const CSV_ANSWER = 'RFC 4180 CSV, UTF-8 with a byte-order mark';

/** Rolls a transaction back with the outcome a handler refused with. */
class RolledBack extends Error {
  constructor(readonly outcome: Refusal) {
    super(outcome.kind);
  }
}

/**
 * The kit reads what Hono's validators (added by @hono/zod-openapi from the route's schemas) have already parsed.
 * Their output is the schema's output, which is the one thing `c.req.valid` cannot know for a route declared here.
 */
type Target = 'param' | 'query' | 'header' | 'json';
type KitContext = Context<StaffEnv, string, { out: Record<Target, unknown> }>;
function validated<S>(c: KitContext, target: Target, schema: S | undefined): Read<S> {
  return (schema === undefined ? undefined : c.req.valid(target)) as Read<S>;
}

/** The session's first refusals for a feature-and-level access (server/http/first-refusals.ts). */
function sectionRefusals(section: SectionOptions, access: LevelAccess): FirstRefusals {
  const { feature } = section;
  if (!feature) throw new Error(`The ${section.tag} section has no feature: its routes declare { superuserOnly }.`);
  return {
    feature: { code: feature, level: access.level, refusal: access.refusal ?? `You do not have permission to ${access.level} ${section.records}.` },
    ...(access.locationFilter && { locationFilter: { feature, records: access.locationFilter } }),
  };
}

/** A refusal hook's sentence answered as the 403 of `respond`. */
const refuseWith =
  (refuse: (c: Context<StaffEnv>) => string | null) =>
  (c: Context<StaffEnv>): Response | null => {
    const sentence = refuse(c);
    return sentence === null ? null : respond(c, refused(sentence));
  };

export function serverSection(app: ApiApp, deps: RouteDeps, section: SectionOptions) {

  const sessionFor = (access: Access) =>
    requireStaffSession(
      deps,
      access === 'signedIn'
        ? {}
        : 'superuserOnly' in access
          ? { superuserOnly: access.superuserOnly, ...(access.refuse && { refuse: refuseWith(access.refuse) }) }
          : sectionRefusals(section, access),
    );

  /** Declares the route in the OpenAPI document and mounts it: session and access first, then the schemas, then `answer`. */
  function register<
    P extends ParamsSchema | undefined,
    Q extends ParamsSchema | undefined,
    H extends HeadersSchema | undefined,
    B extends Schema | undefined,
  >(
    declared: Declaration<P, Q, H, B>,
    ok200: RouteConfig['responses'][number],
    answer: (request: (db: Queryable) => SectionRequest<P, Q, H, B>, c: KitContext) => Promise<Response>,
  ): void {
    const hasInput = [declared.params, declared.query, declared.headers, declared.body].some((s) => s !== undefined);
    const middleware: [MiddlewareHandler<StaffEnv>] = [sessionFor(declared.access)];
    const config: RouteConfig & { middleware: typeof middleware } = createRoute({
      method: declared.method,
      path: declared.path,
      tags: [section.tag],
      summary: declared.summary,
      ...(declared.description !== undefined && { description: declared.description }),
      security: STAFF_SECURITY,
      middleware,
      request: {
        ...(declared.params && { params: parametersSchema(declared.params) }),
        ...(declared.query && { query: parametersSchema(declared.query) }),
        ...(declared.headers && { headers: declared.headers }),
        ...(declared.body && { body: { required: true, content: json(requestSchema(declared.body)) } }),
      },
      responses: {
        200: ok200,
        ...errorResponses(...(hasInput ? [400 as const] : []), 401, 403, ...(declared.errors ?? [])),
      },
    });
    app.openapi(config, async (c: KitContext) => {
      const staff = c.get('staff');
      const request = (db: Queryable): SectionRequest<P, Q, H, B> => ({
        c,
        staff,
        record: staff.record,
        actor: { userId: staff.userId, email: staff.email },
        db,
        now: deps.now(),
        params: validated(c, 'param', declared.params),
        query: validated(c, 'query', declared.query),
        headers: validated(c, 'header', declared.headers),
        body: validated(c, 'json', declared.body),
        lacking: (level, ids) =>
          section.feature ? locationsLacking(staff.record, section.feature, level, ids) : staff.record.su ? [] : [...ids],
        scope: (level = 'view') =>
          section.feature ? locationScope(staff.record, section.feature, level) : staff.record.su ? { all: true } : { all: false, ids: [] },
      });
      return answer(request, c);
    });
  }

  /** A route answering JSON: `data` on 200, or a refusal. */
  function route<
    D extends Schema,
    P extends ParamsSchema | undefined = undefined,
    Q extends ParamsSchema | undefined = undefined,
    H extends HeadersSchema | undefined = undefined,
    B extends Schema | undefined = undefined,
  >(declared: RouteDeclaration<D, P, Q, H, B>): void {
    const ok200 = { description: declared.answers, content: json(responseSchema(successEnvelope(declared.data))) };
    register(declared, ok200, async (request, c) => {
      if (!declared.writes) return respond(c, await declared.handle(request(deps.db)));
      try {
        return respond(
          c,
          await deps.db.transaction(async (tx) => {
            const outcome = await declared.handle(request(tx));
            if (outcome.kind !== 'ok' && outcome.kind !== 'okJson') throw new RolledBack(outcome);
            return outcome;
          }),
        );
      } catch (error) {
        if (error instanceof RolledBack) return respond(c, error.outcome);
        throw error;
      }
    });
  }

  /** A GET answering a file or a stream: the handler's Response on 200, or its refusal. */
  function answer<
    P extends ParamsSchema | undefined = undefined,
    Q extends ParamsSchema | undefined = undefined,
    H extends HeadersSchema | undefined = undefined,
  >(declared: AnswerDeclaration<P, Q, H>): void {
    const ok200 = { description: declared.answers, content: { [declared.mediaType]: { schema: { type: 'string' as const } } } };
    register(declared, ok200, async (request, c) => {
      const answered = await declared.handle(request(deps.db));
      return answered instanceof Response ? answered : respond(c, answered);
    });
  }

  /** GET `path` (one page) and GET `csv.path` (every row, streamed), from one declaration. */
  function list<Q extends ParamsSchema, D extends Schema, Row>(declared: ListDeclaration<Q, D, Row>): void {
    const access: Access = declared.access ?? {
      level: 'view',
      ...(declared.locationFilter && { locationFilter: declared.locationFilter }),
    };
    const problemOf = (query: Read<Q>) => declared.problem?.(query) ?? null;
    // The export first: registered before any `{id}` route of the list's path would take "export" for an id.
    const { csv } = declared;
    if (csv) {
      const ok200 = { description: CSV_ANSWER, content: { 'text/csv': { schema: { type: 'string' as const } } } };
      register({ method: 'get', path: csv.path, summary: csv.summary, access, query: declared.query }, ok200, async (request, c) => {
        const read = request(deps.db);
        const problem = problemOf(read.query);
        if (problem) return respond(c, badRequest(problem));
        const batches = csv.batches(read);
        return csvResponse(c, {
          fileName: csvFileName(csv.name, read.now),
          header: csv.header,
          batches: (async function* () {
            for await (const batch of batches) yield batch.map(csv.row);
          })(),
        });
      });
    }
    route({
      method: 'get',
      path: declared.path,
      summary: declared.summary,
      access,
      query: declared.query,
      data: declared.page,
      answers: 'One page and the total',
      handle: async (request) => {
        const window = listWindow(request.query);
        const problem = problemOf(request.query) ?? pageBeyondLimit(window);
        return problem ? badRequest(problem) : ok(await declared.read(request, window));
      },
    });
  }

  /**
   * GET `path` (ending in /history): a record's audit trail, newest first. `hidden` is the record's own visibility
   * check (the detail's), so History never shows what the record page would not.
   */
  function history<P extends ParamsSchema>(declared: {
    path: string;
    summary: string;
    access?: Access;
    params: P;
    /** The audit entity and the record's id in it (a number, or a device-made UUID). */
    trail: (params: Read<P>) => { entity: string; id: number | string };
    hidden?: (request: SectionRequest<P, undefined, undefined, undefined>) => Promise<Refusal | null> | Refusal | null;
    /** 404 when `hidden` answers it. */
    errors?: readonly 404[];
  }): void {
    route({
      method: 'get',
      path: declared.path,
      summary: declared.summary,
      access: declared.access ?? { level: 'view' },
      params: declared.params,
      data: historySchema,
      answers: 'Who changed what, when',
      ...(declared.errors && { errors: declared.errors }),
      handle: async (request) => {
        const refusal = await declared.hidden?.(request);
        if (refusal) return refusal;
        const { entity, id } = declared.trail(request.params);
        return ok(await listHistory(request.db, entity, id));
      },
    });
  }

  return { route, list, history, answer };
}
