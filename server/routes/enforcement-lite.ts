import {
  invitedLiteOfficerSchema,
  LITE_LOCATION_CHOICES_PATH,
  LITE_LOCATIONS_PATH,
  LITE_OFFICERS_PATH,
  liteLocationChoicesSchema,
  liteLocationInputSchema,
  liteLocationListQuerySchema,
  liteLocationPageSchema,
  liteLocationParamsSchema,
  liteLocationSchema,
  liteLocationUpdateSchema,
  liteOfficerInviteSchema,
  liteOfficerListQuerySchema,
  liteOfficerPageSchema,
  liteOfficerParamsSchema,
  liteOfficerSchema,
  liteOfficerUpdateSchema,
  type LiteLocation,
} from '../../src/contract/enforcement-lite';
import type { StaffAccounts } from '../auth/staff-accounts';
import {
  checkOfficerInvite,
  createLiteLocation,
  findLiteLocation,
  findLiteOfficer,
  inviteLiteOfficer,
  listLiteLocationChoices,
  listLiteLocationsPage,
  listLiteOfficersPage,
  updateLiteLocation,
  updateLiteOfficer,
  type LiteLocationWriteResult,
  type LiteOfficerWriteResult,
} from '../db/enforcement-lite';
import { AUDIT_ENTITY_USER } from '../db/staff-identity';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { conflict, fieldProblems, notFound, ok, refused, versionConflict, type Outcome, type Refusal } from '../http/outcome';
import { serverSection, type Access } from '../http/section-kit';

/** Spec §2/§6: every call is refused with 403 unless the caller is a superuser, before anything is read. */
const SUPERUSER: Access = { superuserOnly: 'Only a superuser may manage Enforcement Lite.' };

const missingLocation = (locationId: number | null) => notFound(`Lite location ${locationId} does not exist.`);
const missingOfficer = (userId: number | null) => notFound(`Lite officer ${userId} does not exist.`);

function locationWritten(locationId: number | null, result: LiteLocationWriteResult): Outcome<LiteLocation> {
  switch (result.kind) {
    case 'ok':
      return ok(result.location);
    case 'notFound':
      return missingLocation(locationId);
    case 'duplicateName':
      return fieldProblems({ name: `A location named "${result.name}" already exists.` });
    case 'conflict':
      return versionConflict(`Lite location ${locationId}`, result.conflict);
  }
}

/** Why an officer write was refused; its `ok` is answered by the route (the invite adds the set-password link). */
function officerRefusal(userId: number | null, result: Exclude<LiteOfficerWriteResult, { kind: 'ok' }>): Refusal {
  switch (result.kind) {
    case 'notFound':
      return missingOfficer(userId);
    case 'duplicateEmail':
      return fieldProblems({ email: `${result.email} is a staff member already.` });
    case 'notLiteLocations':
      return fieldProblems({ location_ids: `No Enforcement Lite location with id ${result.ids.join(', ')}.` });
    case 'self':
      return refused('Nobody changes their own account here: ask another superuser.');
    case 'conflict':
      return versionConflict(`Lite officer ${userId}`, result.conflict);
  }
}

/** Enforcement Lite (issue 14, docs/enforcement-lite.md): lite locations and their officers, for superusers. */
export function registerEnforcementLiteRoutes(app: ApiApp, deps: RouteDeps, staffAccounts: StaffAccounts | undefined): void {
  const section = serverSection(app, deps, { tag: 'enforcement-lite', records: 'Enforcement Lite' });

  section.list({
    path: LITE_LOCATIONS_PATH,
    summary: 'Lite locations, searched, filtered, sorted and paged on the server (superuser)',
    access: SUPERUSER,
    query: liteLocationListQuerySchema,
    page: liteLocationPageSchema,
    read: ({ db, query }, window) => listLiteLocationsPage(db, query, window),
  });

  section.route({
    method: 'get',
    path: LITE_LOCATION_CHOICES_PATH,
    summary: 'Every lite location by name, for the officer form (superuser)',
    access: SUPERUSER,
    data: liteLocationChoicesSchema,
    answers: 'Lite locations',
    handle: async ({ db }) => ok(await listLiteLocationChoices(db)),
  });

  section.route({
    method: 'post',
    path: LITE_LOCATIONS_PATH,
    summary: 'Adds a lite location, enforcement on (superuser)',
    access: SUPERUSER,
    body: liteLocationInputSchema,
    data: liteLocationSchema,
    answers: 'The new lite location',
    writes: true,
    handle: async ({ db, actor, body }) => locationWritten(null, await createLiteLocation(db, actor, body)),
  });

  section.route({
    method: 'get',
    path: `${LITE_LOCATIONS_PATH}/{locationId}`,
    summary: 'One lite location (superuser)',
    access: SUPERUSER,
    params: liteLocationParamsSchema,
    data: liteLocationSchema,
    answers: 'The lite location',
    errors: [404],
    handle: async ({ db, params: { locationId } }) => {
      const location = await findLiteLocation(db, locationId);
      return location ? ok(location) : missingLocation(locationId);
    },
  });

  section.history({
    path: `${LITE_LOCATIONS_PATH}/{locationId}/history`,
    summary: "The lite location's audit trail, newest first (superuser)",
    access: SUPERUSER,
    params: liteLocationParamsSchema,
    trail: ({ locationId }) => ({ entity: 'location', id: locationId }),
  });

  section.route({
    method: 'post',
    path: `${LITE_LOCATIONS_PATH}/{locationId}`,
    summary: 'Saves a lite location from `version`, status included (superuser); 409 if it changed since',
    access: SUPERUSER,
    params: liteLocationParamsSchema,
    body: liteLocationUpdateSchema,
    data: liteLocationSchema,
    answers: 'The saved lite location',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, params: { locationId }, body }) =>
      locationWritten(locationId, await updateLiteLocation(db, actor, locationId, body)),
  });

  section.list({
    path: LITE_OFFICERS_PATH,
    summary: 'Lite officers, searched, filtered, sorted and paged on the server (superuser)',
    access: SUPERUSER,
    query: liteOfficerListQuerySchema,
    page: liteOfficerPageSchema,
    read: ({ db, query }, window) => listLiteOfficersPage(db, query, window),
  });

  section.route({
    method: 'post',
    path: LITE_OFFICERS_PATH,
    summary: 'Adds a lite officer (superuser): creates the sign-in account and returns the set-password link',
    access: SUPERUSER,
    body: liteOfficerInviteSchema,
    data: invitedLiteOfficerSchema,
    answers: 'The new officer and the link',
    errors: [409],
    // Not `writes`: the sign-in account is created between the check and the write, and no transaction is held open
    // while the identity provider answers. inviteLiteOfficer checks again in the transaction that writes the row.
    handle: async ({ db, actor, body, now }) => {
      const early = await checkOfficerInvite(db, body);
      if (early && early.kind !== 'ok') return officerRefusal(null, early);
      if (!staffAccounts) return conflict('This server runs without an identity provider, so it cannot add officers.');
      const account = await staffAccounts.invite({ email: body.email, displayName: body.display_name });
      const result = await deps.db.transaction((tx) => inviteLiteOfficer(tx, actor, body, account.uid, now));
      if (result.kind !== 'ok') return officerRefusal(null, result);
      return ok({ officer: result.officer, setPasswordLink: account.setPasswordLink });
    },
  });

  section.route({
    method: 'get',
    path: `${LITE_OFFICERS_PATH}/{userId}`,
    summary: 'One lite officer (superuser)',
    access: SUPERUSER,
    params: liteOfficerParamsSchema,
    data: liteOfficerSchema,
    answers: 'The officer',
    errors: [404],
    handle: async ({ db, params: { userId } }) => {
      const officer = await findLiteOfficer(db, userId);
      return officer ? ok(officer) : missingOfficer(userId);
    },
  });

  section.history({
    path: `${LITE_OFFICERS_PATH}/{userId}/history`,
    summary: "The lite officer's audit trail, newest first (superuser)",
    access: SUPERUSER,
    params: liteOfficerParamsSchema,
    trail: ({ userId }) => ({ entity: AUDIT_ENTITY_USER, id: userId }),
  });

  section.route({
    method: 'post',
    path: `${LITE_OFFICERS_PATH}/{userId}`,
    summary: 'Saves name, locations and status from `version` (superuser); takes effect on the next call; 409 if it changed',
    access: SUPERUSER,
    params: liteOfficerParamsSchema,
    body: liteOfficerUpdateSchema,
    data: liteOfficerSchema,
    answers: 'The saved officer',
    errors: [404, 409],
    writes: true,
    handle: async ({ db, actor, params: { userId }, body }) => {
      const result = await updateLiteOfficer(db, actor, userId, body);
      return result.kind === 'ok' ? ok(result.officer) : officerRefusal(userId, result);
    },
  });
}
