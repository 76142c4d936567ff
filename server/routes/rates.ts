import {
  RATES_PATH,
  rateChangeCancelSchema,
  rateChangeDetailSchema,
  rateChangeInputSchema,
  rateChangeListQuerySchema,
  rateChangePageSchema,
  rateChangeParamsSchema,
  rateConfigUpdateSchema,
  rateLocationParamsSchema,
  rateLocationRefsSchema,
  rateLocationSchema,
  type RateChange,
  type RateChangeInput,
} from '../../src/contract/rates';
import type { AccessLevel } from '../../src/permissions/features';
import { validate } from '../../src/rates/validate';
import {
  RATES_AUDIT_ENTITY,
  cancelRateChange,
  findRateChange,
  findRateLocation,
  listRateChangesPage,
  rateChangeBatches,
  rateLocationRefs,
  scheduleRateChange,
  updateRateConfig,
  type RateWriteResult,
} from '../db/rates';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { changeAuthor, conflict, fieldProblems, notFound, ok, refused, type Outcome, type Refusal } from '../http/outcome';
import { serverSection, type SectionRequest } from '../http/section-kit';

const CSV_HEADER = ['Change ID', 'Location ID', 'Location', 'Time zone', 'Effective at (UTC)', 'Status', 'Reason', 'Scheduled by', 'Scheduled at (UTC)', 'Cancelled by', 'Cancelled at (UTC)'];
const csvRow = (change: RateChange) => [
  change.rate_set_id,
  change.location_id,
  change.location_name,
  change.time_zone,
  change.effective_at,
  change.status,
  change.reason,
  change.created_by?.email ?? '',
  change.created_at,
  change.cancelled_by?.email ?? '',
  change.cancelled_at ?? '',
];

/** A change may be scheduled for now: a minute of slack for the time the request took. */
const SCHEDULE_SLACK_MS = 60_000;

function written<T>(what: string, result: RateWriteResult<T>): Outcome<T> {
  switch (result.kind) {
    case 'ok':
      return ok(result.value);
    case 'notFound':
      return notFound(`${what} does not exist.`);
    case 'notScheduled':
      return conflict(`${what} is ${result.status}, so it cannot be cancelled any more.`);
    case 'conflict':
      return conflict(
        `The rates of ${what.toLowerCase()} were changed by ${changeAuthor(result.conflict)} after you opened them. Reload to see their version; nothing was saved.`,
        result.conflict,
      );
  }
}

/** Every problem of a change to schedule, by field: each validate problem of its rate set, and a time in the past. */
function scheduleProblems(input: RateChangeInput, now: Date): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const problem of validate(input.rate_set)) {
    const key = `rate_set.${problem.path}`;
    fieldErrors[key] = fieldErrors[key] ? `${fieldErrors[key]} ${problem.message}` : problem.message;
  }
  if (Date.parse(input.effective_at) < now.getTime() - SCHEDULE_SLACK_MS) {
    fieldErrors.effective_at = 'The change must take effect now or later.';
  }
  return fieldErrors;
}

type Request = Pick<SectionRequest<unknown, unknown, unknown, unknown>, 'lacking'>;

/** Spec §5 for a location named in the path: the user must hold rate settings at `level` there. */
function refusalAt({ lacking }: Request, level: AccessLevel, locationId: number): Refusal | null {
  return lacking(level, [locationId]).length ? refused(`You do not have permission to ${level} the rates of location ${locationId}.`) : null;
}

const changeMissing = (rateSetId: number) => notFound(`Rate change ${rateSetId} does not exist, or not at one of your locations.`);

export function registerRateRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'rates', feature: 'rs', records: 'rates' });

  section.route({
    method: 'get',
    path: `${RATES_PATH}/locations`,
    summary: 'The locations whose rates the user may view',
    access: { level: 'view' },
    data: rateLocationRefsSchema,
    answers: 'Id, name and time zone of each',
    handle: async ({ db, scope }) => ok(await rateLocationRefs(db, scope())),
  });

  section.route({
    method: 'get',
    path: `${RATES_PATH}/locations/{locationId}`,
    summary: "A location's configuration, the rate set in force now and the next scheduled change",
    access: { level: 'view' },
    params: rateLocationParamsSchema,
    data: rateLocationSchema,
    answers: 'The location’s rates',
    errors: [404],
    handle: async (request) => {
      const { locationId } = request.params;
      const refusal = refusalAt(request, 'view', locationId);
      if (refusal) return refusal;
      const found = await findRateLocation(request.db, locationId, request.now);
      return found ? ok(found) : notFound(`Location ${locationId} does not exist.`);
    },
  });

  section.history({
    path: `${RATES_PATH}/locations/{locationId}/history`,
    summary: "The audit trail of a location's rates, newest first",
    params: rateLocationParamsSchema,
    trail: ({ locationId }) => ({ entity: RATES_AUDIT_ENTITY, id: locationId }),
    hidden: (request) => refusalAt(request, 'view', request.params.locationId),
  });

  section.route({
    method: 'post',
    path: `${RATES_PATH}/locations/{locationId}/config`,
    summary: "Saves a location's rate configuration edited from `version` (rate settings edit there); 409 if it changed",
    access: { level: 'edit' },
    params: rateLocationParamsSchema,
    body: rateConfigUpdateSchema,
    data: rateLocationSchema,
    answers: 'The location’s rates',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { locationId } = request.params;
      return (
        refusalAt(request, 'edit', locationId) ??
        written(`Location ${locationId}`, await updateRateConfig(request.db, request.actor, locationId, request.body, request.now))
      );
    },
  });

  section.route({
    method: 'post',
    path: `${RATES_PATH}/locations/{locationId}/changes`,
    summary: 'Schedules a rate set to take effect at `effective_at` (rate settings edit there); refused with every validate problem',
    access: { level: 'edit' },
    params: rateLocationParamsSchema,
    body: rateChangeInputSchema,
    data: rateChangeDetailSchema,
    answers: 'The scheduled change',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { locationId } = request.params;
      const refusal = refusalAt(request, 'edit', locationId);
      if (refusal) return refusal;
      const problems = scheduleProblems(request.body, request.now);
      if (Object.keys(problems).length > 0) return fieldProblems(problems);
      return written(`Location ${locationId}`, await scheduleRateChange(request.db, request.actor, locationId, request.body, request.now));
    },
  });

  // The export is registered before /rates/changes/{rateSetId}, which would otherwise take "export" for an id.
  section.list({
    path: `${RATES_PATH}/changes`,
    summary: "Scheduled, applied and cancelled rate changes of the user's locations, filtered, sorted and paged",
    query: rateChangeListQuerySchema,
    page: rateChangePageSchema,
    locationFilter: 'the rate changes',
    read: ({ db, scope, query, now }, window) => listRateChangesPage(db, scope(), query, window, now),
    csv: {
      path: `${RATES_PATH}/changes/export`,
      summary: 'Every rate change the list shows for these filters, as CSV (streamed)',
      name: 'rate-changes',
      header: CSV_HEADER,
      batches: ({ db, scope, query, now }) => rateChangeBatches(db, scope(), query, now),
      row: csvRow,
    },
  });

  section.route({
    method: 'get',
    path: `${RATES_PATH}/changes/{rateSetId}`,
    summary: 'One rate change with its rate set; 404 alike when missing or not at one of the user’s locations',
    access: { level: 'view' },
    params: rateChangeParamsSchema,
    data: rateChangeDetailSchema,
    answers: 'The change',
    errors: [404],
    handle: async ({ db, lacking, now, params: { rateSetId } }) => {
      const change = await findRateChange(db, rateSetId, now);
      return change && !lacking('view', [change.location_id]).length ? ok(change) : changeMissing(rateSetId);
    },
  });

  section.route({
    method: 'post',
    path: `${RATES_PATH}/changes/{rateSetId}/cancel`,
    summary: 'Cancels a scheduled change (rate settings edit at its location); 409 once applied or if the schedule moved on',
    access: { level: 'edit' },
    params: rateChangeParamsSchema,
    body: rateChangeCancelSchema,
    data: rateChangeDetailSchema,
    answers: 'The cancelled change',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { rateSetId } = request.params;
      const change = await findRateChange(request.db, rateSetId, request.now);
      if (!change || request.lacking('view', [change.location_id]).length) return changeMissing(rateSetId);
      return (
        refusalAt(request, 'edit', change.location_id) ??
        written(`Rate change ${rateSetId}`, await cancelRateChange(request.db, request.actor, change, request.body.schedule_version, request.now))
      );
    },
  });
}
