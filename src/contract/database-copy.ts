import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';

/** Database Copy (issue 14, superuser only, never from the production admin host): docs/database-copy.md. */
export const COPY_TABLE_NAMES = [
  'locations',
  'rate_configs',
  'rate_sets',
  'bookings',
  'monthly_parkers',
  'transactions',
  'refund_tickets',
  'refund_ticket_notes',
  'refunds',
] as const;
export type CopyTableName = (typeof COPY_TABLE_NAMES)[number];

export const DATABASE_COPY_DATABASES_PATH = '/database-copy/databases';
export const DATABASE_COPY_COUNTS_PATH = '/database-copy/counts';
export const DATABASE_COPY_SAMPLE_PATH = '/database-copy/sample';
export const DATABASE_COPIES_PATH = '/database-copies';

const databaseName = z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'Choose a database from the list.'));

export const copyDatabaseSchema = z.object({
  name: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  /** Never a target. */
  production: z.boolean(),
});
export type CopyDatabase = z.infer<typeof copyDatabaseSchema>;

export const copyTableInfoSchema = z.object({
  name: z.enum(COPY_TABLE_NAMES),
  label: z.string(),
  /** Columns replaced by made-up values when masking is on. */
  masked_columns: z.array(z.string()),
  /** Tables that are copied with this one (they reference it, and would lose their parents). */
  includes: z.array(z.enum(COPY_TABLE_NAMES)),
  /** Tables whose rows this one references: they must be on the target already, or be copied too. */
  requires: z.array(z.enum(COPY_TABLE_NAMES)),
});
export type CopyTableInfo = z.infer<typeof copyTableInfoSchema>;

export const copyOptionsSchema = z.object({
  databases: z.array(copyDatabaseSchema),
  tables: z.array(copyTableInfoSchema),
});
export type CopyOptions = z.infer<typeof copyOptionsSchema>;

export const copyCountsQuerySchema = z.object({ database: databaseName });
export const copyCountsSchema = z.object({
  database: z.string(),
  counts: z.partialRecord(z.enum(COPY_TABLE_NAMES), z.number()),
});
export type CopyCounts = z.infer<typeof copyCountsSchema>;

export const copySampleQuerySchema = z.object({ database: databaseName, table: z.enum(COPY_TABLE_NAMES) });
/** A few rows of a table's key and masked columns: how a user sees that masking did its work. */
export const copySampleSchema = z.object({
  database: z.string(),
  table: z.enum(COPY_TABLE_NAMES),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.nullable(z.string()))),
});
export type CopySample = z.infer<typeof copySampleSchema>;

export const copyRequestSchema = z.strictObject({
  source: databaseName,
  target: databaseName,
  tables: z
    .array(z.enum(COPY_TABLE_NAMES, 'Choose tables from the list.'))
    .check(z.minLength(1, 'Choose at least one table.')),
  mask: z.boolean('Say whether to mask personal data.'),
  /** The target's name, typed by the user: the copy replaces its tables. */
  confirm_target: z.string('Type the target database’s name to confirm.'),
});
export type CopyRequest = z.infer<typeof copyRequestSchema>;

export const COPY_STATUSES = ['running', 'done', 'failed'] as const;
export const copyTableProgressSchema = z.object({
  table: z.enum(COPY_TABLE_NAMES),
  /** Rows in the source when the copy started (what the progress counts towards). */
  total: z.number(),
  rows: z.number(),
  status: z.enum(['waiting', 'copying', 'done', 'failed', 'rolled_back']),
});
export type CopyTableProgress = z.infer<typeof copyTableProgressSchema>;

export const databaseCopySchema = z.object({
  copy_id: z.int().check(z.positive()),
  source: z.string(),
  target: z.string(),
  masked: z.boolean(),
  status: z.enum(COPY_STATUSES),
  tables: z.array(copyTableProgressSchema),
  rows_copied: z.number(),
  error: z.nullable(z.string()),
  started_by_email: z.string(),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
});
export type DatabaseCopy = z.infer<typeof databaseCopySchema>;
export const databaseCopyListSchema = z.array(databaseCopySchema);
export const databaseCopyParamsSchema = z.object({ copyId: canonicalIdParam() });
