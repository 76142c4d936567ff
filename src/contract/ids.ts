import * as z from 'zod/mini';

/** PostgreSQL integer keys (serial) stop here; a larger id cannot exist. */
export const MAX_INT_ID = 2_147_483_647;
/** bigint identity keys (transactions) are kept within what a JavaScript number holds exactly. */
export const MAX_BIGINT_ID = Number.MAX_SAFE_INTEGER;

/**
 * An id in a path or query parameter, accepted only in canonical decimal form: "1", never "01", "+1", "1.0", "1e0",
 * "0x1" or " 1" (docs/api.md "Ids"). Coercing with Number() would accept all of those as 1, so that several URLs
 * would name one record.
 */
export function canonicalIdParam(max: number = MAX_INT_ID) {
  return z.pipe(
    z.string().check(z.regex(/^[1-9][0-9]{0,15}$/, 'must be a positive whole number written in decimal digits')),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.number().check(z.lte(max, `must be at most ${max}`)),
    ),
  );
}
