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
import { addDays, presetDays, settledRangeProblem, settledToday } from '../../src/contract/settled-ranges';
import { isCalendarDate } from '../../src/contract/transactions';
import type { LocationScope } from '../../src/permissions/scope';
import { createChangeFeed } from '../dashboards/change-feed';
import { realtimeSummary, settledDashboard, settledRows, type SettledCsvRow } from '../db/dashboards';
import type { Queryable } from '../db/db';
import { listLocationRefsIn } from '../db/locations';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { badRequest, ok, refused, type Refusal } from '../http/outcome';
import { serverSection, type SectionRequest } from '../http/section-kit';

/**
 * A stream ends after this long and the console opens the next one at once: each connection is authorised when it
 * opens, so a revoked permission or an expired session stops the figures within this time.
 */
export const STREAM_LIFETIME_MS = 5 * 60_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

const REALTIME = 'the real-time dashboard';
const SETTLED = 'the settled dashboard';

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

type DashboardRequest = Pick<SectionRequest<unknown, unknown, unknown, unknown>, 'db' | 'now' | 'lacking' | 'scope'>;

/**
 * The one location asked for (spec §5), or all of the user's: refused before anything is read, so ids cannot be
 * probed. The feature itself was checked at the door (the section's access).
 */
function askedLocation({ lacking }: DashboardRequest, dashboard: string, locationId: string | undefined): number | undefined | Refusal {
  if (locationId === undefined) return undefined;
  const id = Number(locationId);
  return lacking('view', [id]).length ? refused(`You do not have permission to view ${dashboard} of location ${id}.`) : id;
}

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

/** What the settled dashboard and its export show: the location asked for, the range, and where to look. */
async function settledAsked(request: DashboardRequest, query: SettledQuery) {
  const locationId = askedLocation(request, SETTLED, query.locationId);
  if (typeof locationId === 'object') return locationId;
  const scope = request.scope();
  const range = await settledRange(request.db, scope, query, locationId, request.now);
  if (typeof range === 'string') return badRequest(range);
  return { kind: 'asked' as const, scope, filter: { ...range, locationId } };
}

export function registerDashboardRoutes(app: ApiApp, deps: RouteDeps): void {
  const realtime = serverSection(app, deps, { tag: 'dashboards', feature: 'rd', records: REALTIME });
  const settled = serverSection(app, deps, { tag: 'dashboards', feature: 'sd', records: SETTLED });
  const feed = createChangeFeed(deps.db);

  realtime.route({
    method: 'get',
    path: REALTIME_DASHBOARD_PATH,
    summary: "Today so far at the user's real-time dashboard locations, each in its own time zone",
    access: { level: 'view' },
    query: realtimeQuerySchema,
    data: realtimeSummarySchema,
    answers: 'Figures, hours and latest payments',
    handle: async (request) => {
      const locationId = askedLocation(request, REALTIME, request.query.locationId);
      if (typeof locationId === 'object') return locationId;
      return ok(await realtimeSummary(request.db, request.scope(), locationId, request.now));
    },
  });

  realtime.answer({
    method: 'get',
    path: REALTIME_STREAM_PATH,
    summary: 'The real-time figures as Server-Sent Events: the whole summary at once and again after every change',
    description:
      'Each `summary` event carries the whole summary of GET /dashboards/realtime (never a difference), with the id ' +
      'of the last change it includes, so a reconnecting client replaces what it shows and cannot count twice. ' +
      `The stream ends after ${STREAM_LIFETIME_MS / 60_000} minutes; reconnect at once (permissions are checked per connection).`,
    access: { level: 'view' },
    query: realtimeQuerySchema,
    mediaType: 'text/event-stream',
    answers: 'text/event-stream of `summary` events',
    handle: async (request) => {
      const locationId = askedLocation(request, REALTIME, request.query.locationId);
      if (typeof locationId === 'object') return locationId;
      const scope = request.scope();
      let changed = true;
      let wake: (() => void) | undefined;
      const unsubscribe = await feed.subscribe(() => {
        changed = true;
        wake?.();
      });
      request.c.header('Cache-Control', 'no-store');
      return streamSSE(request.c, async (sse) => {
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
              // Each summary at its own time: a stream lives for minutes.
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
      });
    },
  });

  settled.route({
    method: 'get',
    path: SETTLED_DASHBOARD_PATH,
    summary: "Settled money by day and location at the user's settled-dashboard locations",
    access: { level: 'view' },
    query: settledQuerySchema,
    data: settledDashboardSchema,
    answers: 'Days, locations and totals',
    handle: async (request) => {
      const asked = await settledAsked(request, request.query);
      return asked.kind === 'asked' ? ok(await settledDashboard(request.db, asked.scope, asked.filter)) : asked;
    },
  });

  settled.answer({
    method: 'get',
    path: SETTLED_EXPORT_PATH,
    summary: 'The settled dashboard as CSV: one row per day and location with settled money',
    access: { level: 'view' },
    query: settledQuerySchema,
    mediaType: 'text/csv',
    answers: 'RFC 4180 CSV, UTF-8 with a byte-order mark',
    handle: async (request) => {
      const asked = await settledAsked(request, request.query);
      if (asked.kind !== 'asked') return asked;
      const batches = settledRows(request.db, asked.scope, asked.filter);
      return csvResponse(request.c, {
        fileName: csvFileName('settled', request.now),
        header: CSV_HEADER,
        batches: (async function* () {
          for await (const batch of batches) yield batch.map(csvRow);
        })(),
      });
    },
  });
}
