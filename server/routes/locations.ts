import type { z } from '@hono/zod-openapi';
import {
  LOCATIONS_EXPORT_PATH,
  LOCATIONS_PATH,
  locationInputSchema,
  locationListQuerySchema,
  locationPageSchema,
  locationParamsSchema,
  locationSchema,
  locationUpdateSchema,
  locationDeletedSchema,
  locationDeleteSchema,
  locationStatusChangeSchema,
  type Location,
} from '../../src/contract/locations';
import type { AccessLevel } from '../../src/permissions/features';
import {
  createLocation,
  deleteLocation,
  findLocation,
  listLocationsPage,
  locationBatches,
  setLocationStatus,
  updateLocation,
  type LocationWriteResult,
} from '../db/locations';
import {
  locationViolationListSchema,
  locationViolationSchema,
  violationInputSchema,
  violationParamsSchema,
  violationUpdateSchema,
} from '../../src/contract/violations';
import { addViolation, listLocationViolations, updateViolation, type ViolationWriteResult } from '../db/violations';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { conflict, fieldProblems, notFound, ok, refused, versionConflict, type Outcome, type Refusal } from '../http/outcome';
import { serverSection } from '../http/section-kit';

const CSV_HEADER = ['Location ID', 'Name', 'Address', 'Time zone', 'Spaces', 'Status', 'Enforcement', 'Grace period (min)'];
const csvRow = (location: Location) => [
  location.location_id,
  location.name,
  location.address,
  location.time_zone,
  location.capacity,
  location.status,
  location.enforcement_enabled ? 'on' : 'off',
  location.grace_period_minutes,
];

const missing = (locationId: number | null) => notFound(`Location ${locationId} does not exist.`);

/** Why the repository refused a write, as the API says it: the 404, 409 or 400 that explains it. */
function refusalOf(locationId: number | null, result: Exclude<LocationWriteResult, { kind: 'ok' }>): Refusal {
  switch (result.kind) {
    case 'notFound':
      return missing(locationId);
    case 'duplicateName':
      return fieldProblems({ name: `A location named "${result.name}" already exists.` });
    case 'hasRecords':
      return conflict(
        `Location ${locationId} has payments, bookings or monthly parkers, so it cannot be deleted; deactivate it instead.`,
      );
    case 'conflict':
      return versionConflict(`Location ${locationId}`, result.conflict);
  }
}

const written = (locationId: number | null, result: LocationWriteResult): Outcome<Location> =>
  result.kind === 'ok' ? ok(result.location) : refusalOf(locationId, result);

/**
 * A location's own routes need the feature at that location, checked before the lookup, so that users outside a
 * location cannot probe which ids exist.
 */
const refusalAt = (lacking: (level: AccessLevel, ids: number[]) => number[], level: AccessLevel, locationId: number): Refusal | null =>
  lacking(level, [locationId]).length ? refused(`You do not have permission to ${level} location ${locationId}.`) : null;

export function registerLocationRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'locations', feature: 'lo', records: 'locations' });

  section.list({
    path: LOCATIONS_PATH,
    summary: 'Locations the user may view, filtered, sorted and paged on the server',
    query: locationListQuerySchema,
    page: locationPageSchema,
    read: ({ db, scope, query }, window) => listLocationsPage(db, scope(), query, window),
    csv: {
      path: LOCATIONS_EXPORT_PATH,
      summary: 'Every location the list shows for these filters, as CSV (streamed)',
      name: 'locations',
      header: CSV_HEADER,
      batches: ({ db, scope, query }) => locationBatches(db, scope(), query),
      row: csvRow,
    },
  });

  section.route({
    method: 'post',
    path: LOCATIONS_PATH,
    summary: 'Adds a location (needs location add permission, canAddLocation)',
    access: { level: 'add' },
    body: locationInputSchema,
    data: locationSchema,
    answers: 'The new location',
    writes: true,
    handle: async ({ db, actor, body }) => written(null, await createLocation(db, actor, body)),
  });

  section.route({
    method: 'get',
    path: `${LOCATIONS_PATH}/{locationId}`,
    summary: 'One location, if the user may view it',
    access: { level: 'view' },
    params: locationParamsSchema,
    data: locationSchema,
    answers: 'The location',
    errors: [404],
    handle: async ({ db, params: { locationId }, lacking }) => {
      const refusal = refusalAt(lacking, 'view', locationId);
      if (refusal) return refusal;
      const location = await findLocation(db, locationId);
      return location ? ok(location) : missing(locationId);
    },
  });

  section.history({
    path: `${LOCATIONS_PATH}/{locationId}/history`,
    summary: "The location's audit trail, newest first",
    params: locationParamsSchema,
    trail: ({ locationId }) => ({ entity: 'location', id: locationId }),
    hidden: ({ params: { locationId }, lacking }) => refusalAt(lacking, 'view', locationId),
  });

  section.route({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}`,
    summary: 'Saves an edit made from `version` (location edit permission there); 409 if it changed since',
    access: { level: 'edit' },
    params: locationParamsSchema,
    body: locationUpdateSchema,
    data: locationSchema,
    answers: 'The saved location',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, params: { locationId }, body, lacking }) =>
      refusalAt(lacking, 'edit', locationId) ?? written(locationId, await updateLocation(db, actor, locationId, body)),
  });

  section.route({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}/status`,
    summary: 'Deactivates or activates a location (location edit permission there)',
    access: { level: 'edit' },
    params: locationParamsSchema,
    body: locationStatusChangeSchema,
    data: locationSchema,
    answers: 'The location',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, params: { locationId }, body, lacking }) =>
      refusalAt(lacking, 'edit', locationId) ?? written(locationId, await setLocationStatus(db, actor, locationId, body)),
  });

  section.route({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}/delete`,
    summary: 'Deletes a location that has no records (location delete permission there)',
    access: { level: 'delete' },
    params: locationParamsSchema,
    body: locationDeleteSchema,
    data: locationDeletedSchema,
    answers: 'Deleted',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, params: { locationId }, body, lacking }) => {
      const refusal = refusalAt(lacking, 'delete', locationId);
      if (refusal) return refusal;
      const result = await deleteLocation(db, actor, locationId, body.version);
      return result.kind === 'deleted' ? ok({ deleted: true as const }) : refusalOf(locationId, result);
    },
  });

  registerViolationRoutes(section);
}

/** Why a violation write was refused, as the API says it. */
function violationWritten(locationId: number, code: string | null, result: ViolationWriteResult): Outcome<z.input<typeof locationViolationSchema>> {
  switch (result.kind) {
    case 'ok':
      return ok(result.violation);
    case 'notFound':
      return code === null ? missing(locationId) : notFound(`Location ${locationId} has no violation "${code}".`);
    case 'labelTaken':
      return fieldProblems({ label: `An active violation named "${result.label}" exists at this location already.` });
    case 'conflict':
      return versionConflict(`The violation "${code}"`, result.conflict);
  }
}

/**
 * A location's violations (docs/decisions/0097): read with location view there, changed with location edit there,
 * each change on the location's History. Never deleted: citations name them.
 */
function registerViolationRoutes(section: ReturnType<typeof serverSection>): void {
  section.route({
    method: 'get',
    path: `${LOCATIONS_PATH}/{locationId}/violations`,
    summary: "The location's violations with their usual fines, active or not, in the order officers see them",
    access: { level: 'view' },
    params: locationParamsSchema,
    data: locationViolationListSchema,
    answers: 'The violations',
    errors: [404],
    handle: async ({ db, params: { locationId }, lacking }) => {
      const refusal = refusalAt(lacking, 'view', locationId);
      if (refusal) return refusal;
      return (await findLocation(db, locationId)) ? ok(await listLocationViolations(db, locationId)) : missing(locationId);
    },
  });

  section.route({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}/violations`,
    summary: "Adds a violation at the end of the location's list (location edit permission there); its code is made from the label",
    access: { level: 'edit' },
    params: locationParamsSchema,
    body: violationInputSchema,
    data: locationViolationSchema,
    answers: 'The new violation',
    errors: [404],
    writes: true,
    handle: async ({ db, actor, params: { locationId }, body, lacking }) => {
      const refusal = refusalAt(lacking, 'edit', locationId);
      if (refusal) return refusal;
      if (!(await findLocation(db, locationId))) return missing(locationId);
      return violationWritten(locationId, null, await addViolation(db, actor, locationId, body));
    },
  });

  section.route({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}/violations/{code}`,
    summary:
      'Relabels a violation, changes its usual fine, deactivates or activates it, from `version` (location edit permission there); 409 if it changed since',
    access: { level: 'edit' },
    params: violationParamsSchema,
    body: violationUpdateSchema,
    data: locationViolationSchema,
    answers: 'The saved violation',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, params: { locationId, code }, body, lacking }) => {
      const refusal = refusalAt(lacking, 'edit', locationId);
      if (refusal) return refusal;
      if (!(await findLocation(db, locationId))) return missing(locationId);
      return violationWritten(locationId, code, await updateViolation(db, actor, locationId, code, body));
    },
  });
}
