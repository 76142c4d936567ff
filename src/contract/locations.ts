import * as z from 'zod/mini';

export const locationSchema = z.object({
  location_id: z.int().check(z.positive()),
  name: z.string(),
  address: z.string(),
  time_zone: z.string(),
  capacity: z.int().check(z.nonnegative()),
  status: z.enum(['active', 'inactive']),
  enforcement_enabled: z.boolean(),
  grace_period_minutes: z.int().check(z.nonnegative()),
});
export type Location = z.infer<typeof locationSchema>;

export const LOCATIONS_PATH = '/locations';
export const locationsListDataSchema = z.array(locationSchema);
export const locationParamsSchema = z.object({ locationId: z.coerce.number().check(z.int(), z.positive()) });
