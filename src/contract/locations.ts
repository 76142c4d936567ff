import { z } from 'zod';

export const locationSchema = z.object({
  location_id: z.number().int().positive(),
  name: z.string(),
  address: z.string(),
  time_zone: z.string(),
  capacity: z.number().int().nonnegative(),
  status: z.enum(['active', 'inactive']),
  enforcement_enabled: z.boolean(),
  grace_period_minutes: z.number().int().nonnegative(),
});
export type Location = z.infer<typeof locationSchema>;

export const LOCATIONS_PATH = '/locations';
export const locationsListDataSchema = z.array(locationSchema);
export const locationParamsSchema = z.object({ locationId: z.coerce.number().int().positive() });
