import * as z from 'zod/mini';
import {
  LITE_LOCATION_SORT_KEYS,
  LITE_LOCATION_STATUSES,
  LITE_OFFICER_SORT_KEYS,
  LITE_OFFICER_STATUSES,
  type EnforcementLiteSearch,
  type LiteLocationListQuery,
  type LiteOfficerListQuery,
} from './enforcement-lite-search';
import { canonicalIdParam, MAX_INT_ID } from './ids';
import { pagedSchema } from './lists';
import { locationFieldsShape } from './locations';
import { userInviteSchema } from './users';

export * from './enforcement-lite-search';

/**
 * Enforcement Lite (issue 14, docs/enforcement-lite.md): locations of operators who only enforce, and their
 * officers, who get exactly enforcement view at the lite locations they are given. Superusers only.
 */
export const LITE_LOCATIONS_PATH = '/enforcement-lite/locations';
export const LITE_LOCATION_CHOICES_PATH = '/enforcement-lite/location-choices';
export const LITE_OFFICERS_PATH = '/enforcement-lite/officers';
/** More than this many locations for one officer is a mistake, and keeps the request small. */
export const MAX_OFFICER_LOCATIONS = 200;

const operatorName = z.pipe(
  z.string('Enter the operator name.'),
  z.pipe(
    z.transform((value: string) => value.trim()),
    z.string().check(
      z.minLength(1, 'Enter the operator name.'),
      z.maxLength(120, 'The operator name must be at most 120 characters.'),
    ),
  ),
);
const versionField = z.int('The version must be a whole number.').check(z.positive('The version must be positive.'));

/** The lite location form: enforcement is always on, so it is not a field. */
export const liteLocationFieldsShape = {
  name: locationFieldsShape.name,
  address: locationFieldsShape.address,
  time_zone: locationFieldsShape.time_zone,
  capacity: locationFieldsShape.capacity,
  grace_period_minutes: locationFieldsShape.grace_period_minutes,
  operator_name: operatorName,
  status: z.enum(LITE_LOCATION_STATUSES, 'Choose Active or Inactive.'),
};
export const liteLocationInputSchema = z.strictObject(liteLocationFieldsShape);
export type LiteLocationInput = z.infer<typeof liteLocationInputSchema>;
export type LiteLocationFormValues = z.input<typeof liteLocationInputSchema>;
export const liteLocationUpdateSchema = z.strictObject({ ...liteLocationFieldsShape, version: versionField });
export type LiteLocationUpdate = z.infer<typeof liteLocationUpdateSchema>;

export const liteLocationSchema = z.object({
  location_id: z.int().check(z.positive()),
  name: z.string(),
  address: z.string(),
  time_zone: z.string(),
  capacity: z.int().check(z.nonnegative()),
  grace_period_minutes: z.int().check(z.nonnegative()),
  operator_name: z.string(),
  status: z.enum(LITE_LOCATION_STATUSES),
  /** Officers (active or not) given this location. */
  officer_count: z.int().check(z.nonnegative()),
  version: z.int().check(z.positive()),
  updated_at: z.string(),
});
export type LiteLocation = z.infer<typeof liteLocationSchema>;
export const liteLocationPageSchema = pagedSchema(liteLocationSchema);
export const liteLocationParamsSchema = z.object({ locationId: canonicalIdParam() });

/** Every lite location, for the officer form's choice. */
export const liteLocationChoicesSchema = z.array(
  z.object({ location_id: z.int().check(z.positive()), name: z.string(), status: z.enum(LITE_LOCATION_STATUSES) }),
);
export type LiteLocationChoice = z.infer<typeof liteLocationChoicesSchema>[number];

const locationIds = z.pipe(
  z.array(
    z.int('Choose locations from the list.').check(
      z.positive('Choose locations from the list.'),
      z.lte(MAX_INT_ID, 'Choose locations from the list.'),
    ),
    'Choose the locations this officer enforces.',
  ),
  z.pipe(
    z.transform((ids: number[]) => [...new Set(ids)].sort((a, b) => a - b)),
    z.array(z.int()).check(
      z.minLength(1, 'Choose at least one location.'),
      z.maxLength(MAX_OFFICER_LOCATIONS, `Choose at most ${MAX_OFFICER_LOCATIONS} locations.`),
    ),
  ),
);

export const liteOfficerInviteSchema = z.strictObject({
  email: userInviteSchema.shape.email,
  display_name: userInviteSchema.shape.display_name,
  location_ids: locationIds,
});
export type LiteOfficerInvite = z.infer<typeof liteOfficerInviteSchema>;
export type LiteOfficerInviteValues = z.input<typeof liteOfficerInviteSchema>;
export const liteOfficerUpdateSchema = z.strictObject({
  display_name: userInviteSchema.shape.display_name,
  location_ids: locationIds,
  status: z.enum(LITE_OFFICER_STATUSES, 'Choose Active or Disabled.'),
  version: versionField,
});
export type LiteOfficerUpdate = z.infer<typeof liteOfficerUpdateSchema>;
export type LiteOfficerUpdateValues = z.input<typeof liteOfficerUpdateSchema>;

export const liteOfficerSchema = z.object({
  user_id: z.int().check(z.positive()),
  email: z.string(),
  display_name: z.nullable(z.string()),
  location_ids: z.array(z.int()),
  /** The same locations by name, in name order. */
  location_names: z.array(z.string()),
  status: z.enum(LITE_OFFICER_STATUSES),
  last_sign_in_at: z.nullable(z.string()),
  linked: z.boolean(),
  version: z.int().check(z.positive()),
  updated_at: z.string(),
});
export type LiteOfficer = z.infer<typeof liteOfficerSchema>;
export const liteOfficerPageSchema = pagedSchema(liteOfficerSchema);
export const liteOfficerParamsSchema = z.object({ userId: canonicalIdParam() });
export const invitedLiteOfficerSchema = z.object({
  officer: liteOfficerSchema,
  /** Where the officer sets their password (locally: the Auth emulator's page). */
  setPasswordLink: z.string(),
});

const only = <T extends string>(allowed: readonly T[], value: string | undefined): T | undefined =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

/** The shown list's query: what belongs to the other list (its sort keys, its statuses) is left out. */
export function liteListQueries(search: EnforcementLiteSearch) {
  const { q, dir, page, pageSize } = search;
  const common = { q, dir, page, pageSize };
  return {
    locations: {
      ...common,
      status: only(LITE_LOCATION_STATUSES, search.status),
      sort: only(LITE_LOCATION_SORT_KEYS, search.sort),
    } satisfies LiteLocationListQuery,
    officers: {
      ...common,
      status: only(LITE_OFFICER_STATUSES, search.status),
      sort: only(LITE_OFFICER_SORT_KEYS, search.sort),
      locationId: search.locationId,
    } satisfies LiteOfficerListQuery,
  };
}
