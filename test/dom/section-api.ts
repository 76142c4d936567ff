import { vi } from 'vitest';
import type { ApiClient, DownloadOptions, QueryPayload } from '../../src/api/client';
import type { Location } from '../../src/contract/locations';
import { DEMO_LOCATIONS } from '../../server/db/seed/demo-locations';

type Answer = unknown | ((payload: unknown) => unknown);

/**
 * An API for the admin sections' screens: answers by method and path (a value, or a function of the payload that may
 * return a promise or throw an ApiError), and records every call, so a test can say what the screen asked for.
 */
export function sectionApi(answers: { get?: Record<string, Answer>; post?: Record<string, Answer> }) {
  const calls: { method: 'GET' | 'POST' | 'DOWNLOAD'; path: string; payload: unknown }[] = [];
  const answer = async (method: 'GET' | 'POST', path: string, payload: unknown) => {
    calls.push({ method, path, payload });
    const table = (method === 'GET' ? answers.get : answers.post) ?? {};
    if (!(path in table)) throw new Error(`unexpected API call ${method} ${path}`);
    const found = table[path];
    return typeof found === 'function' ? (found as (payload: unknown) => unknown)(payload) : found;
  };
  const api: ApiClient = {
    get: (path: string, payload: QueryPayload | undefined) => answer('GET', path, payload),
    post: (path: string, payload: unknown) => answer('POST', path, payload),
    download: vi.fn(async (path: string, payload: QueryPayload | undefined, _options: DownloadOptions) => {
      calls.push({ method: 'DOWNLOAD', path, payload });
      return { blob: new Blob(['a,b\r\n']), fileName: 'export.csv' };
    }),
  } as unknown as ApiClient;
  return { api, calls };
}

export function demoLocation(locationId: number, changes: Partial<Location> = {}): Location {
  const seed = DEMO_LOCATIONS.find((location) => location.location_id === locationId);
  if (!seed) throw new Error(`no demo location ${locationId}`);
  return { ...seed, version: 1, updated_at: '2026-11-01T12:00:00.000Z', ...changes } as Location;
}

export function pageOf<Row>(rows: Row[], changes: { total?: number; page?: number; pageSize?: number; totalIsLowerBound?: boolean } = {}) {
  return { rows, total: rows.length, totalIsLowerBound: false, page: 1, pageSize: 25, ...changes };
}
