import * as z from 'zod/mini';

/**
 * What every admin list shares (docs/sections.md "Lists"): page and page size, sort key and direction, all in the
 * URL and sent to the server unchanged, and the page the server answers with.
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
/**
 * Totals are counted exactly up to here and shown as "10,000+" beyond: counting every match of a two-letter plate
 * fragment over millions of payments would cost more than the page itself. Pages reach no further either; past
 * that, narrow the search or export the CSV, which has every row
 * (docs/decisions/0043-list-totals-and-pages-capped-at-10000.md).
 */
export const LIST_ROW_LIMIT = 10_000;
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Query values arrive as strings from a URL, or as numbers from the router's parsed search: both are accepted. */
const wholeNumber = (min: number, max: number, message: string) =>
  z.pipe(
    z.coerce.string().check(z.regex(/^\d{1,9}$/, message)),
    z.pipe(z.transform((value: string) => Number(value)), z.int().check(z.gte(min, message), z.lte(max, message))),
  );

export const pageParam = z.optional(wholeNumber(1, LIST_ROW_LIMIT, 'must be a page number from 1'));
export const pageSizeParam = z.optional(
  z.pipe(
    wholeNumber(1, 100, 'must be 10, 25, 50 or 100'),
    z.int().check(z.refine((size) => (PAGE_SIZES as readonly number[]).includes(size), 'must be 10, 25, 50 or 100')),
  ),
);
export const directionParam = z.optional(z.enum(SORT_DIRECTIONS));

/** A free-text filter: numbers from the router's search parsing come back as text; blank means no filter. */
export const textFilter = (maxLength: number) =>
  z.optional(
    z.pipe(
      z.coerce.string(),
      z.pipe(
        z.transform((value: string) => value.trim()),
        z.string().check(z.maxLength(maxLength, `must be at most ${maxLength} characters`)),
      ),
    ),
  );

export function pagedSchema<Row extends z.core.$ZodType>(row: Row) {
  return z.object({
    rows: z.array(row),
    /** Rows matching the filter, counted up to LIST_ROW_LIMIT. */
    total: z.int().check(z.nonnegative()),
    /** True when there are more than `total` rows (the count stopped at LIST_ROW_LIMIT). */
    totalIsLowerBound: z.boolean(),
    page: z.int().check(z.positive()),
    pageSize: z.int().check(z.positive()),
  });
}
export interface Paged<Row> {
  rows: Row[];
  total: number;
  totalIsLowerBound: boolean;
  page: number;
  pageSize: number;
}

/** What the list endpoints need of any list query once defaults are applied. */
export interface ListWindow {
  page: number;
  pageSize: number;
}
export function listWindow(query: { page?: number | undefined; pageSize?: number | undefined }): ListWindow {
  return { page: query.page ?? 1, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE };
}

/** One entry of a record's History panel: who did what, when, and which fields changed from what to what. */
export const auditChangeSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export const auditEntrySchema = z.object({
  audit_id: z.int().check(z.positive()),
  at: z.string(),
  actor: z.nullable(z.object({ email: z.string(), name: z.nullable(z.string()) })),
  action: z.string(),
  changes: z.array(auditChangeSchema),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const historySchema = z.array(auditEntrySchema);

/**
 * The body of a 409 for a stale version: who changed the record, when, and what it holds now, so a form can say so
 * and offer to reload without losing what was typed.
 */
export const versionConflictSchema = z.object({
  currentVersion: z.int().check(z.positive()),
  changedAt: z.nullable(z.string()),
  changedBy: z.nullable(z.object({ email: z.string(), name: z.nullable(z.string()) })),
});
export type VersionConflict = z.infer<typeof versionConflictSchema>;

/** A 400 that a form can place at its fields: field name → message. */
export const fieldErrorsSchema = z.object({ fieldErrors: z.record(z.string(), z.string()) });
