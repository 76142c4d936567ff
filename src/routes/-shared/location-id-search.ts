import * as z from 'zod/mini';
import { canonicalIdParam } from '../../contract/ids';

// The router hands a number back for "?locationId=2", the address bar a string: both are read as the canonical id.
// Imported by `validateSearch`, so it sits in the entry chunk: keep it to this schema.
export const locationIdSearchSchema = z.object({ locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())) });
