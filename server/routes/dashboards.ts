import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import {
  REALTIME_DASHBOARD_PATH,
  REALTIME_STREAM_PATH,
  realtimeQuerySchema,
  realtimeSummarySchema,
  SETTLED_DASHBOARD_PATH,
  SETTLED_EXPORT_PATH,
  settledDashboardSchema,
  settledQuerySchema,
  type SettledQuery,
} from '../../src/contract/dashboards';
import { successEnvelope } from '../../src/contract/envelope';
import { addDays, presetDays, settledRangeProblem, settledToday } from '../../src/contract/settled-ranges';
import { isCalendarDate } from '../../src/contract/transactions';
import type { FeatureCode } from '../../src/permissions/features';
import { hasPermission } from '../../src/permissions/rules';
import { createChangeFeed } from '../dashboards/change-feed';
import { realtimeSummary, settledDashboard, settledRows, type SettledCsvRow } from '../db/dashboards';
import type { Queryable } from '../db/db';
import { listLocationRefsIn } from '../db/locations';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { parametersSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure } from '../http/responses';
import { locationScope, type LocationScope } from '../http/scope';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

/**
 * A stream ends after this long and the console opens the next one at once: each connection is authorised when it
 * opens, so a revoked permission or an expired session stops the figures within this time.
 */
export const STREAM_LIFETIME_MS = 5 * 60_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

const CSV_HEADER = ['Settled day', 'Location ID', 'Location', 'Payments', 'Gross', 'Fees', 'Refunds', 'Net'];
const dollars = (amountCents: number) => {
  const sign = amountCents < 0 ? '-' : '';
  const abs = Math.abs(amountCents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};
const csvRow = (row: SettledCsvRow) => [
  row.day,
  row.location_id,
  row.name,
  row.payments,
  dollars(row.gross_cents),
  dollars(row.fee_cents),
  dollars(row.refunded_cents),
  dollars(row.net_cents),
];

/**
 * The range in whole days, or the 400's sentence naming the field. A named range (default: the last 7 days) is
 * resolved in the zones of the locations asked about (settled-ranges.ts), so "yesterday" is yesterday there.
 */
async function settledRange(db: Queryable, scope: LocationScope, query: SettledQuery, locationId: number | undefined, now: Date) {
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value !== undefined && !isCalendarDate(value)) return `Invalid query: ${field}: ${value} is not a calendar date.`;
  }
  const zones = async () =>
    (await listLocationRefsIn(db, scope)).filter((ref) => locationId === undefined || ref.location_id === locationId).map((ref) => ref.time_zone);
  const named = query.from === undefined || query.to === undefined ? presetDays(query.range ?? 'last7', settledToday(await zones(), now.getTime())) : null;
  const to = query.to ?? named!.to;
  const from = query.from ?? (query.to === undefined ? named!.from : addDays(to, -6));
  const problem = settledRangeProblem(from, to);
  if (problem) return `Invalid query: ${from > to ? 'from' : 'to'}: ${problem}`;
  return { from, to };
}

export function registerDashboardRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);
  const feed = createChangeFeed(deps.db);

  /**
   * The feature at the door, then the one location asked for (before anything is read, so ids cannot be probed);
   * returns the location id or the refusal.
   */
  function admit(c: Context<StaffEnv>, feature: FeatureCode, locationId: string | undefined): number | undefined | Response {
    const record = c.get('staff').record;
    const name = feature === 'rd' ? 'the real-time dashboard' : 'the settled dashboard';
    if (!hasPermission(record, feature, 'view')) return c.json(failure(`You do not have permission to view ${name}.`), 403);
    if (locationId === undefined) return undefined;
    const id = Number(locationId);
    if (!hasPermission(record, feature, 'view', [id])) {
      return c.json(failure(`You do not have permission to view ${name} of location ${id}.`), 403);
    }
    return id;
  }

  const realtime = createRoute({
    method: 'get',
    path: REALTIME_DASHBOARD_PATH,
    tags: ['dashboards'],
    summary: "Today so far at the user's real-time dashboard locations, each in its own time zone",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(realtimeQuerySchema) },
    responses: {
      200: { description: 'Figures, hours and latest payments', content: json(responseSchema(successEnvelope(realtimeSummarySchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(realtime, async (c) => {
    const locationId = admit(c, 'rd', c.req.valid('query').locationId);
    if (locationId instanceof Response) return locationId as never;
    const scope = locationScope(c.get('staff').record, 'rd');
    return c.json({ success: true as const, data: await realtimeSummary(deps.db, scope, locationId, deps.now()) }, 200);
  });

  const stream = createRoute({
    method: 'get',
    path: REALTIME_STREAM_PATH,
    tags: ['dashboards'],
    summary: 'The real-time figures as Server-Sent Events: the whole summary at once and again after every change',
    description:
      'Each `summary` event carries the whole summary of GET /dashboards/realtime (never a difference), with the id ' +
      'of the last change it includes, so a reconnecting client replaces what it shows and cannot count twice. ' +
      `The stream ends after ${STREAM_LIFETIME_MS / 60_000} minutes; reconnect at once (permissions are checked per connection).`,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(realtimeQuerySchema) },
    responses: {
      200: { description: 'text/event-stream of `summary` events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(stream, async (c) => {
    const locationId = admit(c, 'rd', c.req.valid('query').locationId);
    if (locationId instanceof Response) return locationId as never;
    const scope = locationScope(c.get('staff').record, 'rd');
    let changed = true;
    let wake: (() => void) | undefined;
    const unsubscribe = await feed.subscribe(() => {
      changed = true;
      wake?.();
    });
    c.header('Cache-Control', 'no-store');
    return streamSSE(c, async (sse) => {
      let open = true;
      sse.onAbort(() => {
        open = false;
        wake?.();
      });
      const ends = Date.now() + STREAM_LIFETIME_MS;
      let lastId = 0;
      let lastFigures: string | undefined;
      try {
        while (open && Date.now() < ends) {
          if (changed) {
            changed = false;
            const summary = await realtimeSummary(deps.db, scope, locationId, deps.now());
            // The feed does not know where a change was: figures that did not move (a change at other locations,
            // or one already sent) are not sent again. Their time and id alone do not make them new.
            const figures = JSON.stringify({ ...summary, as_of: '', change_id: 0 });
            if (figures === lastFigures) continue;
            lastFigures = figures;
            // Ids never go back on one connection, even when changes commit out of their numbering.
            lastId = Math.max(lastId, summary.change_id);
            await sse.writeSSE({ event: 'summary', id: String(lastId), data: JSON.stringify(summary) });
            continue;
          }
          const woken = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), Math.min(KEEPALIVE_MS, Math.max(0, ends - Date.now())));
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          wake = undefined;
          if (!woken && open && Date.now() < ends) await sse.write(': keep-alive\n\n');
        }
      } finally {
        unsubscribe();
      }
    }) as never;
  });

  const settled = createRoute({
    method: 'get',
    path: SETTLED_DASHBOARD_PATH,
    tags: ['dashboards'],
    summary: "Settled money by day and location at the user's settled-dashboard locations",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(settledQuerySchema) },
    responses: {
      200: { description: 'Days, locations and totals', content: json(responseSchema(successEnvelope(settledDashboardSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(settled, async (c) => {
    const query = c.req.valid('query');
    const locationId = admit(c, 'sd', query.locationId);
    if (locationId instanceof Response) return locationId as never;
    const scope = locationScope(c.get('staff').record, 'sd');
    const range = await settledRange(deps.db, scope, query, locationId, deps.now());
    if (typeof range === 'string') return c.json(failure(range), 400);
    return c.json({ success: true as const, data: await settledDashboard(deps.db, scope, { ...range, locationId }) }, 200);
  });

  const exportCsv = createRoute({
    method: 'get',
    path: SETTLED_EXPORT_PATH,
    tags: ['dashboards'],
    summary: 'The settled dashboard as CSV: one row per day and location with settled money',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(settledQuerySchema) },
    responses: {
      200: { description: 'RFC 4180 CSV, UTF-8 with a byte-order mark', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(exportCsv, async (c) => {
    const query = c.req.valid('query');
    const locationId = admit(c, 'sd', query.locationId);
    if (locationId instanceof Response) return locationId as never;
    const scope = locationScope(c.get('staff').record, 'sd');
    const range = await settledRange(deps.db, scope, query, locationId, deps.now());
    if (typeof range === 'string') return c.json(failure(range), 400);
    const batches = settledRows(deps.db, scope, { ...range, locationId });
    return csvResponse(c, {
      fileName: csvFileName('settled', deps.now()),
      header: CSV_HEADER,
      batches: (async function* () {
        for await (const batch of batches) yield batch.map(csvRow);
      })(),
    }) as never;
  });
}
