import { z } from 'zod';

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

const locationIds = z.array(z.number().int().positive()).default([]);

export const featureGrantSchema = z
  .object({ v: locationIds, a: locationIds, e: locationIds, d: locationIds })
  .strict();
export type FeatureGrant = z.infer<typeof featureGrantSchema>;

/**
 * A permission record as stored for a user: per feature, four lists of location ids; `su` marks a superuser.
 * A feature that is absent grants nothing.
 */
export const permissionRecordSchema = z
  .object({
    su: z.boolean().default(false),
    pc: featureGrantSchema.optional(),
    ur: featureGrantSchema.optional(),
    u: featureGrantSchema.optional(),
    rs: featureGrantSchema.optional(),
    e: featureGrantSchema.optional(),
    rp: featureGrantSchema.optional(),
    rd: featureGrantSchema.optional(),
    sd: featureGrantSchema.optional(),
    lo: featureGrantSchema.optional(),
  })
  .strict();
export type PermissionRecord = z.infer<typeof permissionRecordSchema>;
export type PermissionRecordInput = z.input<typeof permissionRecordSchema>;
