import * as z from 'zod/mini';

/** Feature codes of spec §6, with the names the product uses for them. */
export const FEATURES = {
  pc: 'promoCodes',
  ur: 'userRoles',
  u: 'users',
  rs: 'rateSettings',
  e: 'enforcement',
  rp: 'refundPortal',
  rd: 'real_time_dashboard',
  sd: 'settledDashboard',
  lo: 'location',
} as const;

export type FeatureCode = keyof typeof FEATURES;
export const FEATURE_CODES = Object.keys(FEATURES) as FeatureCode[];

/** Access levels from lowest to highest: each level implies every level before it. */
export const ACCESS_LEVELS = ['view', 'add', 'edit', 'delete'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The short keys a permission record uses for each level (spec §3: v, a, e, d). */
export const LEVEL_KEYS = { view: 'v', add: 'a', edit: 'e', delete: 'd' } as const satisfies Record<AccessLevel, string>;

const locationIds = z._default(z.array(z.int().check(z.positive())), []);

export const featureGrantSchema = z.strictObject({ v: locationIds, a: locationIds, e: locationIds, d: locationIds });
export type FeatureGrant = z.infer<typeof featureGrantSchema>;

const featureGrant = z.optional(featureGrantSchema);

/**
 * A permission record as stored for a user: per feature, four lists of location ids; `su` marks a superuser.
 * A feature that is absent grants nothing.
 */
export const permissionRecordSchema = z.strictObject({
  su: z._default(z.boolean(), false),
  pc: featureGrant,
  ur: featureGrant,
  u: featureGrant,
  rs: featureGrant,
  e: featureGrant,
  rp: featureGrant,
  rd: featureGrant,
  sd: featureGrant,
  lo: featureGrant,
});
export type PermissionRecord = z.infer<typeof permissionRecordSchema>;
export type PermissionRecordInput = z.input<typeof permissionRecordSchema>;
