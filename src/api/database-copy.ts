import {
  DATABASE_COPIES_PATH,
  DATABASE_COPY_COUNTS_PATH,
  DATABASE_COPY_DATABASES_PATH,
  DATABASE_COPY_SAMPLE_PATH,
  copyCountsSchema,
  copyOptionsSchema,
  copySampleSchema,
  databaseCopyListSchema,
  databaseCopySchema,
  type CopyCounts,
  type CopyOptions,
  type CopyRequest,
  type CopySample,
  type CopyTableName,
  type DatabaseCopy,
} from '../contract/database-copy';
import type { ApiClient, RequestOptions } from './client';

/** Database Copy (issue 14). Starting is quiet about what the screen explains in place: 400, 403 and 409. */
const IN_PLACE = { quietStatuses: [400, 403, 409] } as const;

export function getCopyOptions(client: ApiClient, options?: RequestOptions): Promise<CopyOptions> {
  return client.get(DATABASE_COPY_DATABASES_PATH, undefined, copyOptionsSchema, options);
}

export function getCopyCounts(client: ApiClient, database: string, options?: RequestOptions): Promise<CopyCounts> {
  return client.get(DATABASE_COPY_COUNTS_PATH, { database }, copyCountsSchema, options);
}

export function getCopySample(
  client: ApiClient,
  database: string,
  table: CopyTableName,
  options?: RequestOptions,
): Promise<CopySample> {
  return client.get(DATABASE_COPY_SAMPLE_PATH, { database, table }, copySampleSchema, options);
}

export function listCopies(client: ApiClient, options?: RequestOptions): Promise<DatabaseCopy[]> {
  return client.get(DATABASE_COPIES_PATH, undefined, databaseCopyListSchema, options);
}

export function getCopy(client: ApiClient, copyId: number, options?: RequestOptions): Promise<DatabaseCopy> {
  return client.get(`${DATABASE_COPIES_PATH}/${copyId}`, undefined, databaseCopySchema, options);
}

export function startCopy(client: ApiClient, request: CopyRequest): Promise<DatabaseCopy> {
  return client.post(DATABASE_COPIES_PATH, request, databaseCopySchema, IN_PLACE);
}
