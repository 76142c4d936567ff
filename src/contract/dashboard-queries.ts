import * as z from 'zod/mini';

/**
 * The dashboards' query parameters and paths, apart from their response schemas (dashboards.ts): the routes'
 * validateSearch stays in the console's entry chunk, so only these few lines join it.
 */
const optionalPattern = (pattern: RegExp, message: string) =>
  z.optional(z.string().check(z.refine((value) => pattern.test(value), message)));
const locationIdParam = optionalPattern(/^[1-9]\d{0,9}$/, 'must be a location id');
const dateParam = optionalPattern(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)');

export const REALTIME_DASHBOARD_PATH = '/dashboards/realtime';
export const REALTIME_STREAM_PATH = '/dashboards/realtime/stream';
export const SETTLED_DASHBOARD_PATH = '/dashboards/settled';
export const SETTLED_EXPORT_PATH = '/dashboards/settled/export';

/** `?locationId=`: one of the user's locations, or all of them. */
export const realtimeQuerySchema = z.object({ locationId: locationIdParam });
export type RealtimeQuery = z.infer<typeof realtimeQuerySchema>;

/** The named ranges, resolved by the server in the locations' own zones (settled-ranges.ts). */
export const SETTLED_PRESETS = ['yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth'] as const;
export type SettledPreset = (typeof SETTLED_PRESETS)[number];

/**
 * Settled money between two local days, both included (at most 366: settled-ranges.ts), or over a named `range`
 * (default: the last 7 complete days); `from` and `to` win over `range`.
 */
export const settledQuerySchema = z.object({
  range: z.optional(z.enum(SETTLED_PRESETS, 'must be yesterday, last7, last30, thisMonth or lastMonth')),
  from: dateParam,
  to: dateParam,
  locationId: locationIdParam,
});
export type SettledQuery = z.infer<typeof settledQuerySchema>;

/** The settled dashboard's ranges; `custom` takes `from` and `to`. */
export const SETTLED_RANGES = [...SETTLED_PRESETS, 'custom'] as const;
export type SettledRange = (typeof SETTLED_RANGES)[number];

/** The settled dashboard's URL: a named range (default: the last 7 days) or a custom one, and the location. */
export const settledSearchSchema = z.object({
  range: z.optional(z.enum(SETTLED_RANGES)),
  from: dateParam,
  to: dateParam,
  locationId: locationIdParam,
});
export type SettledSearch = z.infer<typeof settledSearchSchema>;
